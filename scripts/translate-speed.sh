#!/usr/bin/env bash
# The slowdown of translated programs (docs/TRANSLATE.md, "Speed"): each program is translated
# by `hoist translate -O2`, then the original and the translation run interleaved on the same
# input (original, translation, original, ...), RUNS times each, so that both see the same load
# on a shared machine; the table gives the median user+system time of each and their ratio, and
# checks that both printed the same output. Not run in CI (minutes).
#
# Usage: scripts/translate-speed.sh [-r RUNS] HOIST WORKDIR PROGRAM...
#   PROGRAM is a path to an executable; the basename picks the workload:
#   wc, cat, sort, tac, expand, base64, cksum, md5sum, sha256sum read a text file of
#   `seq 1 9000000` (71 MB; sort a 20 MB part, with one thread), seq writes `seq 1 5000000`, bzip2 compresses
#   20 MB of that text and decompresses the result (the basename may have a suffix: bzip2.orig).
set -uo pipefail
runs=5
[ "${1:-}" = -r ] && { runs=$2; shift 2; }
hoist=$(realpath "$1") work=$2
shift 2
mkdir -p "$work"
text="$work/text.txt" part="$work/part.txt"
[ -f "$text" ] || seq 1 9000000 >"$text"
[ -f "$part" ] || head -c 20000000 "$text" >"$part"

# User+system seconds of one run of the command; its stdout goes to $out.
run_time() {
  local out=$1; shift
  /usr/bin/time -f "%U %S" -o "$work/time" "$@" >"$out" 2>/dev/null
  awk '{print $1 + $2}' "$work/time"
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf '| Program | Workload | Original | Translated | Slowdown | Output |\n|---|---|---|---|---|---|\n'
for program in "$@"; do
  name=$(basename "$program")
  translated="$work/$name.translated"
  if ! "$hoist" translate -O2 --allow-unsupported "$program" -o "$translated" 2>"$work/$name.log"; then
    echo "| \`$name\` | translation failed: $(head -1 "$work/$name.log") | | | | |"
    continue
  fi
  workloads=("$text")
  case $name in
  seq*) workloads=("1 5000000") ;;
  sort*) workloads=("--parallel=1 $part") ;;   # threads are not supported (docs/TRANSLATE.md)
  bzip2*) workloads=("-c $part" "-dc $work/part.txt.bz2")
    [ -f "$work/part.txt.bz2" ] || "$program" -c "$part" >"$work/part.txt.bz2" ;;
  esac
  for workload in "${workloads[@]}"; do
    befores=() afters=()
    for _ in $(seq "$runs"); do
      # shellcheck disable=SC2086 # the workload is a list of arguments
      befores+=("$(run_time "$work/out.original" "$program" $workload)")
      # shellcheck disable=SC2086
      afters+=("$(run_time "$work/out.translated" "$translated" $workload)")
    done
    before=$(printf '%s\n' "${befores[@]}" | median)
    after=$(printf '%s\n' "${afters[@]}" | median)
    same=same
    cmp -s "$work/out.original" "$work/out.translated" || same=DIFFERENT
    label=$(echo "$workload" | sed "s|$work/||g")
    echo "| \`$name\` | \`$label\` | $before s | $after s | $(echo "scale=2; $after / ($before + 0.0001)" | bc)x | $same |"
  done
done
