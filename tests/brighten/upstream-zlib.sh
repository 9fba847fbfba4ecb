#!/bin/bash
# zlib's own test programs against Debian's libz.so.1 brightened (docs/BRIGHTEN.md,
# "Upstream tests"). Every function of the library as shipped is lifted and brightened; the
# brightened exports are linked into zlib's example.c, minigzip.c and zpipe.c (from
# zlib1g-dev's examples) ahead of -lz, so both the test program's calls and the library's
# own calls through its PLT (an executable's definition interposes) reach the brightened
# code. Each program must behave as it does against the original library: example's output
# and status, minigzip's and zpipe's round trips with gzip at several levels.
# Usage: upstream-zlib.sh HOIST WORKDIR
set -euo pipefail
hoist=$(readlink -f "$1") work=$2
source "$(dirname "$0")/brighten-library.sh"
examples=/usr/share/doc/zlib1g-dev/examples
library=$(gcc -print-file-name=libz.so.1)
library=$(readlink -f "$library")
[ -f "$examples/example.c" ] || { echo "zlib1g-dev's examples are missing (scripts/install-deps.sh)"; exit 1; }
mkdir -p "$work"
cd "$work"

brighten_library "$hoist" "$library"
echo "libz.so.1 ($library): $count of $total exported functions brightened"
# inflate (a loop around its jump table, whose index is a phi of zero-extended values) and
# zError (a table read at an index the code does not bound, beside deflate's handlers) are
# among them, so the runs below take their brightened code.
for required in inflate zError deflateParams; do
  echo "$brightened_exports" | grep -qx "$required" || { echo "$required is not brightened"; exit 1; }
done

status=0
for program in example minigzip zpipe; do
  gcc -O2 -w "$examples/$program.c" -lz -o "$program.orig"
  gcc -O2 -w "$examples/$program.c" "$linked" "$stubs" -lz -o "$program.bright"
done

# example: compress/uncompress, gz* I/O, deflate/inflate with a dictionary, sync, flush.
./example.orig example.orig.gz >example.orig.out 2>&1 || true
set +e
./example.bright example.bright.gz >example.bright.out 2>&1
result=$?
set -e
if [ $result -ne 0 ] || ! cmp -s example.orig.out example.bright.out; then
  echo "example: differs (status $result)"; diff example.orig.out example.bright.out | head -20
  status=1
else
  echo "example: same output, status 0"
fi

# Data: text, binary and incompressible bytes.
{ for i in $(seq 1 3000); do echo "line $i of the zlib round trip, $((i * 7919 % 1000))"; done
  head -c 200000 "$library"; head -c 65536 /dev/urandom; } >data
for level in 1 6 9; do
  cp data "data$level"
  ./minigzip.bright -$level "data$level"
  if gzip -dc "data$level.gz" | cmp -s - data; then
    echo "minigzip -$level: gzip decompresses what it wrote"
  else
    echo "minigzip -$level: gzip does not get the data back"; status=1
  fi
  gzip -$level -c data >"in$level.gz"
  if ./minigzip.bright -d -c "in$level.gz" 2>/dev/null | cmp -s - data ||
     { cp "in$level.gz" "back$level.gz" && ./minigzip.bright -d "back$level.gz" && cmp -s "back$level" data; }; then
    echo "minigzip -d: decompresses gzip -$level"
  else
    echo "minigzip -d: does not decompress gzip -$level"; status=1
  fi
done
if ./zpipe.bright <data | ./zpipe.orig -d | cmp -s - data &&
   ./zpipe.orig <data | ./zpipe.bright -d | cmp -s - data; then
  echo "zpipe: round trips both ways with the original"
else
  echo "zpipe: round trip differs"; status=1
fi
[ $status -eq 0 ] && echo "zlib upstream tests: all passed with $count brightened exports"
exit $status
