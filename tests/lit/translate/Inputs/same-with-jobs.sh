#!/bin/sh
# same-with-jobs.sh HOIST OUT SOURCE COMPILER FLAGS...: builds SOURCE with COMPILER and FLAGS,
# translates it with -j 1, with -j 2 and with -j 2 again, and checks that both translations
# print what the original prints with its exit status, that the two -j 2 translations are the
# same bytes, and that the -j 1 and -j 2 executables define the same code symbols (a partition
# dropped or defined twice would differ, where the link had not already failed). Prints the
# original's output, then what the -j 2 translation said of its partitions.
set -e
hoist=$1 out=$2 source=$3 compiler=$4
shift 4
"$compiler" "$source" "$@" -o "$out"
"$out" > "$out.expected" && status=0 || status=$?
"$hoist" translate "$out" -o "$out.j1" -q -j 1
"$hoist" translate "$out" -o "$out.j2" -q -j 2 -v 2> "$out.j2.log" || { cat "$out.j2.log" >&2; exit 1; }
"$hoist" translate "$out" -o "$out.j2-again" -q -j 2
for jobs in j1 j2; do
  timeout 120 "$out.$jobs" > "$out.$jobs.actual" && translated=0 || translated=$?
  diff "$out.expected" "$out.$jobs.actual"
  test "$status" -eq "$translated"
done
cmp "$out.j2" "$out.j2-again"
# Partitions name the program's functions .hoist.local.NAME (PartitionedObjects.h).
code_symbols() { nm --defined-only "$1" | awk '$2 ~ /^[tT]$/ { print $3 }' | sed 's/^\.hoist\.local\.//' | sort; }
code_symbols "$out.j1" > "$out.j1.symbols"
code_symbols "$out.j2" > "$out.j2.symbols"
diff "$out.j1.symbols" "$out.j2.symbols"
cat "$out.expected"
grep partition "$out.j2.log"
