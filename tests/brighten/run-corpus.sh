#!/bin/bash
# Brightening corpus (docs/BRIGHTEN.md): for each compiler and level, compiles corpus.c, lifts
# and brightens every corpus function from the linked binary, emits an object, renames its
# functions to b_<name>, links it with driver.c and the original object, and runs the driver.
# A mingw build (compiler "mingw") is brightened for Win64 and its originals run natively
# through pe-loader.c and ms_abi function pointers.
# Usage: run-corpus.sh HOIST WORKDIR [compiler[+hardened]:level ...]
#        (default: gcc, clang-19 and mingw, O0-O3, and gcc and clang-19 hardened at O0 and O2;
#        scripts/brighten-quality.sh measures the IR)
# CORPUS_CFLAGS adds compiler flags (the deobfuscation test loads its obfuscator plugin this
# way) and HOIST_FLAGS adds flags to the lift (--deobfuscate=passes). LIFT_IR=1 lifts to
# brightened.ll and compiles that with clang-19 (the deobfuscation test counts its
# instructions without lifting a second time); CORPUS_FUNCTIONS lifts only the functions it
# names.
# Prints one summary line per configuration; exits 1 if any brightened function differs, the
# toolchain fails, or the declined functions are not exactly those in expected-declines (when
# every default configuration runs).
set -u
hoist=$1 work=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
configs=("$@")
if [ ${#configs[@]} -eq 0 ]; then
  configs=(gcc:O0 gcc:O1 gcc:O2 gcc:O3 gcc+hardened:O0 gcc+hardened:O2)
  command -v clang-19 >/dev/null &&
    configs+=(clang-19:O0 clang-19:O1 clang-19:O2 clang-19:O3 clang-19+hardened:O0 clang-19+hardened:O2)
  command -v x86_64-w64-mingw32-gcc >/dev/null && configs+=(mingw:O0 mingw:O1 mingw:O2 mingw:O3)
fi
mkdir -p "$work"
: >"$work/declines"
# CORPUS_FUNCTIONS lifts only those (the driver counts the others as declined).
names=${CORPUS_FUNCTIONS:-$(sed -n 's/^  X([^,]*, \([a-z_0-9]*\),.*/\1/p' "$here/corpus.h")}
# The globals the corpus functions keep state in: Hoist names them inside its copies of the
# image's data sections; the driver compares them with the originals'.
globals=$(sed -n 's/^#define CORPUS_GLOBALS(X) //p' "$here/corpus.h" | sed 's/X(\([a-z_0-9]*\))/\1/g')
# The C library functions the corpus calls, which driver.c provides for a PE as pe_import_<name>.
pe_imports="strlen strcmp memset abs sqrt"
status=0
for config in "${configs[@]}"; do
  cc=${config%%:*} level=${config##*:}
  dir=$work/${cc/+/-}-$level
  mkdir -p "$dir"
  # Calls to libc stay calls (-fno-builtin): they are what brightening turns into calls by name.
  flags="-$level -fno-builtin -fno-stack-protector -fcf-protection=none"
  # "+hardened": Debian's hardening flags (dpkg-buildflags): the stack protector's guard read
  # through %fs and __stack_chk_fail, CET's endbr64, _FORTIFY_SOURCE's checked calls, PIE.
  if [ "${cc%+hardened}" != "$cc" ]; then
    cc=${cc%+hardened}
    flags="-$level -fno-builtin -fstack-protector-strong -fstack-clash-protection -fcf-protection -D_FORTIFY_SOURCE=2 -fPIE"
  fi
  flags="$flags ${CORPUS_CFLAGS:-}"
  pe=0
  case $cc in
  gcc) flags="$flags -fno-tree-loop-distribute-patterns" ;;
  mingw) cc=x86_64-w64-mingw32-gcc pe=1 flags="$flags -fno-tree-loop-distribute-patterns" ;;
  esac
  binary=$dir/corpus.bin
  [ $pe = 1 ] && binary=$dir/corpus.exe
  $cc $flags -c "$here/corpus.c" -o "$dir/corpus.o" &&
    echo 'int main(void) { return 0; }' | $cc -x c - -c -o "$dir/main.o" &&
    $cc "$dir/corpus.o" "$dir/main.o" -lm -o "$binary" || { echo "$config: compile failed"; status=1; continue; }
  functionArgs=()
  for name in $names; do functionArgs+=(--function "$name"); done
  if [ "${LIFT_IR:-0}" = 1 ]; then
    "$hoist" lift "$binary" "${functionArgs[@]}" --brighten -O2 ${HOIST_FLAGS:-} \
      -o "$dir/brightened.ll" 2>"$dir/lift.err" &&
      clang-19 -c "$dir/brightened.ll" -o "$dir/brightened.o" 2>>"$dir/lift.err"
  else
    "$hoist" lift "$binary" "${functionArgs[@]}" --brighten -O2 ${HOIST_FLAGS:-} --emit obj \
      -o "$dir/brightened.o" 2>"$dir/lift.err"
  fi
  if [ $? -ne 0 ]; then
    echo "$config: hoist lift failed"; cat "$dir/lift.err"; status=1; continue
  fi
  : >"$dir/rename"
  for name in $names $globals; do echo "$name b_$name" >>"$dir/rename"; done
  # A PE's brightened functions call its imports as a DLL has them (win64cc); the driver
  # provides them in the Microsoft ABI as pe_import_<name>, the host's C library keeping its
  # own names for the driver's calls.
  if [ $pe = 1 ]; then
    for name in $pe_imports; do echo "$name pe_import_$name" >>"$dir/rename"; done
  fi
  # Declined functions stay lifted and call imports as `import.<name>(state, mem)`: stubs
  # that the driver never reaches (it calls only brightened functions).
  nm -u "$dir/brightened.o" | sed -n 's/^ *U \(import\..*\)$/\1/p' |
    awk '{ printf "void import_stub_%d(void) __asm__(\"\\\"%s\\\"\");\nvoid import_stub_%d(void) { __builtin_trap(); }\n", NR, $1, NR }' \
    >"$dir/import-stubs.c"
  # A PE build's originals are called in the image itself, mapped by pe-loader.c; the driver
  # finds them by the addresses of the image's symbols.
  originals=("$dir/corpus.o")
  if [ $pe = 1 ]; then
    { echo '#include "pe-loader.h"'
      echo 'const struct pe_symbol pe_symbols[] = {'
      x86_64-w64-mingw32-nm "$binary" | awk '$2 == "T" || $2 == "D" || $2 == "B" { printf "    {\"%s\", 0x%sull},\n", $3, $1 }'
      echo '    {0, 0}};'; } >"$dir/pe-symbols.c"
    originals=(-DCORPUS_PE "$here/pe-loader.c" "$dir/pe-symbols.c")
  fi
  objcopy --redefine-syms="$dir/rename" "$dir/brightened.o" &&
    gcc -O1 -I"$here" "$here/driver.c" "$dir/import-stubs.c" "${originals[@]}" "$dir/brightened.o" \
      -lm -o "$dir/driver" ||
    { echo "$config: link failed"; status=1; continue; }
  "$dir/driver" "$binary" >"$dir/driver.out"
  result=$?
  summary=$(tail -1 "$dir/driver.out")
  echo "$config: $summary"
  grep -E 'DIFFER|differs' "$dir/driver.out"
  [ $result -eq 0 ] || status=1
  sed -n "s/^\([a-z_0-9]*\) *declined\$/$config \1/p" "$dir/driver.out" >>"$work/declines"
done
# Each decline is a known limit (docs/BRIGHTEN.md); a new one, or one that went away, fails
# until expected-declines says so.
if [ $# -eq 0 ] && ! diff <(grep -v '^#' "$here/expected-declines" | sort) <(sort "$work/declines") \
    >"$work/declines.diff"; then
  echo "declined functions differ from expected-declines (< expected, > now):"
  cat "$work/declines.diff"
  status=1
fi
exit $status
