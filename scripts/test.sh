#!/usr/bin/env bash
# Second command of the README (and what CI runs): install what is missing, build everything,
# and run every test: unit tests, the CPU-differential semantics tests, lit/FileCheck tests.
# Then the sanitizer subset (ASan and UBSan: unit tests, fuzz regressions, each fuzz target
# 10 s; scripts/sanitize.sh subset, in build-sanitize). HOIST_SANITIZERS=1 runs the whole suite
# under the sanitizers instead (sanitize.sh full); HOIST_SANITIZERS=0 skips them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HOIST_BUILD_DIR:-$root/build}

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build "$build"
cd "$build"
ctest --output-on-failure -j "$(nproc)"
# The differential harness's own summary line, for the record.
"$root/scripts/semantics-totals.sh" .

case "${HOIST_SANITIZERS:-subset}" in
  1|full) "$root/scripts/sanitize.sh" full ;;
  0) ;;
  *) "$root/scripts/sanitize.sh" subset ;;
esac
