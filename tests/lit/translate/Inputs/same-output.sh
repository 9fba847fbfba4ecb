#!/bin/sh
# same-output.sh HOIST OUT SOURCE COMPILER FLAGS...: builds SOURCE with COMPILER and FLAGS
# (-pthread added), translates it without --allow-unsupported, and checks that the translation
# prints what the original prints, with the same exit status. Prints the original's output.
set -e
hoist=$1 out=$2 source=$3 compiler=$4
shift 4
"$compiler" "$source" "$@" -pthread -o "$out"
"$out" > "$out.expected" && status=0 || status=$?
"$hoist" translate "$out" -o "$out.translated" -q
timeout 120 "$out.translated" > "$out.actual" && translated=0 || translated=$?
diff "$out.expected" "$out.actual"
test "$status" -eq "$translated"
cat "$out.expected"
