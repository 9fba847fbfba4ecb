#!/usr/bin/env bash
# Hoist embedded with add_subdirectory (tests/package/embed), as a project that vendors its
# sources gets it: configured with the compiler and the precompiled header of this build, then
# examples/consumer's lift-function built (with what it needs of Hoist: libhoist and the tables
# it embeds, nothing of Hoist's tools or tests) and run on the example binary. Nothing is
# shared with this build; the work directory is kept, so a rerun builds only what changed.
# The embedding project names no build type, so Hoist compiles without optimization and with
# assertions there, as in a default embedding build: 195 s of CPU for the 211 steps.
#   embed-and-consume.sh SOURCE_DIR CC CXX EXAMPLE_ELF WORK_DIR
set -euo pipefail
source=$1 cc=$2 cxx=$3 example=$4 work=$5
mkdir -p "$work"

# -U: what an earlier configure of the kept directory cached for Hoist's own switches goes, so
# that their defaults for an embedded Hoist are what is tested.
cmake -S "$source/tests/package/embed" -B "$work" -G Ninja -DHOIST_SOURCE_DIR="$source" \
  -U 'HOIST_BUILD_*' -U HOIST_PYTHON \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" -DHOIST_PCH=ON > "$work/configure.log"
SECONDS=0
cmake --build "$work" --target lift-function --parallel 2 > "$work/build.log" ||
  { tail -n 30 "$work/build.log"; exit 1; }
echo "embed: lift-function and the embedded libhoist built in ${SECONDS} s"

"$work/consumer/lift-function" "$example" add3 > "$work/add3.ll" 2> "$work/add3.err" ||
  { cat "$work/add3.err"; exit 1; }
grep -q '^; function 0x[0-9a-f]* add3: ' "$work/add3.ll"
grep -q '^define .*@add3(' "$work/add3.ll"
grep -q 'with Hoist [0-9]' "$work/add3.err"
echo "embed: add_subdirectory(hoist) built and ran examples/consumer"
