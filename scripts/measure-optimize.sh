#!/bin/sh
# Instruction counts and optimization time of lifted functions: unoptimized, LLVM's O2 alone
# (what `hoist lift -O2` ran before lib/Passes), and Hoist's pipeline (`hoist lift -O2` now).
# One markdown table row per function (docs/OPTIMIZE.md).
#
#   scripts/measure-optimize.sh BINARY FUNCTION...
#
# Columns: IR instructions at -O0; after LLVM O2 and its time; after Hoist's -O2, its fixpoint
# rounds and its time (fixpoint + final O2); flag formulas left after each: `xor i1`, and
# sign tests (`icmp slt x, 0`, `icmp sgt x, -1`) of an `xor`, the SF != OF shape.
set -eu
build=${HOIST_BUILD_DIR:-build}
hoist=$build/tools/hoist/hoist
opt=$build/tools/hoist/hoist-opt
binary=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# "instructions: N before, ... M after" and "time: T ms ..." from hoist-opt --report.
field() { sed -n "$1" "$2"; }
# Flag formulas in an IR file: xor of i1, and sign tests of a value an xor defines.
flag_formulas() {
  awk '/ = xor i1 / { n++ }
       / = xor i[0-9]+ / { xors[$1] = 1 }
       /icmp (slt|sgt) i[0-9]+ %[^,]+, (0|-1)$/ || /icmp (slt|sgt) i[0-9]+ %[^,]+, (0|-1),/ {
         for (i = 1; i <= NF; i++) if ($i ~ /^i[0-9]+$/) { v = $(i + 1); sub(/,$/, "", v); break }
         if (v in xors) n++
       }
       END { print n + 0 }' "$1"
}

echo "| function | -O0 | LLVM O2 | ms | Hoist -O2 | rounds | ms (fixpoint + O2) | flag formulas left (LLVM / Hoist) |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
for function in "$@"; do
  "$hoist" lift "$binary" --function "$function" -o "$work/f.ll"
  "$opt" "$work/f.ll" -passes='default<O2>' --report -o "$work/llvm.ll" 2> "$work/llvm.txt"
  "$opt" "$work/f.ll" --image "$binary" -O2 --report -o "$work/hoist.ll" 2> "$work/hoist.txt"
  before=$(field 's/^instructions: \([0-9]*\) before.*/\1/p' "$work/llvm.txt")
  llvm=$(field 's/.* \([0-9]*\) after$/\1/p' "$work/llvm.txt")
  llvm_ms=$(field 's/^time: \([0-9.]*\) ms.*/\1/p' "$work/llvm.txt")
  hoist_count=$(field 's/.* \([0-9]*\) after$/\1/p' "$work/hoist.txt")
  rounds=$(grep -o 'after round [0-9]*' "$work/hoist.txt" | tail -1 | grep -o '[0-9]*$')
  split=$(field 's/^time: [0-9.]* ms (fixpoint \([0-9.]*\) ms, final \([0-9.]*\) ms)/\1 + \2/p' "$work/hoist.txt")
  xor_llvm=$(flag_formulas "$work/llvm.ll")
  xor_hoist=$(flag_formulas "$work/hoist.ll")
  echo "| $function | $before | $llvm | $llvm_ms | $hoist_count | $rounds | $split | $xor_llvm / $xor_hoist |"
done
