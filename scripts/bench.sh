#!/usr/bin/env bash
# Measures Hoist's phases against Zydis alone and llvm-objdump-19 -d, over /usr/bin/bash,
# libc.so.6, Wine's kernelbase.dll and a synthetic binary of 10k, 100k and 1M instructions.
# The synthetic inputs also run `hoist lift --all -j 1` (the stream phase: the streaming path as
# users run it, text IR written and freed per chunk). Prints the table (Markdown) and writes every figure to bench-results.json (docs/PERFORMANCE.md).
#
#   scripts/bench.sh [--smoke] [--only LABELS] [--build-dir DIR] [--no-build] [--json FILE]
#
# --smoke: one small synthetic input, a few seconds; fails if a phase does not complete or
# measures nothing (ctest runs it as bench-smoke; it asserts nothing about speed).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build"
json="$root/bench-results.json"
smoke=()
only=()
do_build=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --smoke) smoke=(--smoke) ;;
    --only) only=(--only "$2"); shift ;;   # e.g. 'bash,synthetic 10k,synthetic 100k'
    --build-dir) build="$2"; shift ;;
    --no-build) do_build=0 ;;
    --json) json="$2"; shift ;;
    *) echo "usage: $0 [--smoke] [--only LABELS] [--build-dir DIR] [--no-build] [--json FILE]" >&2; exit 2 ;;
  esac
  shift
done

if [[ $do_build == 1 ]]; then
  "$root/scripts/configure.sh" "$build"
  cmake --build "$build" --target hoist-bench hoist
fi

wine_dll=/usr/lib/x86_64-linux-gnu/wine/x86_64-windows/kernelbase.dll
if [[ ${#smoke[@]} == 0 && ! -f $wine_dll && $(id -u) == 0 ]]; then
  echo "bench: installing wine64 for $wine_dll" >&2
  apt-get install -y wine64 >&2 || echo "bench: wine64 could not be installed; the Wine row is skipped" >&2
fi

workdir="$(mktemp -d)"
trap 'rm -rf "$workdir"' EXIT
echo "bench: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start" >&2
python3 "$root/bench/run_bench.py" --bench "$build/bench/hoist-bench" \
  --hoist "$build/tools/hoist/hoist" --workdir "$workdir" \
  --json "$json" "${smoke[@]}" "${only[@]}"
