#!/usr/bin/env bash
# Many random instruction sequences through every pipeline (docs/TESTING.md, "Sequences"), in
# rounds of HOIST_SEQUENCE_ROUND sequences (default 5000), each round with a new seed it prints,
# until COUNT sequences ran (default 1,000,000); then the totals. A round that fails keeps its
# log in BUILD_DIR/sequence-logs/ and the loop goes on.
#   scripts/semantics-sequences.sh [COUNT] [BUILD_DIR]
set -euo pipefail
count=${1:-1000000}
build=${2:-build}
round=${HOIST_SEQUENCE_ROUND:-5000}
binary=$build/tests/semantics/semantics_sequences
[ -x "$binary" ] || { echo "no $binary: build the target semantics_sequences" >&2; exit 1; }
logs=$build/sequence-logs
mkdir -p "$logs"
summaries=$(mktemp)
trap 'rm -f "$summaries"' EXIT
ran=0 failed=0
while (( ran < count )); do
  this=$(( count - ran < round ? count - ran : round ))
  seed=0x$(od -An -N8 -tx8 /dev/urandom | tr -d ' \n')
  log=$logs/sequences-$seed.log
  status=passed
  HOIST_SEQUENCE_SEED=$seed HOIST_SEQUENCE_COUNT=$this "$binary" \
    --gtest_filter=Sequences.* > "$log" 2>&1 || { status="FAILED, log $log"; failed=$((failed + 1)); }
  summary=$(grep -h '^sequences: [0-9]* sequences' "$log" || echo "sequences: no summary")
  echo "$summary" >> "$summaries"
  echo "HOIST_SEQUENCE_SEED=$seed HOIST_SEQUENCE_COUNT=$this: $status: ${summary#sequences: }"
  [ "$status" != passed ] || rm -f "$log"
  ran=$(( ran + this ))
done
# "sequences: S sequences, T steps, I instructions, E executions (F native faults), M mismatches
# in N sequences, ..."
awk '/^sequences: [0-9]+ sequences/ {
       s += $2; t += $4; i += $6; e += $8; f += substr($10, 2); m += $13 }
     END { printf "total: %d sequences, %d steps, %d instructions, %d executions (%d native faults), %d mismatches\n", s, t, i, e, f, m }' \
  "$summaries"
echo "rounds failed: $failed"
[ "$failed" -eq 0 ]
