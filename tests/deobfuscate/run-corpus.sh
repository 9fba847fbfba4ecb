#!/bin/bash
# Deobfuscation end to end (docs/DEOBFUSCATE.md). The brightening corpus
# (tests/brighten/corpus.c) is compiled by clang-19 with the test obfuscator plugin, one
# protection at a time and all four together, at each level; each build goes through the
# brightening harness (tests/brighten/run-corpus.sh: lift with --brighten --deobfuscate=passes,
# recompile, compare with the protected original on random inputs). Then every function's IR
# instruction count (of that same lift) is compared with the unprotected build's.
# Usage: run-corpus.sh [--full] HOIST PLUGIN WORKDIR [LEVEL ...]
#   default (the ctest gate): level O0, a representative subset of the functions (SUBSET:
#     loops, recursion, calls, a switch, memory, many arguments), every protection alone and
#     all four together;
#   --full: every corpus function, levels O0 and O2 (unless LEVELs are given).
# CORPUS_FUNCTIONS, when set, chooses the functions (any level; e.g. one function over the
# gate, lifted again after a change: `CORPUS_FUNCTIONS=six MODES=all run-corpus.sh ... O2`).
# MODES overrides the protections ("substitute mba bogus flatten all"; "all" is the four
# together). Prints one line per function and configuration with the ratio, then a summary
# per configuration; exits 1 if a brightened function differs from its original (the
# correctness gate), a lift fails or a chosen function is not brightened (the coverage gate),
# or a ratio is above MAX_RATIO (default 1.5; ctest keeps it unless built without Z3:
# docs/DEOBFUSCATE.md lists the functions over 1.5 today). ratio-table.sh WORKDIR prints the
# per-function table of the doc.
set -u
full=0
[ "${1:-}" = --full ] && { full=1; shift; }
hoist=$1 plugin=$2 work=$3
shift 3
levels=("$@")
here=$(cd "$(dirname "$0")" && pwd)
harness=$here/../brighten/run-corpus.sh
limit=${MAX_RATIO:-1.5}
read -r -a modes <<<"none ${MODES:-substitute mba bogus flatten all}"
if [ -n "${CORPUS_FUNCTIONS:-}" ]; then
  [ ${#levels[@]} -eq 0 ] && levels=(O0)
  export CORPUS_FUNCTIONS
elif [ $full = 1 ]; then
  [ ${#levels[@]} -eq 0 ] && levels=(O0 O2)
  export CORPUS_FUNCTIONS=""
else
  [ ${#levels[@]} -eq 0 ] && levels=(O0)
  # Closed under calls (call_seven calls seven_sum), each function tested on its own by the
  # driver; the others show as declined.
  export CORPUS_FUNCTIONS="six rotl64 popcount_loop factorial fib_iter sum_array classify
    bytes_until_zero fact_rec fib_rec seven_sum call_seven fill_sum"
fi
# "name count" for each defined function of an .ll file.
count() {
  awk '/^define/ { match($0, /@[A-Za-z_0-9.]+/); name = substr($0, RSTART + 1, RLENGTH - 1); n = 0; next }
       /^}/ { if (name != "") print name, n; name = ""; next }
       name != "" && $0 ~ /^  / && $0 !~ /^ *;/ { n++ }' "$1" | sort
}
# How many functions the coverage gate expects brightened.
if [ -n "$CORPUS_FUNCTIONS" ]; then
  chosen=$(wc -w <<<"$CORPUS_FUNCTIONS")
else
  chosen=$(grep -c '^  X(' "$here/../brighten/corpus.h")
fi
mkdir -p "$work"
status=0
for level in "${levels[@]}"; do
  for label in "${modes[@]}"; do
    mode=${label/#all/substitute,mba,bogus,flatten}
    dir=$work/$label
    extra=""
    [ "$mode" != none ] && extra="-fpass-plugin=$plugin"
    built=$dir/clang-19-$level
    # One lift per build: the harness keeps its IR (LIFT_IR), which is what is counted.
    summary=$(HOIST_OBFUSCATE=$mode HOIST_OBFUSCATE_FUNCTIONS='*' CORPUS_CFLAGS="$extra" LIFT_IR=1 \
      HOIST_FLAGS="--deobfuscate=passes --diagnostics $built/diagnostics.json" \
      "$harness" "$hoist" "$dir" "clang-19:$level")
    [ $? -eq 0 ] || status=1
    echo "$label $level: ${summary#*: }"
    # The coverage gate: every function chosen was lifted and brightened (not declined).
    brightened=$(sed -n 's/.*brightened \([0-9]*\),.*/\1/p' <<<"$summary")
    if [ "${brightened:-0}" != "$chosen" ]; then
      echo "$label $level: coverage: ${brightened:-0} of $chosen functions brightened"; status=1
    fi
    if [ ! -s "$built/brightened.ll" ]; then
      echo "$label $level: lift to IR failed"; status=1; continue
    fi
    count "$built/brightened.ll" >"$built/counts"
  done
  reference=$work/none/clang-19-$level/counts
  for label in "${modes[@]:1}"; do
    join "$work/$label/clang-19-$level/counts" "$reference" |
      awk -v config="$label-$level" -v limit="$limit" '
        { ratio = $3 ? $2 / $3 : 1; printf "%-10s %-18s %5d %5d %5.2f%s\n", config, $1, $2, $3, ratio, (ratio > limit ? "  OVER" : "")
          r[NR] = ratio; sum += ratio; over += ratio > limit; within12 += ratio <= 1.2 }
        END { n = NR; for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t }; m = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
              printf "%-10s %d functions: mean %.2f, median %.2f, max %.2f, <= 1.2: %d, over %.1f: %d\n", config, n, sum / n, m, r[n], within12, limit, over
              exit (over > 0) }' >"$work/$label-$level.ratios"
    [ $? -eq 0 ] || status=1
    tail -1 "$work/$label-$level.ratios"
  done
done
exit $status
