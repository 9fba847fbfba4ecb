#!/bin/bash
# Output quality of brightening (docs/BRIGHTEN.md): for every corpus function brightened by a
# run of tests/brighten/run-corpus.sh, its IR instruction count against clang-19 -O2's IR of
# the same C source; prints per configuration the functions compared and the median ratio.
# Usage: scripts/brighten-quality.sh WORKDIR [HOIST]   (the run-corpus.sh work directory; HOIST
# defaults to build/tools/hoist/hoist), after run-corpus.sh: lifts each configuration's binary
# again with --brighten -O2 to IR.
set -eu
work=$1
here=$(cd "$(dirname "$0")/.." && pwd)
hoist=${2:-$here/build/tools/hoist/hoist}
names=$(sed -n 's/^  X([^,]*, \([a-z_0-9]*\),.*/\1/p' "$here/tests/brighten/corpus.h")
functionArgs=()
for name in $names; do functionArgs+=(--function "$name"); done
for dir in "$work"/*/; do
  for binary in "$dir/corpus.bin" "$dir/corpus.exe"; do
    [ -f "$binary" ] && "$hoist" lift "$binary" "${functionArgs[@]}" --brighten -O2 \
      -o "$dir/brightened.ll" 2>/dev/null
  done
done
clang-19 -O2 -fno-builtin -S -emit-llvm "$here/tests/brighten/corpus.c" -o "$work/clang-O2.ll"
# "name count" for each defined function: instructions are the body lines that are neither
# labels, comments nor braces.
count() {
  awk '/^define/ { match($0, /@[A-Za-z_0-9.]+/); name = substr($0, RSTART + 1, RLENGTH - 1); n = 0; next }
       /^}/ { if (name != "") print name, n; name = ""; next }
       name != "" && $0 ~ /^  / && $0 !~ /^ *;/ { n++ }' "$1"
}
count "$work/clang-O2.ll" | sort >"$work/clang-O2.count"
for dir in "$work"/*/; do
  [ -f "$dir/brightened.ll" ] || continue
  count "$dir/brightened.ll" | sort >"$dir/brightened.count"
  join "$dir/brightened.count" "$work/clang-O2.count" |
    awk '{ printf "%.4f\n", $2 / $3 }' | sort -n |
    awk -v config="$(basename "$dir")" '{ r[NR] = $1 } END {
      n = NR; m = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2;
      printf "%-14s %2d functions, median ratio to clang -O2: %.2f (min %.2f, max %.2f)\n", config, n, m, r[1], r[n] }'
done
