#!/usr/bin/env bash
# First command of the README: install what is missing, build, and lift the bundled example's
# main function to LLVM IR.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${HOIST_BUILD_DIR:-$root/build}

"$root/scripts/install-deps.sh"
"$root/scripts/configure.sh" "$build"
cmake --build "$build" --target hoist examples
"$build/tools/hoist/hoist" lift "$build/examples/example.elf" --function main
