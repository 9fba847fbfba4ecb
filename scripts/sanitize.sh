#!/usr/bin/env bash
# The test suite under AddressSanitizer and UndefinedBehaviorSanitizer (docs/ROBUSTNESS.md,
# "Sanitizers"), in its own build (clang-19, -DHOIST_SANITIZE=ON -DHOIST_FUZZ=ON):
#   scripts/sanitize.sh full     every ctest entry (what scripts/test.sh, and so CI, runs after the
#                                normal suite), some smaller than in the normal build: the
#                                differential harness on every form with
#                                HOIST_SANITIZE_SEMANTICS_STATES (default 50) states per form
#                                instead of 10,000, the stack-pointer forms with
#                                HOIST_SANITIZE_STACK_POINTER_STATES (default 2,000) states a round
#                                instead of 100,000, cfg_truth's binaries at -O2 only
#                                (HOIST_SANITIZE_CFG_TRUTH_OPTS), each fuzz target for 10 s, without
#                                ManySymbolsTest (it measures speed) and the prototype tables'
#                                compiler checks (they run no Hoist code) (docs/ROBUSTNESS.md,
#                                "Sanitizers", lists every reduction and why)
#   scripts/sanitize.sh subset   the unit tests, the fuzz regressions and each fuzz target for
#                                10 s (HOIST_SANITIZERS=subset scripts/test.sh)
# The build lands in build-sanitize (HOIST_SANITIZE_BUILD_DIR overrides it); tests/fuzz/run.sh
# fuzzes longer in the same build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HOIST_SANITIZE_BUILD_DIR:-$root/build-sanitize}
mode=${1:-full}
case "$mode" in
  subset|full) ;;
  *) echo "usage: scripts/sanitize.sh [subset|full]" >&2; exit 2 ;;
esac

# -O1 with line tables only: half the compile time of -O2 -g, reports still name the line;
# no NDEBUG, so that Hoist's asserts check too.
flags="-O1 -gline-tables-only"
# The obfuscator plugin runs in clang-19 and is built without the sanitizers anyway: the normal
# build's serves when it is there.
plugin=${HOIST_BUILD_DIR:-$root/build}/tests/deobfuscate/obfuscator/HoistObfuscator.so
[ -f "$plugin" ] || plugin=
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="$flags" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$flags" \
  -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
  -DHOIST_SANITIZE=ON -DHOIST_FUZZ=ON -DHOIST_FUZZ_SECONDS=10 -DHOIST_PCH=ON \
  -DHOIST_OBFUSCATOR_PLUGIN="$plugin" > /dev/null
# A sanitizer report ends the process with a failure, so that ctest sees it.
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cd "$build"
# hostile_input_growth measures growth, which ASan's shadow memory says nothing about (the
# sanitizer build has only the parsers' unit tests: tests/unit/CMakeLists.txt). brighten-jq-upstream and
# brighten-zlib-upstream run the same brightening and preload as brighten-bzip2-upstream, on
# larger libraries, for a minute and 45 s more under ASan; brighten-sed-program,
# brighten-make-program and brighten-csmith-sample brighten as those do, over whole programs.
if [ "$mode" = full ]; then
  cmake --build .
  echo "sanitize.sh: the build done at ${SECONDS} s"
  HOIST_CFG_TRUTH_OPTS=${HOIST_SANITIZE_CFG_TRUTH_OPTS:-O2} \
    HOIST_SEMANTICS_STATES=${HOIST_SANITIZE_SEMANTICS_STATES:-50} \
    HOIST_STACK_POINTER_STATES=${HOIST_SANITIZE_STACK_POINTER_STATES:-2000} \
    ctest --output-on-failure -j "$(nproc)" -E 'hostile_input_growth|brighten-jq-upstream|brighten-zlib-upstream|brighten-(sed|make)-program|brighten-csmith-sample'
  "$root/scripts/semantics-totals.sh" .
else
  cmake --build . --target decode_tests image_tests lift_tests discover_tests passes_tests \
    fuzz_image fuzz_instruction fuzz_pipeline
  ctest --output-on-failure -j "$(nproc)" -L 'unit|fuzz' -E ManySymbolsTest
fi
