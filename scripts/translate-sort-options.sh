#!/usr/bin/env bash
# A translated `sort` against the original on one shuffled input with many option sets
# (docs/TRANSLATE.md, "Speed"): each pair of runs must print the same output and exit alike
# (stderr is not compared: it names the program, which differs).
# Not run in CI (needs coreutils' sort built from source, see tests/cfg/build_coreutils.sh).
#
# Usage: scripts/translate-sort-options.sh ORIGINAL TRANSLATED WORKDIR
set -uo pipefail
original=$1 translated=$2 work=$3
mkdir -p "$work"
input="$work/input.txt"
# Numbers, hex, repeated keys, month names, human sizes, floats, blanks, an empty line.
if [ ! -f "$input" ]; then
  { seq 1 20000 | awk '{printf "%s %d %x k%d\n", $1 * 7 % 1000, $1 % 97, $1 * 13, $1 % 5}'
    printf 'Jan x\nFeb y\nmar z\n1K a\n2M b\n3G c\n1.5e3 d\n-4 e\n  lead f\nZ\nz\n\n'
  } | shuf --random-source=<(yes) >"$input"
fi
options=("" "-n" "-r" "-u" "-k2,2n" "-f" "-g" "-h" "-V" "-M" "-R --random-source=$input"
         "-s -k4,4" "-b -k3" "-t x -k2" "-n -r -u" "-z" "-c")
differ=0
for option in "${options[@]}"; do
  # shellcheck disable=SC2086 # the option set is a list of arguments
  "$original" --parallel=1 $option "$input" >"$work/original.out" 2>/dev/null
  before=$?
  # shellcheck disable=SC2086
  "$translated" --parallel=1 $option "$input" >"$work/translated.out" 2>/dev/null
  after=$?
  if [ $before -eq $after ] && cmp -s "$work/original.out" "$work/translated.out"; then
    echo "same: sort $option (exit $before)"
  else
    echo "DIFFERENT: sort $option (exit $before -> $after)"
    differ=1
  fi
done
exit $differ
