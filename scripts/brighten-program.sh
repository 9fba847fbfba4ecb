#!/bin/bash
# A whole ELF program brightened and recompiled into a new executable (docs/BRIGHTEN.md,
# "Whole programs"): `hoist lift --all --brighten -O2 --emit obj`, linked with the C library's
# start files and the libraries the original needs. Every function must be brightened: a
# declined one is left in the lifted form, which needs a runtime to enter it.
# Usage: scripts/brighten-program.sh HOIST BINARY OUTPUT
# Writes OUTPUT, and beside it OUTPUT.o, OUTPUT.json (the diagnostics) and OUTPUT.err. Prints
# "N functions lifted, M declined". Exits 0 when linked, 3 when functions were declined (their
# messages printed, nothing linked), 1 when lifting or linking failed.
set -euo pipefail
hoist=$(readlink -f "$1") binary=$2 output=$3

# A position-dependent executable keeps its data at the addresses it has in the binary, where
# the words the linker stored there (pointers, with no relocation to say so) mean what they
# did; the recompiled program's own code and data go above them (-Ttext-segment).
placed=()
if readelf -h "$binary" | grep -q 'Type:.*EXEC'; then
  placed=(--data-at-original-addresses)
fi
if ! "$hoist" lift "$binary" --all --brighten -O2 --emit obj -o "$output.o" "${placed[@]}" \
    --diagnostics "$output.json" 2>"$output.err"; then
  echo "hoist failed: $(tail -1 "$output.err")"
  exit 1
fi
declined=$(grep -c '"brighten-declined"' "$output.json" || true)
total=$(sed -n 's/.*lifted \([0-9,]*\) functions.*/\1/p' "$output.err")
echo "$total functions lifted, $declined declined"
# Start-file code of an older glibc linked into the binary (__libc_csu_init runs .init_array
# through pointers it reads as values): the start files the program is linked with bring their
# own, so its decline costs nothing. In a stripped binary it is fn_<address>, where the address
# is the init or fini the entry point hands __libc_start_main (hoist's note names both).
start_note=$("$hoist" lift "$binary" --callees=false -o /dev/null 2>&1 || true)
startup_names='__libc_csu_init\|__libc_csu_fini'
for address in $(echo "$start_note" | grep -o "start files' [a-z]* at 0x[0-9a-f]*" |
    sed 's/.*0x//'); do
  startup_names+="\\|fn_$address"
done
startup=$(grep -c "\"message\": *\"\([^\"]*(\)\?\($startup_names\))\?: not brightened" \
  "$output.json" || true)
# A constructor or destructor left lifted would not run in the recompiled program.
initializers=$(grep -c '"brighten-initializer-lifted"' "$output.json" || true)
if [ "$declined" -ne "$startup" ] || [ "$initializers" -ne 0 ]; then
  grep -o '"message": *"[^"]*\(not brightened\|would not run it\)[^"]*"' "$output.json" |
    head -5
  exit 3
fi

# main as the start files call it: the function the entry point hands __libc_start_main, named
# fn_<address> where the binary is stripped. The object's _init and _fini are the binary's
# .init and .fini code, which the start files bring their own of.
symbol=main
# (grep -q would stop reading early, and nm's broken pipe fail the test under pipefail.)
if ! nm "$output.o" | grep ' T main$' >/dev/null; then
  main=$(echo "$start_note" | sed -n 's/.*main at 0x\([0-9a-f]*\),.*/\1/p')
  symbol=fn_$main
fi
objcopy --localize-symbol=_init --localize-symbol=_fini --localize-symbol=_start \
  --localize-symbol=__libc_csu_init --localize-symbol=__libc_csu_fini \
  --localize-symbol=_dl_relocate_static_pie "$output.o"
# The binary's weak __gmon_start__ (profiling hook) is an undefined symbol the object names;
# the declined start-file code stays lifted and names the lifted-code runtime (trap-stubs.sh).
{
  echo 'void __gmon_start__(void) {}'
  "$(dirname "$0")/trap-stubs.sh" "$output.o"
} | gcc -x c -c - -o "$output.gmon.o"
libraries=$(readelf -d "$binary" | sed -n 's/.*Shared library: \[\(.*\)\]/-l:\1/p' |
  grep -v 'libc.so' || true)
# libm too: the code generator lowers some intrinsics to its functions (llvm.trunc to truncf
# on a CPU without SSE4.1's roundss).
link=()
if [ ${#placed[@]} -gt 0 ]; then
  link=(-no-pie -Wl,-Ttext-segment=0x40000000)
  for section in $(readelf -SW "$output.o" | grep -o '\.hoist\.data\.[0-9a-f]*' | sort -u); do
    link+=("-Wl,--section-start=$section=0x${section##*.}")
  done
fi
gcc "$output.o" "$output.gmon.o" -o "$output" -Wl,--defsym,main="$symbol" $libraries -lm \
  "${link[@]}"
