#!/usr/bin/env bash
# Random C programs from csmith (fixed seeds) compiled by gcc and clang-19 at -O0..-O3, PIE and
# not, translated by `hoist translate`: the translated program must print the original's
# checksum. Prints one line per configuration and a summary; exits 1 if any differs.
#
# Usage: scripts/translate-csmith.sh [-s "SEEDS"] [-c "COMPILERS"] [-l "LEVELS"] [-p "PIES"]
#                                    [-O translate-level] HOIST WORKDIR
#   defaults: seeds "1 2 3 4 5 6", compilers "gcc clang-19", levels "-O0 -O1 -O2 -O3",
#   pies "-no-pie -pie", translation at -O2.
# A program whose original run takes over 10 s is skipped (csmith programs may loop long).
set -uo pipefail
seeds="1 2 3 4 5 6" compilers="gcc clang-19" levels="-O0 -O1 -O2 -O3" pies="-no-pie -pie"
translateLevel=-O2
while getopts "s:c:l:p:O:" option; do
  case $option in
  s) seeds=$OPTARG ;; c) compilers=$OPTARG ;; l) levels=$OPTARG ;; p) pies=$OPTARG ;;
  O) translateLevel=-O$OPTARG ;;
  *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
hoist=$1 work=$2
mkdir -p "$work"
work=$(realpath "$work")
same=0 total=0 skipped=0
slowdowns=()
for seed in $seeds; do
  source="$work/seed$seed.c"
  # csmith writes platform.info into its working directory: keep it in the work directory.
  [ -f "$source" ] || (cd "$work" && csmith --seed "$seed" -o "$source" >/dev/null) || exit 1
  for compiler in $compilers; do
    command -v "$compiler" >/dev/null || { echo "no $compiler: skipped"; continue; }
    for level in $levels; do
      for pie in $pies; do
        name="$work/seed$seed-$compiler$level$pie"
        config="seed $seed $compiler $level $pie"
        "$compiler" $level $pie -w -I/usr/include/csmith -o "$name" "$source" || exit 1
        start=$(date +%s.%N)
        expected=$(timeout 10 "$name")
        if [ $? -eq 124 ]; then echo "$config: skipped (runs over 10 s)"; skipped=$((skipped + 1)); continue; fi
        original=$(echo "$(date +%s.%N) - $start" | bc)
        total=$((total + 1))
        if ! "$hoist" translate $translateLevel "$name" -o "$name.translated" 2>"$name.log"; then
          echo "$config: translation failed: $(tail -1 "$name.log")"; continue
        fi
        start=$(date +%s.%N)
        actual=$(timeout 300 "$name.translated" 2>&1)
        status=$?
        translated=$(echo "$(date +%s.%N) - $start" | bc)
        if [ "$status" -eq 0 ] && [ "$actual" = "$expected" ]; then
          same=$((same + 1))
          slowdown=$(echo "scale=2; $translated / $original" | bc)
          slowdowns+=("$slowdown")
          echo "$config: same ($expected; ${original}s -> ${translated}s, ${slowdown}x)"
        else
          echo "$config: DIFFERENT (expected '$expected', got '$(echo "$actual" | tail -2)', status $status)"
        fi
      done
    done
  done
done
echo "csmith: $same of $total translated programs print the original's checksum ($skipped skipped)"
if [ ${#slowdowns[@]} -gt 0 ]; then
  printf '%s\n' "${slowdowns[@]}" | sort -n | awk '{a[NR]=$1} END {printf "slowdown: min %sx, median %sx, max %sx\n", a[1], a[int((NR+1)/2)], a[NR]}'
fi
[ "$same" -eq "$total" ]
