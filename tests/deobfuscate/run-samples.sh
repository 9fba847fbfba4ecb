#!/bin/bash
# Deobfuscation samples (docs/DEOBFUSCATE.md): builds samples.S, lifts each protected function
# obf_<name> with `--deobfuscate --brighten -O2`, links the objects with driver.c and the
# original, and checks two gates per sample:
#   - correctness: the brightened function returns the same results and writes the same
#     output (its imports called in the same order) as the original on random inputs;
#   - size: its IR has at most 1.5 times the instructions of plain_<name>'s lift (the same
#     computation, unprotected, brightened the same way).
# The VM programs are also built for Windows by mingw (when installed) and checked the same
# way as PE samples (pe_<name>; pe-driver.c).
# Usage: run-samples.sh HOIST WORKDIR [RUNS]
# SIZE_GATE=0 leaves out the size gate, which lifts every function twice more: the sanitizer
# build does (ASan changes no IR size, and the correctness lifts ran the same code).
set -u
hoist=$1 work=$2 runs=${3:-2000}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
# The VM-protected programs and their plain versions, generated into the work directory.
# VM_SEED chooses the protector's opcodes, handler orders and layouts: 0 (the figures' seed)
# unless set, or VM_SEED_DEFAULT's when that is set; `random` draws one (ctest's entry sets
# VM_SEED_DEFAULT=random: each run tries a fresh seed, printed first so that VM_SEED=N
# reproduces a failure).
seed=${VM_SEED:-${VM_SEED_DEFAULT:-0}}
[ "$seed" = random ] && seed=$(((RANDOM << 15 | RANDOM) % 1000000))
echo "vmprotect.py seed: $seed (VM_SEED=$seed reproduces this run)"
python3 "$here/vmprotect.py" --seed "$seed" "$here/vm-programs.txt" "$work/vm.c" "$work/vm.h" ||
  { echo "vmprotect.py failed"; exit 1; }
# samplesOf HEADER MACRO: the names X(name) of MACRO's line in HEADER.
samplesOf() { grep "^#define $2 " "$1" | grep -o 'X([a-z_0-9]*)' | sed 's/X(\(.*\))/\1/'; }
# The globals the driver sets (G(name, value)): renamed in the brightened objects to b_<name>,
# their copies of the program's .bss.
globals=$(grep '^#define VM_GLOBALS ' "$work/vm.h" | grep -o 'G([a-z_0-9]*' | sed 's/G(//')
names=$( (sed -n 's/^ *X(\([a-z_0-9]*\)).*/\1/p' "$here/samples.h"; samplesOf "$work/vm.h" VM_SAMPLES) )
flags="-fno-stack-protector -fcf-protection=none -fno-pie"
gcc -c "$here/samples.S" -o "$work/samples.o" &&
  gcc -O0 $flags -c "$here/loops.c" -o "$work/loops.o" &&
  gcc -O0 $flags -DPREFIX=plain_ -c "$here/loops.c" -o "$work/plain-loops.o" &&
  gcc -O2 $flags -c "$work/vm.c" -o "$work/vm.o" &&
  echo 'int main(void) { return 0; }' | gcc -x c - -c -o "$work/main.o" &&
  gcc -no-pie "$work/samples.o" "$work/loops.o" "$work/plain-loops.o" "$work/vm.o" "$work/main.o" \
    -o "$work/samples.bin" || { echo "build failed"; exit 1; }
objects=("$work/samples.o" "$work/loops.o" "$work/plain-loops.o" "$work/vm.o")
status=0
functionArgs=()
for name in $names; do functionArgs+=(--function "obf_$name"); done
"$hoist" lift "$work/samples.bin" "${functionArgs[@]}" --deobfuscate --brighten -O2 --emit obj \
  -o "$work/deobfuscated.o" --diagnostics "$work/diagnostics.json" 2>"$work/lift.err" ||
  { echo "hoist lift failed"; cat "$work/lift.err"; exit 1; }
