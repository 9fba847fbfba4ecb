#!/usr/bin/env bash
# Second command of the README (and what CI runs): install what is missing, build everything,
# and run every test: unit tests, the CPU-differential semantics tests, lit/FileCheck tests.
# Then the whole suite again under ASan and UBSan (scripts/sanitize.sh full, in build-sanitize;
# docs/ROBUSTNESS.md, "Sanitizers"). HOIST_SANITIZERS chooses that second part:
#   full (the default; also 1)  every ctest entry under the sanitizers
#   subset                      only the unit tests, the fuzz regressions and each fuzz target 10 s
#   0                           no sanitizer build
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HOIST_BUILD_DIR:-$root/build}
sanitizers=${HOIST_SANITIZERS:-full}
case "$sanitizers" in
  1) sanitizers=full ;;
  full|subset|0) ;;
  # Refused before anything runs, not after the normal suite's twenty minutes.
  *) echo "scripts/test.sh: HOIST_SANITIZERS must be full (the default, or 1), subset or 0" >&2
     exit 2 ;;
esac

# Each step's wall time, so that a slow CI run shows where its minutes went.
step() { echo "test.sh: $1 done at ${SECONDS} s"; }
"$root/scripts/install-deps.sh"
step "installing dependencies"
# CI builds from scratch each run: without debug information the same -O2 code compiles in
# about a third less time and links far faster (debug information changes no instruction).
debugFlags=()
if [ "${CI:-}" = true ] && [ ! -f "$build/CMakeCache.txt" ]; then
  debugFlags=(-DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG")
fi
"$root/scripts/configure.sh" "$build" "${debugFlags[@]}"
cmake --build "$build"
step "the build"
cd "$build"
ctest --output-on-failure -j "$(nproc)"
# The differential harness's own summary line, for the record.
"$root/scripts/semantics-totals.sh" .
step "the tests"

if [ "$sanitizers" != 0 ]; then
  "$root/scripts/sanitize.sh" "$sanitizers"
  step "the sanitizer build and tests"
fi
