#!/bin/bash
# Deobfuscation end to end (docs/DEOBFUSCATE_PASSES.md). The brightening corpus
# (tests/brighten/corpus.c, 38 functions) is compiled by clang-19 with the test obfuscator
# plugin, one transformation at a time and all four together, at each level; each build goes
# through the brightening harness (tests/brighten/run-corpus.sh: lift with --brighten
# --deobfuscate-passes, recompile, compare with the protected original on random inputs). Then every
# function's IR instruction count is compared with the unprotected build's, lifted the same way.
# Usage: run-corpus.sh HOIST PLUGIN WORKDIR [LEVEL ...]   (levels: O0 O2 by default)
# Prints one line per function and configuration with the ratio, then a summary per
# configuration; exits 1 if a brightened function differs from its original, a lift fails, or
# a ratio is above the limit (MAX_RATIO, default 1.5; ctest sets it high: see
# docs/DEOBFUSCATE_PASSES.md for the functions over 1.5 today).
set -u
hoist=$1 plugin=$2 work=$3
shift 3
levels=("$@")
[ ${#levels[@]} -eq 0 ] && levels=(O0 O2)
here=$(cd "$(dirname "$0")" && pwd)
harness=$here/../brighten/run-corpus.sh
limit=${MAX_RATIO:-1.5}
# MODES: the obfuscations to run besides "none" (the unprotected reference).
read -r -a modes <<<"none ${MODES:-substitute mba bogus flatten substitute,mba,bogus,flatten}"
names=$(sed -n 's/^  X([^,]*, \([a-z_0-9]*\),.*/\1/p' "$here/../brighten/corpus.h")
functionArgs=()
for name in $names; do functionArgs+=(--function "$name"); done
# OBFUSCATE_EVERY=N protects every Nth corpus function only (default 1: all of them); the
# sanitizer build's ctest entry samples this way (docs/ROBUSTNESS.md). Every function is still
# lifted and compared.
every=${OBFUSCATE_EVERY:-1}
protected=$(echo "$names" | awk -v every="$every" '(NR - 1) % every == 0' | paste -sd, -)
[ "$every" = 1 ] && protected='*'
# "name count" for each defined function of an .ll file.
count() {
  awk '/^define/ { match($0, /@[A-Za-z_0-9.]+/); name = substr($0, RSTART + 1, RLENGTH - 1); n = 0; next }
       /^}/ { if (name != "") print name, n; name = ""; next }
       name != "" && $0 ~ /^  / && $0 !~ /^ *;/ { n++ }' "$1" | sort
}
mkdir -p "$work"
status=0
for level in "${levels[@]}"; do
  for mode in "${modes[@]}"; do
    label=${mode//substitute,mba,bogus,flatten/all}
    dir=$work/$label
    extra=""
    [ "$mode" != none ] && extra="-fpass-plugin=$plugin"
    summary=$(HOIST_OBFUSCATE=$mode HOIST_OBFUSCATE_FUNCTIONS="$protected" CORPUS_CFLAGS="$extra" \
      HOIST_FLAGS=--deobfuscate-passes "$harness" "$hoist" "$dir" "clang-19:$level")
    [ $? -eq 0 ] || status=1
    echo "$label $level: ${summary#*: }"
    built=$dir/clang-19-$level
    if ! "$hoist" lift "$built/corpus.bin" "${functionArgs[@]}" --brighten -O2 --deobfuscate-passes \
        -o "$built/deobfuscated.ll" --diagnostics "$built/diagnostics.json" 2>/dev/null; then
      echo "$label $level: lift to IR failed"; status=1; continue
    fi
    count "$built/deobfuscated.ll" >"$built/counts"
  done
  reference=$work/none/clang-19-$level/counts
  for mode in "${modes[@]:1}"; do
    label=${mode//substitute,mba,bogus,flatten/all}
    join "$work/$label/clang-19-$level/counts" "$reference" |
      awk -v config="$label-$level" -v limit="$limit" '
        { ratio = $3 ? $2 / $3 : 1; printf "%-10s %-18s %5d %5d %5.2f%s\n", config, $1, $2, $3, ratio, (ratio > limit ? "  OVER" : "")
          r[NR] = ratio; over += ratio > limit; within12 += ratio <= 1.2 }
        END { n = NR; for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }; m = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
              printf "%-10s %d functions: median %.2f, max %.2f, <= 1.2: %d, over %.1f: %d\n", config, n, m, r[n], within12, limit, over
              exit (over > 0) }' >"$work/$label-$level.ratios"
    [ $? -eq 0 ] || status=1
    tail -1 "$work/$label-$level.ratios"
  done
done
exit $status