: >"$work/rename"
for name in $names; do echo "obf_$name b_obf_$name" >>"$work/rename"; done
for name in $globals; do echo "$name b_$name" >>"$work/rename"; done
objcopy --redefine-syms="$work/rename" "$work/deobfuscated.o" &&
  gcc -O1 -no-pie -I"$here" -I"$work" "$here/driver.c" "${objects[@]}" "$work/deobfuscated.o" \
    -o "$work/driver" ||
  { echo "link failed"; exit 1; }
"$work/driver" "$runs" || status=1

# The PE half: the VM programs built by mingw, printing through GetStdHandle/WriteConsoleA
# (vmprotect.py --windows). The originals run in the image, mapped by the brightening
# corpus's PE loader; pe-driver.c logs the imports' calls of both sides.
peNames=
if command -v x86_64-w64-mingw32-gcc >/dev/null; then
  pe=$work/pe
  mkdir -p "$pe"
  python3 "$here/vmprotect.py" --seed "$seed" --windows "$here/vm-programs.txt" "$pe/vm.c" "$pe/vm.h" &&
    x86_64-w64-mingw32-gcc -O2 -fno-stack-protector -c "$pe/vm.c" -o "$pe/vm.o" &&
    echo 'int main(void) { return 0; }' | x86_64-w64-mingw32-gcc -x c - -c -o "$pe/main.o" &&
    x86_64-w64-mingw32-gcc "$pe/vm.o" "$pe/main.o" -o "$pe/vm.exe" ||
    { echo "PE build failed"; exit 1; }
  peNames=$(samplesOf "$pe/vm.h" VM_SAMPLES)
  functionArgs=()
  for name in $peNames; do functionArgs+=(--function "obf_$name"); done
  "$hoist" lift "$pe/vm.exe" "${functionArgs[@]}" --deobfuscate --brighten -O2 --emit obj \
    -o "$pe/deobfuscated.o" 2>"$pe/lift.err" ||
    { echo "hoist lift (PE) failed"; cat "$pe/lift.err"; exit 1; }
  peGlobals=$(grep '^#define VM_GLOBALS ' "$pe/vm.h" | grep -o 'G([a-z_0-9]*' | sed 's/G(//')
  { for name in $peNames; do echo "obf_$name b_obf_$name"; done
    for name in $peGlobals; do echo "$name b_$name"; done
    for name in GetStdHandle WriteConsoleA strlen; do echo "$name pe_import_$name"; done
  } >"$pe/rename"
  { echo '#include "pe-loader.h"'
    echo 'const struct pe_symbol pe_symbols[] = {'
    x86_64-w64-mingw32-nm "$pe/vm.exe" | awk '$2 == "T" || $2 == "B" { printf "    {\"%s\", 0x%sull},\n", $3, $1 }'
    echo '    {0, 0}};'; } >"$pe/pe-symbols.c"
  # A function brightening declined stays lifted (the driver reports it and does not call
  # it): what it calls outside gets a trapping stub.
  nm -u "$pe/deobfuscated.o" | sed -n 's/^ *U \(import\..*\|__hoist_.*\)$/\1/p' |
    awk '{ printf "void stub_%d(void) __asm__(\"\\\"%s\\\"\");\nvoid stub_%d(void) { __builtin_trap(); }\n", NR, $1, NR }' \
    >"$pe/stubs.c"
  objcopy --redefine-syms="$pe/rename" "$pe/deobfuscated.o" &&
    gcc -O1 -I"$here/../brighten" -I"$pe" "$here/pe-driver.c" "$here/../brighten/pe-loader.c" \
      "$pe/pe-symbols.c" "$pe/stubs.c" "$pe/deobfuscated.o" -o "$pe/driver" ||
    { echo "PE link failed"; exit 1; }
  "$pe/driver" "$pe/vm.exe" "$runs" >"$pe/driver.out"
  cat "$pe/driver.out"
  grep -q DIFFER "$pe/driver.out" && status=1
  # A sample brightening declines fails, unless expected-declines lists it (with its reason).
  for name in $(sed -n 's/^\(pe_[a-z_0-9]*\): NOT BRIGHTENED.*/\1/p' "$pe/driver.out"); do
    grep -qx "$name" <(grep -v '^#' "$here/expected-declines") || status=1
  done
