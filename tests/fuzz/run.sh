#!/usr/bin/env bash
# Runs the libFuzzer targets longer than ctest does (docs/ROBUSTNESS.md, "Fuzzing").
#   tests/fuzz/run.sh [SECONDS] [TARGET...]      default: 600 s each, every target
# Builds build-sanitize (clang-19, ASan and UBSan, HOIST_FUZZ: what scripts/test.sh builds
# too) if needed; HOIST_FUZZ_BUILD_DIR names another build. Each target
# keeps its corpus in BUILD/tests/fuzz/corpus/<kind> from run to run. A crash leaves
# BUILD/tests/fuzz/crash-* (or timeout-*, oom-*): once fixed, add it to
# tests/fuzz/regressions/<kind>/ and a unit test. HOIST_FUZZ_JOBS=N runs N processes per target.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${HOIST_FUZZ_BUILD_DIR:-$root/build-sanitize}
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(fuzz_image fuzz_instruction fuzz_pipeline)

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    -DHOIST_SANITIZE=ON -DHOIST_FUZZ=ON > /dev/null
fi
cmake --build "$build" --target fuzz_seeds "${targets[@]}"

parallel=()
if [ "${HOIST_FUZZ_JOBS:-1}" -gt 1 ]; then
  parallel=(-jobs="$HOIST_FUZZ_JOBS" -workers="$HOIST_FUZZ_JOBS")
fi
cd "$build/tests/fuzz"
for target in "${targets[@]}"; do
  kind=${target#fuzz_}
  mkdir -p "corpus/$kind"
  echo "fuzz: $target for $seconds s"
  "./$target" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 -max_len=65536 \
    ${parallel[@]+"${parallel[@]}"} -print_final_stats=1 \
    "corpus/$kind" "seeds/$kind"
done
