#!/usr/bin/env bash
# translate_features: features.c built by gcc (and clang-19 where installed) at -O0 and -O2,
# one of them PIE and the other not (alternating between the compilers, so that each
# compiler and level meets both), each translated by `hoist translate`; the translated program must print the
# same output and exit with the same status as the original, and libc's callbacks (qsort,
# bsearch, atexit) must have entered lifted code.
# Usage: run-features.sh HOIST WORKDIR
set -uo pipefail
hoist=$1 work=$2
source=$(dirname "$0")/features.c
mkdir -p "$work"
compilers=(gcc)
command -v clang-19 >/dev/null && compilers+=(clang-19)
failures=0 checked=0
for compiler in "${compilers[@]}"; do
  for level in -O0 -O2; do
    for pie in -no-pie -pie; do
      [ "$compiler$level" = gcc-O0 ] && [ "$pie" = -pie ] && continue
      [ "$compiler$level" = gcc-O2 ] && [ "$pie" = -no-pie ] && continue
      [ "$compiler$level" = clang-19-O0 ] && [ "$pie" = -no-pie ] && continue
      [ "$compiler$level" = clang-19-O2 ] && [ "$pie" = -pie ] && continue
      name="$work/features-$compiler$level$pie"
      if ! "$compiler" $level $pie -o "$name" "$source"; then
        echo "FAIL: $compiler $level $pie does not compile"; failures=$((failures + 1)); continue
      fi
      if ! "$hoist" translate "$name" -o "$name.translated"; then
        echo "FAIL: $name: hoist translate failed"; failures=$((failures + 1)); continue
      fi
      "$name" -v -l label a b >"$name.expected" 2>&1
      echo "exit $?" >>"$name.expected"
      HOIST_TRANSLATE_STATS=1 "$name.translated" -v -l label a b >"$name.actual" 2>"$name.stats"
      echo "exit $?" >>"$name.actual"
      checked=$((checked + 1))
      if ! cmp -s "$name.expected" "$name.actual"; then
        echo "FAIL: $name: the translated program behaves differently"
        diff "$name.expected" "$name.actual" | head -20
        cat "$name.stats"
        failures=$((failures + 1))
        continue
      fi
      # qsort and bsearch compare through the program's functions, atexit runs two of them.
      entries=$(sed -n 's/.* \([0-9]*\) entries from native code.*/\1/p' "$name.stats")
      if [ -z "$entries" ] || [ "$entries" -lt 30 ]; then
        echo "FAIL: $name: callbacks did not reach lifted code ($(cat "$name.stats"))"
        failures=$((failures + 1))
      fi
    done
  done
done
echo "translate_features: $((checked - failures)) of $checked configurations behave the same"
[ "$failures" -eq 0 ] && [ "$checked" -gt 0 ]
