#!/bin/bash
# Debian's own programs against their shared library brightened (docs/BRIGHTEN.md, "Upstream
# tests"): every function of the library as shipped is lifted and brightened, the brightened
# exports go into a shared object that LD_PRELOAD puts ahead of the library, so both the
# program's calls and the library's own calls of its exports through its PLT reach the
# brightened code. Each run of the program must write the same bytes and exit the same way as
# the program with the original library: compressed output equal byte for byte at several
# levels, decompression, integrity tests, verbose reports and corrupt input; for jq, filters
# over the language's parts, errors and malformed input.
# Usage: upstream-preload.sh HOIST WORKDIR bzip2|xz|jq
set -euo pipefail
hoist=$(readlink -f "$1") work=$2 program=$3
source "$(dirname "$0")/brighten-library.sh"
case "$program" in
  bzip2) soname=libbz2.so.1.0 probe=BZ2_bzWriteOpen ;;
  xz) soname=liblzma.so.5 probe=lzma_code ;;
  jq) soname=libjq.so.1 probe=jv_copy ;;
  *) echo "upstream-preload.sh: bzip2, xz or jq" >&2; exit 2 ;;
esac
binary=$(command -v "$program") || { echo "$program is missing (scripts/install-deps.sh)"; exit 1; }
library=$(readlink -f "$(ldd "$binary" | awk -v so="$soname" '$1 == so { print $3 }')")
mkdir -p "$work"
cd "$work"

brighten_library "$hoist" "$library"
echo "$soname ($library): $count of $total exported functions brightened"
# Linked against the original library, which defines the objects brightened code names.
gcc -shared -o brightened.so "$linked" "$stubs" "$library"
# The preload must take: the probe export, when brightened, binds to it.
if echo "$brightened_exports" | grep -qx "$probe"; then
  LD_PRELOAD=$PWD/brightened.so LD_DEBUG=bindings LD_DEBUG_OUTPUT=bindings "$binary" --help >/dev/null 2>&1 || true
  LD_PRELOAD=$PWD/brightened.so LD_DEBUG=bindings LD_DEBUG_OUTPUT=bindings "$binary" -c </dev/null >/dev/null 2>&1 || true
  grep -h "symbol \`$probe'" bindings.* | grep -q "brightened.so" ||
    { echo "$program: $probe does not bind to the brightened library"; exit 1; }
  rm -f bindings.*
fi

if [ "$program" = jq ]; then
  # Data: an array of objects with numbers, strings, nesting and nulls.
  { echo '['
    for i in $(seq 1 600); do
      echo "{\"n\": $((i * 7919 % 1000)), \"name\": \"item $i\", \"tags\": [\"t$((i % 7))\", $((i % 5))],"
      echo " \"nested\": {\"depth\": {\"value\": $i.25, \"none\": null}}, \"flag\": $([ $((i % 2)) = 0 ] && echo true || echo false)},"
    done
    echo '{"n": 0, "name": "last", "tags": [], "nested": {}, "flag": null}]'; } >data
  printf '{"a": [1, 2,, 3]}\n' >malformed
else
  # Data: text, binary, runs and incompressible bytes.
  { for i in $(seq 1 4000); do echo "line $i of the round trip, $((i * 7919 % 1000))"; done
    head -c 300000 "$library"; head -c 20000 /dev/zero; head -c 65536 /dev/urandom; } >data
fi

