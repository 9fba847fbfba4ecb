#!/usr/bin/env bash
# Random C programs from csmith, compiled by every compiler given at each level, PIE and not,
# then brightened whole and recompiled (scripts/brighten-program.sh): the recompiled program
# must print the original's checksum. A program with a declined function is counted apart
# (declined, with the first reason); a different checksum, a crash or a hang of the recompiled
# program is a failure: brightening that is wrong without a warning.
#
# Usage: scripts/brighten-csmith.sh [-s "SEEDS"] [-n COUNT] [-c "COMPILERS"] [-l "LEVELS"]
#                                   [-p "PIES"] [-f "CFLAGS"] HOIST WORKDIR
#   seeds: COUNT random ones (default 2), new on every run and printed, unless -s names them;
#   defaults: compilers "gcc clang-19", levels "-O0 -O1 -O2 -O3", pies "-pie -no-pie".
# A seed whose program runs over 10 s (gcc -O1) is skipped, as is a configuration that does.
# Exits 1 if any recompiled program differs, 0 otherwise.
set -uo pipefail
seeds="" count=2 compilers="gcc clang-19" levels="-O0 -O1 -O2 -O3" pies="-pie -no-pie" cflags=""
while getopts "s:n:c:l:p:f:" option; do
  case $option in
  s) seeds=$OPTARG ;; n) count=$OPTARG ;; c) compilers=$OPTARG ;; l) levels=$OPTARG ;;
  p) pies=$OPTARG ;; f) cflags=$OPTARG ;;
  *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
hoist=$(readlink -f "$1") work=$2
scripts=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
work=$(realpath "$work")
drawn=false
if [ -z "$seeds" ]; then
  # Up to twice as many as asked, for those that loop long and are skipped.
  drawn=true
  for _ in $(seq $((count * 2))); do seeds="$seeds $(( (RANDOM << 15 | RANDOM) + 1 ))"; done
fi
echo "brighten-csmith: seeds$seeds$([ "$drawn" = true ] && echo " (the first $count that run)")"
same=0 declined=0 different=0 skipped=0
usable=0 ran=""
for seed in $seeds; do
  [ "$drawn" = true ] && [ "$usable" -ge "$count" ] && break
  source="$work/seed$seed.c"
  # csmith writes platform.info into its working directory: keep it in the work directory.
  [ -f "$source" ] || (cd "$work" && csmith --seed "$seed" -o "$source" >/dev/null) || exit 1
  # csmith programs may loop long: one that runs over 10 s built by gcc -O1 is skipped whole.
  gcc -O1 -w -I/usr/include/csmith -o "$work/seed$seed-probe" "$source" || exit 1
  if ! timeout 10 "$work/seed$seed-probe" >/dev/null; then
    echo "seed $seed: skipped (runs over 10 s, or fails, built by gcc -O1)"
    skipped=$((skipped + 1)); continue
  fi
  usable=$((usable + 1)) ran="$ran $seed"
  for compiler in $compilers; do
    command -v "$compiler" >/dev/null || { echo "no $compiler: skipped"; continue; }
    for level in $levels; do
      for pie in $pies; do
        name="$work/seed$seed-$compiler$level$pie"
        config="seed $seed $compiler $level $pie $cflags"
        # Code generation to match: clang before 15 defaults to code that is not PIE.
        codegen=-fPIE; [ "$pie" = -no-pie ] && codegen=-fno-PIE
        "$compiler" $level $codegen $pie $cflags -w -I/usr/include/csmith -o "$name" "$source" ||
          exit 1
        expected=$(timeout 10 "$name")
        if [ $? -eq 124 ]; then
          echo "$config: skipped (runs over 10 s)"; skipped=$((skipped + 1)); continue
        fi
        lifted=$("$scripts/brighten-program.sh" "$hoist" "$name" "$name.bright" 2>&1)
        case $? in
        0) ;;
        3) echo "$config: declined: $(echo "$lifted" | head -3 | tr '\n' ' ')"
           declined=$((declined + 1)); continue ;;
        *) echo "$config: FAILED to brighten or link: $lifted"; different=$((different + 1))
           continue ;;
        esac
        actual=$(timeout 60 "$name.bright" 2>&1)
        status=$?
        if [ "$status" -eq 0 ] && [ "$actual" = "$expected" ]; then
          same=$((same + 1))
          echo "$config: same ($expected; $(echo "$lifted" | head -1))"
        else
          different=$((different + 1))
          echo "$config: DIFFERENT (expected '$expected', got '$(echo "$actual" | tail -1)'," \
            "status $status)"
        fi
      done
    done
  done
done
echo "brighten-csmith: $same same, $declined declined, $different different, $skipped skipped" \
  "(seeds run:$ran)"
[ "$different" -eq 0 ]
