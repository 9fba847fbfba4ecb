#!/usr/bin/env bash
# The differential harness's totals over its ctest shards (tests/semantics/CMakeLists.txt), from
# a build dir's last ctest log: scripts/semantics-totals.sh [BUILD_DIR]. Prints nothing if the
# harness did not run.
set -euo pipefail
log=${1:-.}/Testing/Temporary/LastTest.log
[ -f "$log" ] || exit 0
awk '/^semantics: [0-9]+ forms,/ { shards++; forms += $2; executions += $4; mismatches += $6 }
     /^semantics: [0-9]+ of the executions handed/ { handed += $2 }
     /^semantics: [0-9]+ native runs ended in a harness error/ { harness += $2 }
     /^semantics: states from HOIST_SEMANTICS_SEED=/ { seeds = seeds " " substr($NF, 22) }
     END {
       if (!shards) exit
       printf "semantics: %d forms, %d executions, %d mismatches (%d shards)\n",
              forms, executions, mismatches, shards
       if (handed) printf "semantics: %d of the executions handed to the runtime on purpose\n", handed
       if (harness) printf "semantics: %d native runs ended in a harness error\n", harness
       if (seeds) printf "semantics: the shards'"'"' HOIST_SEMANTICS_SEED:%s\n", seeds
     }' "$log"
