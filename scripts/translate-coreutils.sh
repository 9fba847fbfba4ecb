#!/usr/bin/env bash
# Real programs with their own test suite: coreutils tools from a build tree of Debian's
# coreutils source (tests/cfg/build_coreutils.sh makes one) are translated by `hoist translate`,
# put in place of the originals in a copy of the tree, and coreutils' own tests for them run
# (`make check TESTS=...`). Then each original and translated tool runs on a large input, for
# the slowdown. Not run in CI (the tree takes minutes to build).
#
# Usage: scripts/translate-coreutils.sh [-O level] HOIST COREUTILS_TREE WORKDIR [TOOL...]
#   default tools: seq wc tac expand base64 cksum md5sum sha256sum
set -uo pipefail
level=-O2
[ "${1:-}" = -O ] && { level=-O$2; shift 2; }
hoist=$(realpath "$1") tree=$2 work=$3
shift 3
tools=("$@")
[ ${#tools[@]} -eq 0 ] && tools=(seq wc tac expand base64 cksum md5sum sha256sum)
mkdir -p "$work"
copy="$work/tree"
[ -d "$copy" ] || cp -a "$tree" "$copy"
cd "$copy" || exit 1
tests=()
for tool in "${tools[@]}"; do
  [ -f "src/$tool.original" ] || cp -p "src/$tool" "src/$tool.original"
  start=$(date +%s)
  # sort imports pthread_create (used only with --parallel > 1) and installs signal handlers.
  allow=()
  [ "$tool" = sort ] && allow=(--allow-unsupported)
  if ! "$hoist" translate $level "${allow[@]}" "src/$tool.original" -o "src/$tool.translated" 2>"$work/$tool.log"; then
    echo "$tool: translation failed: $(head -3 "$work/$tool.log")"
    cp -p "src/$tool.original" "src/$tool"
    continue
  fi
  echo "$tool: translated in $(($(date +%s) - start)) s"
  # Keep make from relinking: the translated tool is newer than its objects.
  cp "src/$tool.translated" "src/$tool"
  for test in tests/misc/$tool.pl tests/misc/$tool-*.pl tests/misc/$tool-*.sh tests/misc/$tool.sh \
              tests/$tool/*.sh tests/$tool/*.pl; do
    [ -f "$test" ] && tests+=("$test")
  done
done
make check SUBDIRS=. VERBOSE=no TESTS="${tests[*]}" >"$work/check.log" 2>&1
grep -E "^(PASS|FAIL|SKIP|ERROR|XFAIL|XPASS):" "$work/check.log"
grep -E "^# (TOTAL|PASS|FAIL|SKIP|ERROR)" "$work/check.log"

# Slowdown on 64 MiB of input (seq makes its own).
input="$work/input.txt"
[ -f "$input" ] || "src/seq.original" 1 9000000 >"$input"
echo "slowdown (user+sys seconds, original -> translated $level):"
for tool in "${tools[@]}"; do
  [ -f "src/$tool.translated" ] || continue
  case $tool in
  seq) arguments=(1 5000000) ;;
  sort) arguments=(--parallel=1 "$input") ;;   # threads are not supported
  expand | tac | wc | base64 | cksum | md5sum | sha256sum) arguments=("$input") ;;
  *) arguments=("$input") ;;
  esac
  measure() { /usr/bin/time -f "%U %S" "$@" >"$work/out.$(basename "$1")" 2>"$work/time" || true; awk '{print $1 + $2}' "$work/time" | tail -1; }
  before=$(measure "src/$tool.original" "${arguments[@]}")
  after=$(measure "src/$tool.translated" "${arguments[@]}")
  same=different
  cmp -s "$work/out.$tool.original" "$work/out.$tool.translated" && same="same output"
  echo "  $tool ${arguments[*]##*/}: $before s -> $after s ($(echo "scale=2; $after / ($before + 0.001)" | bc)x, $same)"
done
