#!/usr/bin/env bash
# lift-recognized.sh HOIST SOURCES WORK: a stripped static glibc program's main, lifted.
# Recognized library functions are called by name (`@import.puts`, marked hoist-recognized)
# and not lifted; with --lift-recognized they are lifted; the program's own copy_bytes, which
# only calls memcpy, is named by nothing.
set -euo pipefail
hoist=$1 sources=$2 work=$3
mkdir -p "$work"
gcc -O2 -static "$sources/main.c" "$sources/text.c" "$sources/files.c" -o "$work/program" -lm
strip -o "$work/program.stripped" "$work/program"
readelf -sW "$work/program" > "$work/symbols"
address() { awk -v name="$1" '$8 == name && !found { found = 1; print "0x" substr($2, match($2, /[^0]/)) }' "$work/symbols"; }
main=$(address main)
puts=$(address puts)
copy=$(address copy_bytes)
fail() { echo "signature_lift: $*" >&2; exit 1; }

"$hoist" lift "$work/program.stripped" --function "$main" -q -o "$work/main.ll" 2> "$work/main.err"
grep -q '^declare void @import.puts(ptr, ptr) #' "$work/main.ll" || fail "puts is not called by name"
grep -q '"hoist-import"="puts" "hoist-recognized"="glibc [^"]* libc.a"' "$work/main.ll" ||
  fail "puts is not marked hoist-recognized"
grep -q "^define void @fn_${puts#0x}(" "$work/main.ll" && fail "puts was lifted"

"$hoist" lift "$work/program.stripped" --function "$main" --lift-recognized -q \
  -o "$work/main-lifted.ll" 2> "$work/main-lifted.err"
grep -q '@import.puts' "$work/main-lifted.ll" && fail "--lift-recognized still calls puts by name"
grep -q "^define void @fn_${puts#0x}(.*) #[0-9]* !hoist.entry ![0-9]* {" "$work/main-lifted.ll" ||
  fail "--lift-recognized did not lift puts"
grep -q '"hoist-recognized-name"="puts"' "$work/main-lifted.ll" ||
  fail "the lifted puts is not marked with its name"

"$hoist" cfg "$work/program.stripped" --function "$copy" --json > "$work/copy.json"
python3 - "$work/copy.json" "$copy" <<'PY' || fail "copy_bytes was given a library name"
import json, sys
functions = json.load(open(sys.argv[1]))['functions']
copy = [f for f in functions if int(f['entry'], 16) == int(sys.argv[2], 16)]
sys.exit(1 if not copy or (copy[0].get('recognized') or {}).get('name') else 0)
PY
echo "signature_lift: ok"
