#!/usr/bin/env bash
# The installed package, as a user gets it (docs/API.md): `cmake --install` into a temporary
# prefix, then examples/consumer configured against it with -DCMAKE_PREFIX_PATH, built and run
# on the example binary, linked with libhoist.so and with libhoist.a; the same program compiled
# from `pkg-config --cflags --libs hoist`; the installed hoist's --version, man page and bash
# completion; hoist-rt beside libhoist; `hoist translate` from the prefix, which must find the
# runtime installed next to it; and the installed Python module, when there is one.
#   install-and-consume.sh BUILD_DIR SOURCE_DIR CXX EXAMPLE_ELF WORK_DIR
set -euo pipefail
build=$1 source=$2 cxx=$3 example=$4 work=$5
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" > "$work/install.log"
for file in include/hoist/Hoist.h include/hoist/Version.h bin/hoist; do
  [[ -e $prefix/$file ]] || { echo "not installed: $file"; exit 1; }
done
libdir=$(dirname "$(find "$prefix" -name libhoist.so -print -quit)")
[[ -e $libdir/libhoist.a && -e $libdir/libhoist-rt.a &&
   -e $libdir/hoist/libhoist_translate_runtime.a ]] ||
  { echo "libhoist.a, libhoist-rt.a or the translate runtime missing next to $libdir/libhoist.so"
    exit 1; }

# find_package(Hoist CONFIG): LLVM and Zydis come through find_dependency.
cmake -S "$source/examples/consumer" -B "$work/consumer" -G Ninja \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" > "$work/configure.log"
cmake --build "$work/consumer" > "$work/build.log"
"$work/consumer/lift-function" "$example" add3 > "$work/add3.ll" 2> "$work/add3.err"
grep -q '^; function 0x[0-9a-f]* add3: ' "$work/add3.ll"
grep -q '^define .*@add3(' "$work/add3.ll"
grep -q "with Hoist $(sed -n 's/^#define HOIST_VERSION_STRING "\(.*\)"/\1/p' \
  "$prefix/include/hoist/Version.h")" "$work/add3.err"

# The same against libhoist.a (Hoist::hoist_static): Zydis comes through the package too.
cmake -S "$source/examples/consumer" -B "$work/consumer-static" -G Ninja \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" \
  -DHOIST_LIBRARY=Hoist::hoist_static > "$work/configure-static.log"
cmake --build "$work/consumer-static" > "$work/build-static.log"
if ldd "$work/consumer-static/lift-function" | grep -q libhoist; then
  echo "the consumer of Hoist::hoist_static loads libhoist.so"; exit 1
fi
"$work/consumer-static/lift-function" "$example" add3 2> /dev/null | grep -q '^define .*@add3('

# pkg-config: the same program from hoist.pc's flags, run from the prefix.
export PKG_CONFIG_PATH=$libdir/pkgconfig
# shellcheck disable=SC2046 # the flags are words
"$cxx" -fno-rtti -o "$work/lift-function-pc" "$source/examples/consumer/lift_function.cpp" \
  $(pkg-config --cflags --libs hoist) -Wl,-rpath,"$libdir"
"$work/lift-function-pc" "$example" add3 2> /dev/null | grep -q '^define .*@add3('

"$prefix/bin/hoist" --version | grep -q '^Hoist [0-9]'
# The man page where man looks under the prefix (when help2man was there to make it), and the
# completion where bash-completion loads it on the first <TAB> after `hoist`.
if [[ -e $build/doc/hoist.1 ]]; then
  MANPATH=$prefix/share/man man -w hoist | grep -qx "$prefix/share/man/man1/hoist.1"
fi
bash -c 'source "$1" && complete -p hoist' _ "$prefix/share/bash-completion/completions/hoist" |
  grep -q -- '-F _hoist hoist$'

# The installed Python module (when the build has one) loads the installed libhoist.so.
module=$(find "$prefix" -name 'hoist.cpython-*.so' -print -quit)
if [[ -n $module ]]; then
  PYTHONPATH=$(dirname "$module") /usr/bin/python3 -c '
import os, sys, hoist
assert "define" in hoist.load(sys.argv[1]).lift("add3").ir
mapped = {line.split()[-1] for line in open("/proc/self/maps") if "libhoist.so" in line}
assert mapped and all(m.startswith(os.path.realpath(sys.argv[2])) for m in mapped), mapped
' "$example" "$libdir"
fi
# The installed hoist finds the installed runtime (the build tree's is not on its way).
"$prefix/bin/hoist" translate "$example" -o "$work/example.translated" -O1
"$example" > "$work/original.out"
"$work/example.translated" > "$work/translated.out"
cmp "$work/original.out" "$work/translated.out"
echo "package: installed, consumed by CMake and pkg-config, translate found its runtime"
