#!/bin/sh
# Builds SOURCE with COMPILER FLAGS... into BASE, recompiles it with `hoist recompile` into
# BASE.new and runs both: they must print the same and exit with the same status (else this
# fails). Prints hoist's summary, then `native NAME` or `state NAME` for each function of
# the program with a symbol (whether the recompiled program runs it natively), then the
# recompiled program's output and `exit STATUS`.
set -eu
base=$1 source=$2 compiler=$3
shift 3
"$compiler" "$@" -o "$base" "$source"
hoist recompile -q -v "$base" -o "$base.new" 2> "$base.err"
grep -v '^hoist: warning' "$base.err" | grep -v '^  ' || true
# The native functions are hoist.brightened.<entry>; the entries are the original's symbols.
# A PIE is lifted where the recompiled program maps it, 0x10000000 (TranslatedPieBase).
bias=0
if readelf -h "$base" | grep -q 'Type:.*DYN'; then bias=$((0x10000000)); fi
nm "$base.new" | sed -n 's/.* hoist\.brightened\.\([0-9a-f]*\)$/\1/p' |
  while read -r entry; do printf '%x\n' $((0x$entry - bias)); done | sort > "$base.native"
nm "$base" | awk '$2 ~ /^[tT]$/ { sub(/^0*/, "", $1); print $1, $3 }' | sort |
  while read -r address name; do
    [ -n "$address" ] || continue
    if grep -qx "$address" "$base.native"; then echo "native $name"; else echo "state $name"; fi
  done
set +e
"$base" > "$base.expected" 2>&1
expected=$?
"$base.new" > "$base.actual" 2>&1
actual=$?
set -e
diff "$base.expected" "$base.actual"
if [ "$expected" != "$actual" ]; then
  echo "exit status $actual, the original's $expected" >&2
  exit 1
fi
cat "$base.actual"
echo "exit $actual"
