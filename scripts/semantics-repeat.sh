#!/usr/bin/env bash
# Runs the differential harness (ctest label `semantics`: the table's shards and the
# stack-pointer forms) N times in a row, each time with a new HOIST_SEMANTICS_SEED, and says how
# many runs passed: scripts/semantics-repeat.sh [N=10] [BUILD_DIR=build], with 10,000 states
# per form unless HOIST_SEMANTICS_STATES says otherwise (ctest's own entries draw 3,000). Exits
# non-zero if any failed. docs/TESTING.md, "The native runner and the stack pointer", reports its figure.
set -euo pipefail
runs=${1:-10}
build=$(cd "${2:-build}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
passed=0
for run in $(seq 1 "$runs"); do
  seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
  echo "run $run of $runs: HOIST_SEMANTICS_SEED=$seed"
  if (cd "$build" && HOIST_SEMANTICS_SEED=$seed \
        HOIST_SEMANTICS_STATES=${HOIST_SEMANTICS_STATES:-10000} ctest -L semantics -j "$(nproc)" \
        --output-on-failure > "$build/semantics-repeat-$run.log" 2>&1); then
    passed=$((passed + 1))
  else
    echo "  failed: $build/semantics-repeat-$run.log"
  fi
  "$root/scripts/semantics-totals.sh" "$build" | sed 's/^/  /'
  grep -h "^stack-pointer forms:" "$build/Testing/Temporary/LastTest.log" | sed 's/^/  /' || true
done
echo "$passed of $runs runs passed"
[ "$passed" -eq "$runs" ]
