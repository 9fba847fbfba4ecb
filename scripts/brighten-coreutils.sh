#!/bin/bash
# Debian's coreutils programs as shipped, each brightened whole and recompiled
# (brighten-program.sh), then run through coreutils' own tests for that program, once with
# Debian's program and once with the recompiled one in place of the one the tree built: the
# same PASS/FAIL/SKIP results both times (docs/BRIGHTEN.md, "Whole programs").
# TREE is coreutils' source tree of Debian's version, configured and built
# (`apt-get source coreutils`; tests/cfg/build_coreutils.sh builds one). A program's tests are
# tests/PROGRAM/* and tests/misc/PROGRAM.* and tests/misc/PROGRAM-*.
# Usage: scripts/brighten-coreutils.sh HOIST TREE WORKDIR PROGRAM...
# Prints one line per program; exits 1 if any program's results differ or it did not link.
set -uo pipefail
hoist=$(readlink -f "$1") tree=$(readlink -f "$2") work=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
cd "$work" || exit 1
# shellcheck source=../tests/brighten/compare-runs.sh
source "$here/../tests/brighten/compare-runs.sh"
status=0
for program in "$@"; do
  binary=/usr/bin/$program
  tests=$(cd "$tree" && ls -d tests/"$program"/*.sh tests/"$program"/*.pl \
    tests/misc/"$program".sh tests/misc/"$program".pl tests/misc/"$program"-*.sh \
    tests/misc/"$program"-*.pl 2>/dev/null | tr '\n' ' ')
  echo -n "$program: "
  if ! "$here/brighten-program.sh" "$hoist" "$binary" "$program.bright"; then
    status=1
    continue
  fi
  if [ -z "$tests" ]; then
    echo "$program: no tests of its own in the tree"
    continue
  fi
  # Built by the tree's make as src/PROGRAM, except `[`, which is test's other name.
  same_suite "$program's tests" "$tree/src/$program" "$tree" TESTS="$tests" SUBDIRS=.
  cp "$binary" "$tree/src/$program"   # leave the tree with Debian's program
done
exit $status
