#!/usr/bin/env bash
# Second command of the README (and what CI runs): install what is missing, build everything,
# and run every test: unit tests, the CPU-differential semantics tests, lit/FileCheck tests.
# HOIST_SANITIZERS=1 then runs the whole suite again under ASan and UBSan, and each fuzz
# target (scripts/sanitize.sh full, in build-sanitize).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HOIST_BUILD_DIR:-$root/build}

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build "$build"
cd "$build"
ctest --output-on-failure -j "$(nproc)"
# The differential harness's own summary line, for the record.
grep -h "^semantics:" Testing/Temporary/LastTest.log || true

if [ "${HOIST_SANITIZERS:-0}" = 1 ]; then
  "$root/scripts/sanitize.sh" full
fi
