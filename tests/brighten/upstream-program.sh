#!/bin/bash
# A Debian program as shipped, every function brightened and recompiled into a new executable
# (docs/BRIGHTEN.md, "Whole programs"): `hoist lift --all --brighten -O2 --emit obj`, linked
# with the C library's start files. Each command below must write the same bytes and exit the
# same way as the original. With a built source tree of the program's package (`apt-get source
# sed`, configured and built), the tree's own test suite (`make check`) runs with the
# recompiled program in place of the one it built, and must pass and fail as with Debian's.
# For make, a makefile of rules, functions and errors (Inputs/program-make.mk) runs with each
# set of options; bzip2's, diff's, ls's, dash's, mawk's and gzip's runs and suites are in
# bzip2-runs.sh, diff-runs.sh, ls-runs.sh, dash-runs.sh, mawk-runs.sh and gzip-runs.sh.
# With RECOMPILE=1 in the environment the program is made by `hoist recompile` instead
# (docs/TRANSLATE.md, "Recompiled programs"): the functions brightening declines stay lifted,
# so it links whatever brightening declines (gzip's runs, gzip-runs.sh, are for that);
# RECOMPILE_FLAGS adds options to `hoist recompile`.
# Usage: upstream-program.sh HOIST WORKDIR sed|make|bzip2|diff|ls|dash|mawk|gzip [SOURCE_TREE]
set -euo pipefail
hoist=$(readlink -f "$1") work=$2 program=$3 tree=${4:-}
case $program in sed | make | bzip2 | diff | ls | dash | mawk | gzip) ;;
  *) echo "upstream-program.sh: sed, make, bzip2, diff, ls, dash, mawk or gzip" >&2; exit 2 ;;
esac
binary=$(command -v "$program")
scripts=$(cd "$(dirname "$0")/../../scripts" && pwd)
inputs=$(cd "$(dirname "$0")/Inputs" && pwd)
mkdir -p "$work"
cd "$work"

# Every function brightened, recompiled and linked (scripts/brighten-program.sh).
echo -n "$program: "
if [ -n "${RECOMPILE:-}" ]; then
  # shellcheck disable=SC2086  # RECOMPILE_FLAGS are words (--allow-unsupported for dash)
  "$hoist" recompile -q ${RECOMPILE_FLAGS:-} "$binary" -o "$program.bright" \
    2>"$program.recompile.err"
  grep -v '^hoist: warning' "$program.recompile.err"
else
  "$scripts/brighten-program.sh" "$hoist" "$binary" "$program.bright"
fi

status=0
# shellcheck source=compare-runs.sh
source "$(dirname "$0")/compare-runs.sh"
if [ "$program" = bzip2 ] || [ "$program" = diff ] || [ "$program" = ls ] ||
  [ "$program" = dash ] || [ "$program" = mawk ] || [ "$program" = gzip ]; then
  # shellcheck source=bzip2-runs.sh
  source "$(dirname "$0")/$program-runs.sh"
  exit $status
fi
if [ "$program" = make ]; then
  # make names itself by argv[0]'s last component: the recompiled one is bright/make.
  mkdir -p bright project
  cp make.bright bright/make
  cp "$inputs/program-make.mk" project/Makefile
  echo 'x := 1' >project/extra.mk
  # -p prints the time it ran and the files' modification times: left out of the comparison.
  run() {
    local make=$1; shift
    (cd project && "$make" clean >/dev/null 2>&1 && "$make" "$@" 2>&1 && echo "status 0" ||
      echo "status $?") |
      grep -v -e 'data base, printed on' -e 'Finished Make data base on' -e 'Last modified'
  }
  checks=0
  for options in "" "-n" "all" "fail" "-k fail all" "nosuch" "--version" "-p -f /dev/null" \
      "-s report CC=cc" "-C $PWD/project report" "-e report" "--eval=X:=1 report" "-q all" \
      "-j2 report" "--no-builtin-rules -d nosuch"; do
    # shellcheck disable=SC2086  # the options are words
    expected=$(run "$binary" $options | sed "s|$binary|make|g")
    # shellcheck disable=SC2086
    actual=$(run "$PWD/bright/make" $options | sed "s|$PWD/bright/make|make|g")
    checks=$((checks + 1))
    if [ "$expected" != "$actual" ]; then
      echo "differs: make $options"
      diff <(echo "$expected") <(echo "$actual") | head -5
      status=1
    fi
  done
  [ $status -eq 0 ] && echo "make: $checks runs, same output and status as the original"
  exit $status
fi

check() {
  local input=$1; shift
  local expected actual expected_status=0 actual_status=0
  # From a file, not a pipe: a program that exits without reading (`--version`) would leave
  # printf to die of SIGPIPE, which pipefail reports as the command's status.
  printf '%b' "$input" >input
  expected=$("$binary" "$@" <input 2>&1) || expected_status=$?
  actual=$("./$program.bright" "$@" <input 2>&1) || actual_status=$?
  # The program names itself by argv[0].
  actual=${actual//.\/$program.bright/$binary}
  if [ "$expected" != "$actual" ] || [ $expected_status -ne $actual_status ]; then
    echo "differs: $program $* (status $expected_status, brightened $actual_status)"
    diff <(echo "$expected") <(echo "$actual") | head -5
    status=1
  fi
}
lines='one\ntwo\nthree\nfour\nfive\nsix seven eight\n'
check "$lines" 's/o/0/g'
check "$lines" -n '2,4p'
check "$lines" -n '$='
check "$lines" '1~2d'
check "$lines" -E 's/(t)(w|h)/\2\1/'
check "$lines" 'y/abcdefghijklmnopqrstuvwxyz/ABCDEFGHIJKLMNOPQRSTUVWXYZ/'
check "$lines" -n '/t/{s/e/E/2;p}'
check "$lines" '$!N;s/\n/ + /'
check "$lines" -s -n 'l 5'
check "$lines" 'G;h;$!d'
check "$lines" -z 's/\n/,/g'
check "$lines" '/^f/,/^s/c\\replaced'
check "$lines" 'a\\after' -e 'i\\before'
check "$lines" 's/\\(.\\)\\(.\\)/\\2\\1/;tx;s/^/no /;:x'
check "$lines" --debug 's/e/x/'
check "$lines" -E 's/[[:alpha:]]+/<&>/3'
check "$lines" 's/e/\\U&/gw /dev/stdout'
check "$lines" 'unknown command'
check "$lines" 's/unterminated'
check "$lines" --posix -n '/[[:digit:]]\\{2,\\}/p'
check 'x\xe9y\n' 's/./[&]/g'
check "$lines" --help
check "$lines" --version
[ $status -eq 0 ] && echo "$program: 23 commands, same output and status as the original"

if [ -n "$tree" ]; then
  same_suite "$program's test suite" "$tree/$program/$program" "$tree"
fi
exit $status
