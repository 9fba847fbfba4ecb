#!/usr/bin/env bash
# Configures a build directory the way bootstrap.sh, test.sh and bench.sh build: clang-19 with
# the common LLVM headers precompiled (-DHOIST_PCH=ON). From scratch on two cores that takes
# about half the time gcc-12 does (docs/DESIGN.md, "The build"). A directory configured before
# keeps its own compiler and options; extra arguments go to cmake.
#   scripts/configure.sh BUILD_DIR [CMAKE_ARGS...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
shift
if [[ -f "$build/CMakeCache.txt" ]]; then
  cmake -S "$root" -B "$build" "$@" > /dev/null
else
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 -DHOIST_PCH=ON "$@" > /dev/null
fi