status=0
# Runs the program with the original library and with the brightened one; both must write
# the same stdout and stderr (the program's name aside) and exit the same way.
same() {
  local name=$1; shift
  set +e
  "$binary" "$@" <"$input" >orig.out 2>orig.err; local orig=$?
  LD_PRELOAD=$PWD/brightened.so "$binary" "$@" <"$input" >bright.out 2>bright.err; local bright=$?
  set -e
  if [ $orig -ne $bright ] || ! cmp -s orig.out bright.out || ! cmp -s orig.err bright.err; then
    echo "$program $name: differs (status $orig, brightened $bright)"
    cmp orig.out bright.out | head -2 || true; diff orig.err bright.err | head -6 || true
    status=1
  else
    echo "$program $name: same output, status $orig"
  fi
}
input=data
case "$program" in
  bzip2)
    for level in 1 5 9; do same "-$level" -c -$level; cp orig.out "data$level.bz2"; done
    same "-vv (the library's own reports)" -c -vv -3
    for level in 1 9; do
      input=data$level.bz2
      same "-d of -$level" -dc; same "-ds (small decompression) of -$level" -dcs
      same "-t of -$level" -t
    done
    # A corrupt block: the library's CRC check must find it as the original does.
    cp data9.bz2 corrupt.bz2
    printf '\x55\xaa' | dd of=corrupt.bz2 bs=1 seek=5000 conv=notrunc status=none
    input=corrupt.bz2; same "-d of corrupt input" -dc; same "-t of corrupt input" -t
    input=/dev/null; same "-c of empty input" -c
    ;;
  xz)
    for level in 0 3 6; do same "-$level" -c -T1 -$level; cp orig.out "data$level.xz"; done
    same "-e --check=sha256" -c -T1 -e -1 --check=sha256
    same "--format=lzma" -c --format=lzma -2
    same "--format=raw --lzma2" -c --format=raw --lzma2=preset=1
    same "--x86 filter" -c -T1 --x86 --lzma2=preset=2
    for level in 0 6; do
      input=data$level.xz
      same "-d of -$level" -dc; same "-t of -$level" -t; same "-lvv of -$level" -lvv "data$level.xz"
    done
    cp data6.xz corrupt.xz
    printf '\x55\xaa' | dd of=corrupt.xz bs=1 seek=3000 conv=notrunc status=none
    input=corrupt.xz; same "-d of corrupt input" -dc; same "-t of corrupt input" -t
    ;;
  jq)
    same "." .
    same "-c ." -c .
    same "arithmetic" 'map(.n * 2 + 1 - (.n % 3))'
    same "select, sort_by, group_by" '[.[] | select(.n % 3 == 0)] | sort_by(.name) | group_by(.n % 2) | map(length)'
    same "strings" -r 'map((.name | ascii_upcase) + "-" + (.n | tostring)) | join(",")'
    same "reduce" 'reduce .[] as $x (0; . + $x.n)'
    same "paths" '[paths] | length'
    same "formats" -r '.[0:5][] | [.name, .n] | @csv, @tsv, @sh, @base64, @json, @html, @uri'
    same "tojson and fromjson" 'map(tojson | fromjson) == .'
    same "entries" '.[0] | to_entries, (to_entries | from_entries), keys, has("n"), del(.name)'
    same "setpath and getpath" 'setpath([0, "nested", "depth", "value"]; 42) | .[0], getpath([1, "tags"])'
    same "floating point" 'map(.nested.depth.value // 0 | . / 7 | floor, sqrt, log) | add'
    same "regular expressions" '[.[] | .name | select(test("item 1[0-9]$")) | sub("item"; "x")]'
    same "slurp" -s 'map(length)'
    same "range, limit, until" -n '[range(0; 1000; 7)] | add, ([limit(10; repeat(1))] | length), (0 | until(. > 100; . * 2 + 1))'
    same "arguments" --arg x 5 --argjson y '{"z": [1, 2]}' -n '$x, $y, $ARGS.named'
    same "dates" -n '"2015-03-05T23:51:47Z" | fromdate, (fromdate | todate), (1425599507 | gmtime | mktime)'
    same "streaming" -c --stream 'select(length == 2) | .[1]'
    same "error" '.[0] | error("stopped at \(.name)")'
    same "try and catch" 'map(try (.tags[0] | tonumber) catch "bad") | unique'
    same "-e with false" -e '.[1].flag'
    input=malformed; same "malformed input" .
    input=/dev/null; same "empty input" .
    ;;
esac
[ $status -eq 0 ] && echo "$program upstream runs: all the same with $count brightened exports"
exit $status
