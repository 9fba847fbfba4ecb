#!/usr/bin/env bash
# translate_signals: signals.c (handlers by signal and sigaction, raise, kill, SIGPIPE, a timer,
# SA_SIGINFO, handler round trips, masks, setjmp/longjmp across lifted frames and out of qsort
# and of handlers) built by gcc and clang-19, PIE and not, each translated by `hoist translate`
# without --allow-unsupported; the translation must print the same stdout and stderr and end
# the same way (killed by SIGTERM) as the original. gcc -O2 -D_FORTIFY_SOURCE=2 must import
# __longjmp_chk, so that the fortified longjmp is among what is checked.
# Usage: run-signals.sh HOIST WORKDIR [quick]   (quick: the fortified gcc build only, for the sanitizers)
set -uo pipefail
hoist=$1 work=$2 quick=${3:-}
source=$(dirname "$0")/signals.c
mkdir -p "$work"
configurations=("gcc -O2 -D_FORTIFY_SOURCE=2 -pie" "gcc -O0 -no-pie")
if command -v clang-19 >/dev/null; then
  configurations+=("clang-19 -O2 -no-pie" "clang-19 -O0 -pie")
fi
[ -n "$quick" ] && configurations=("${configurations[@]:0:1}")
failures=0 checked=0
for configuration in "${configurations[@]}"; do
  name="$work/signals-$(echo "$configuration" | tr -d ' =_')"
  if ! $configuration -o "$name" "$source"; then
    echo "FAIL: $configuration does not compile"; failures=$((failures + 1)); continue
  fi
  if [[ "$configuration" == *FORTIFY* ]] && ! nm -D "$name" | grep -q __longjmp_chk; then
    echo "FAIL: $configuration: the program does not import __longjmp_chk"
    failures=$((failures + 1))
  fi
  if ! "$hoist" translate "$name" -o "$name.translated"; then
    echo "FAIL: $name: hoist translate failed"; failures=$((failures + 1)); continue
  fi
  "$name" >"$name.expected" 2>"$name.expected-err"
  echo "exit $?" >>"$name.expected"
  "$name.translated" >"$name.actual" 2>"$name.actual-err"
  echo "exit $?" >>"$name.actual"
  checked=$((checked + 1))
  # The original itself must get through every part and end killed by SIGTERM.
  if ! grep -q "escaped from the handler 40 times" "$name.expected" ||
     [ "$(tail -1 "$name.expected")" != "exit 143" ]; then
    echo "FAIL: $configuration: the original does not run to its end"; cat "$name.expected"
    failures=$((failures + 1)); continue
  fi
  if ! cmp -s "$name.expected" "$name.actual" || ! cmp -s "$name.expected-err" "$name.actual-err"; then
    echo "FAIL: $configuration: the translated program behaves differently"
    diff "$name.expected" "$name.actual" | head -20
    diff "$name.expected-err" "$name.actual-err" | head -10
    failures=$((failures + 1))
  fi
done
echo "translate_signals: $((checked - failures)) of $checked configurations behave the same"
[ "$failures" -eq 0 ] && [ "$checked" -gt 0 ]