else
  echo "x86_64-w64-mingw32-gcc not found: the PE samples are skipped"
fi

# The hardened half: the VM programs built as Debian builds them (stack protector, CET, PIE),
# deobfuscated and brightened, each checked by both gates as hardened_<name>.
hard=$work/hardened
mkdir -p "$hard"
vmNames=$(samplesOf "$work/vm.h" VM_PIE_SAMPLES)
gcc -O2 -fstack-protector-strong -fcf-protection -fpie -c "$work/vm.c" -o "$hard/vm.o" &&
  gcc -pie "$hard/vm.o" "$work/main.o" -o "$hard/vm.bin" || { echo "hardened build failed"; exit 1; }
functionArgs=()
for name in $vmNames; do functionArgs+=(--function "obf_$name"); done
"$hoist" lift "$hard/vm.bin" "${functionArgs[@]}" --deobfuscate --brighten -O2 --emit obj \
  -o "$hard/deobfuscated.o" 2>"$hard/lift.err" ||
  { echo "hoist lift (hardened) failed"; cat "$hard/lift.err"; exit 1; }
{ for name in $vmNames; do echo "obf_$name b_obf_$name"; done
  for name in $globals; do echo "$name b_$name"; done; } >"$hard/rename"
objcopy --redefine-syms="$hard/rename" "$hard/deobfuscated.o" &&
  gcc -O1 -no-pie -DVM_SAMPLES_ONLY -I"$here" -I"$work" "$here/driver.c" "$hard/vm.o" \
    "$hard/deobfuscated.o" -o "$hard/driver" ||
  { echo "hardened link failed (a function not brightened?)"; cat "$hard/lift.err"; exit 1; }
"$hard/driver" "$runs" >"$hard/driver.out" || status=1
sed 's/^/hardened_/' "$hard/driver.out"

# IR size: instructions of the function's definition in the -O2 brightened module.
count() { awk -v f="@$2(" 'index($0, "define") && index($0, f) {on=1; next} on && /^}/ {on=0}
  on && /^  [^ ]/ {n++} END {print n+0}' "$1"; }
# sizeGates PREFIX BINARY WORKDIR NAME...: each deobfuscated obf_NAME against plain_NAME's
# lift, labelled PREFIX NAME; one lift of all obf_ functions and one of all plain_ ones (the
# functions of one module are lifted and optimized independently: the counts are those of
# one lift per function).
sizeGates() {
  local prefix=$1 binary=$2 dir=$3
  shift 3
  [ $# = 0 ] && return
  local obfArgs=() plainArgs=() name
  for name; do obfArgs+=(--function "obf_$name"); plainArgs+=(--function "plain_$name"); done
  "$hoist" lift "$binary" "${obfArgs[@]}" --deobfuscate --brighten -O2 -o "$dir/obf.ll" 2>/dev/null
  "$hoist" lift "$binary" "${plainArgs[@]}" --brighten -O2 -o "$dir/plain.ll" 2>/dev/null
  for name; do
    local label=$prefix$name
    protected=$(count "$dir/obf.ll" "obf_$name")
    plain=$(count "$dir/plain.ll" "plain_$name")
    ratio=$(awk -v a="$protected" -v b="$plain" 'BEGIN { printf "%.2f", b ? a / b : 99 }')
    verdict=ok
    if awk -v r="$ratio" 'BEGIN { exit !(r > 1.5) }'; then
      # A known excess (expected-large, with its reason) is reported, not failed.
      if grep -qx "$label" <(grep -v '^#' "$here/expected-large"); then verdict="TOO-LARGE (known)"
      else verdict=TOO-LARGE; status=1; fi
    fi
    echo "$label: IR $protected instructions, unprotected $plain, ratio $ratio $verdict"
  done
}
if [ "${SIZE_GATE:-1}" = 0 ]; then
  echo "size gate left out (SIZE_GATE=0)"
  exit $status
fi
sizeGates "" "$work/samples.bin" "$work" $names
sizeGates pe_ "$work/pe/vm.exe" "$work/pe" $peNames
sizeGates hardened_ "$hard/vm.bin" "$hard" $vmNames
exit $status
