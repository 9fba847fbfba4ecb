# Sourced by upstream-program.sh and the per-program runs (bzip2-runs.sh, diff-runs.sh,
# ls-runs.sh).
# `same COMMAND...` runs the
# command once with the original program first in PATH and once with the recompiled one
# (bright/), each in a fresh copy of files/, and compares what it writes to stdout and stderr
# (made printable by cat -v: compressed output holds NUL bytes, which a shell variable cannot),
# how it exits, and the files it leaves with their checksums.
# Uses: $binary, bright/, files/; counts in $checks, sets status=1 on a difference.

run_in() {
  local dir=$1; shift
  rm -rf run && cp -a files run   # -a: diff prints the files' times
  (cd run && PATH="$dir:$PATH" "$@" 2>&1; echo "status $?") | cat -v |
    sed -e "s|$dir/||g"
  (cd run && find . -type f -print0 | sort -z | xargs -0 -r md5sum)
}
same() {
  local expected actual
  expected=$(run_in "$(dirname "$binary")" "$@")
  actual=$(run_in "$PWD/bright" "$@")
  checks=$((checks + 1))
  if [ "$expected" != "$actual" ]; then
    echo "differs: $*"
    diff <(echo "$expected") <(echo "$actual") | head -5
    status=1
  fi
}
checks=0

# `same_suite NAME PLACE MAKE_DIR [MAKE_ARGUMENT...]`: a source tree's test suite (`make -C
# MAKE_DIR check`, with the arguments given: the tests to run), once with the original program
# copied to PLACE (where the tree built its own) and once with the recompiled one
# ($program.bright): the same PASS/FAIL/SKIP/XFAIL results both times.
same_suite() {
  local name=$1 place=$2 dir=$3 variant
  shift 3
  for variant in original bright; do
    if [ $variant = original ]; then cp "$binary" "$place"; else cp "$program.bright" "$place"; fi
    touch "$place"   # newer than its objects: make keeps it
    make -C "$dir" check -j2 "$@" >"check-$variant.log" 2>&1 || true
    grep -E '^(PASS|FAIL|XFAIL|XPASS|SKIP|ERROR):' "check-$variant.log" | sort >"results-$variant"
  done
  if cmp -s results-original results-bright; then
    echo "$name: the same results as the original ($(grep -c '^PASS' results-bright) pass," \
      "$(grep -c '^FAIL' results-bright) fail, $(grep -c '^SKIP' results-bright) skipped," \
      "$(grep -c '^XFAIL' results-bright) expected to fail)"
  else
    echo "$name: results differ"; diff results-original results-bright
    status=1
  fi
}
