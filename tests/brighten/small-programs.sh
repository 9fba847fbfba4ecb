#!/bin/bash
# Debian's head, tr, cut, uniq, cmp, ed, wc, tac, nl, csplit and b2sum as shipped, none of
# them looked at while brightening was written, each brightened whole and recompiled
# (scripts/brighten-program.sh), then run against the original on the same files
# (compare-runs.sh): the same output, status and files for each command (docs/BRIGHTEN.md,
# "Whole programs"). wc picks its line counting loop by cpuid (MachineQueries.h); tac, nl and
# csplit parse regular expressions with gnulib's parser, whose switches nothing bounds
# (jump tables with bound table-end); b2sum wipes its state through a pointer to memset.
# Usage: small-programs.sh HOIST WORKDIR
set -euo pipefail
hoist=$(readlink -f "$1") work=$2
here=$(cd "$(dirname "$0")" && pwd)
scripts=$(cd "$here/../../scripts" && pwd)
programs="head tr cut uniq cmp ed wc tac nl csplit b2sum"
mkdir -p "$work"
cd "$work"

status=0
for program in $programs; do
  echo -n "$program: "
  "$scripts/brighten-program.sh" "$hoist" "/usr/bin/$program" "$program.bright"
done

# same() runs the originals from the directory of $binary, the recompiled ones from bright/.
binary=/usr/bin/head
# shellcheck source=compare-runs.sh
source "$here/compare-runs.sh"
rm -rf bright files run
mkdir -p bright files
for program in $programs; do cp "$program.bright" "bright/$program"; done
seq 1 50 >files/n
seq 1 50 | sed '20s/.*/X/' >files/n2
printf 'a\nb\nb\nc\nc\nc\nA\na\n' >files/u
printf 'x:y:z\n1:2:3\nfoo:bar\n' >files/c
seq 1 20000 >files/big
printf 'h\xc3\xa9llo w\xc3\xb6rld\n  tabs\there\n' >files/utf8

for options in "n" "-n 5 n" "-c 20 n" "-n -45 n" "-q n u" "-v n" "-z n" "nosuch" "-n x n" \
    "--help" "--version"; do
  # shellcheck disable=SC2086  # the options are words
  same head $options
done
for options in "u" "-c u" "-d u" "-u u" "-i u" "-D u" "--group u" "-f 0 -s 1 u" "-w 1 u" \
    "--help" "--version"; do
  # shellcheck disable=SC2086
  same uniq $options
done
for options in "-d: -f2 c" "-d: -f1,3 c" "-c 2-4 c" "-b 1 c" "-s -d: -f3 c" \
    "--complement -d: -f2 c" "--output-delimiter=, -d: -f1,2 c" "-f" "--help" "--version"; do
  # shellcheck disable=SC2086
  same cut $options
done
for options in "n n2" "-l n n2" "-b n n2" "-s n n2" "-i 5 n n2" "-n 30 n n2" "n n" "n nosuch" \
    "--help" "--version"; do
  # shellcheck disable=SC2086
  same cmp $options
done
same sh -c 'tr a-z A-Z <c'
same sh -c 'tr -d 0-9 <c'
same sh -c 'tr -s "a-z" <u'
same sh -c 'tr -c a-z "*" <c'
same sh -c 'tr "[:lower:]" "[:upper:]" <c'
same sh -c 'tr -d "[:punct:]" <c'
same tr a
same tr --help
same sh -c 'printf "1,5p\nq\n" | ed -s n'
same sh -c 'printf "g/1/s/1/one/\n,p\nQ\n" | ed -s n'
same sh -c 'printf "\$a\nnew\n.\nw\nq\n" | ed -s n'
same sh -c 'printf "H\n/nomatch/\nQ\n" | ed -s n'
same sh -c 'printf "2,4d\n,s/1/I/g\nw out\nq\n" | ed n'
same ed --version
for options in "big" "-l big" "-w utf8" "-c utf8" "-m utf8" "-L utf8" "big utf8" \
    "--total=only big utf8" "nosuch" "--help" "--version"; do
  # shellcheck disable=SC2086
  same wc $options
done
same env LC_ALL=C.UTF-8 wc -m -L utf8
for options in "n" "-s 5 n" "-r -s [0-9] n" "-r -s x*5 n" "-b -s 0 n" "-b -r -s [13] n" \
    "nosuch" "--help" "--version"; do
  # shellcheck disable=SC2086
  same tac $options
done
for options in "n" "-b pX n2" "-b p^[0-9]*5$ n" "-b a -v 10 -i 3 n" "-s: -w3 u" "-b p[ n" \
    "-d ab n" "-l 2 -b a u" "--help"; do
  # shellcheck disable=SC2086
  same nl $options
done
for options in "n 10 20" "-f part -n 3 n /5$/ {2}" "n2 /^X/" "-z n %1% 30" "-k n 100" \
    "-s n /7/+1 {*}" "n /[/" "--help"; do
  # shellcheck disable=SC2086
  same csplit $options
done
for options in "n big" "-l 128 n" "--tag n" "-l 7 n" "--help"; do
  # shellcheck disable=SC2086
  same b2sum $options
done
same sh -c 'b2sum n big >sums && b2sum -c sums && sed -i "s/^0/1/" sums; b2sum -c sums'
[ $status -eq 0 ] && echo "$checks runs, same output, status and files as the originals"
exit $status
