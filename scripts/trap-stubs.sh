#!/bin/bash
# C source of a trapping definition for each lifted-code runtime entry (`__hoist_*`) and each
# import by its lifted name (`import.*`) that OBJECT leaves undefined. A brightened object
# references them only from functions that stayed lifted (declined ones, and what only they
# call); brightened code never reaches those, so the stubs let the object link and trap if
# that is ever wrong.
# Usage: scripts/trap-stubs.sh OBJECT > stubs.c
set -euo pipefail
nm -u "$1" | sed -n 's/^ *U \(import\..*\|__hoist_.*\)$/\1/p' |
  awk '{ printf "void stub_%d(void) __asm__(\"%s\");\nvoid stub_%d(void) { __builtin_trap(); }\n", NR, $1, NR }'
