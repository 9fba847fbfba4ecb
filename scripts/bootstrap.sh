#!/usr/bin/env bash
# First command of the README: install what is missing, build, and lift the bundled example's
# main function to LLVM IR.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HOIST_BUILD_DIR:-$root/build}

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build "$build" --target hoist examples
"$build/tools/hoist/hoist" lift "$build/examples/example.elf" --function main
