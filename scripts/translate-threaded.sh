#!/usr/bin/env bash
# Translates Debian's multi-threaded programs (from /usr/bin: xz, zstd, sort, and pigz when
# installed) without --allow-unsupported and runs each workload with the original and with the
# translation, comparing stdout (bytes, through md5sum where it is compressed data), stderr and
# the exit status. The input: 4 MB of text (`seq`) and 1 MB of this machine's /usr/bin/bash,
# the same for both. Prints one line per workload and a summary; the translations stay in
# WORKDIR/translated.
# Usage: scripts/translate-threaded.sh HOIST WORKDIR [PROGRAM...]   (default: all listed below)
set -uo pipefail
hoist=$(readlink -f "$1") work=$2
shift 2
mkdir -p "$work/original" "$work/translated" "$work/data"
work=$(cd "$work" && pwd)
data=$work/data
seq 1 600000 > "$data/text"
head -c 1000000 /usr/bin/bash > "$data/binary"
cat "$data/text" "$data/binary" > "$data/input"
shuf --random-source=<(yes) "$data/text" > "$data/shuffled"

declare -A workloads
workloads[xz]="xz -T2 -c $data/input | md5sum
xz -T2 -c $data/input | xz -T2 -dc | md5sum
xz -T2 -6 -c $data/text | xz -dc -T2 | cmp - $data/text && echo same
xz -T2 --block-size=100000 -c $data/input | xz -T2 -dc | md5sum"
workloads[zstd]="zstd -T2 -q -c $data/input | md5sum
zstd -T2 -q -c $data/input | zstd -T2 -q -dc | md5sum
zstd -T2 -q -19 -c $data/text | zstd -q -dc | cmp - $data/text && echo same
zstd -T2 -q --long -c $data/input | zstd -q --long -dc | md5sum"
workloads[sort]="sort --parallel=2 -S 1M $data/shuffled | md5sum
sort --parallel=2 -n -S 1M $data/shuffled | md5sum
sort --parallel=4 -r $data/shuffled | md5sum"
workloads[pigz]="pigz -p 2 -c $data/input | md5sum
pigz -p 2 -c $data/input | pigz -p 2 -dc | md5sum"

programs=("$@")
[ ${#programs[@]} -eq 0 ] && programs=(xz zstd sort pigz)
same=0 total=0
for program in "${programs[@]}"; do
  original=$(command -v "$program") || { echo "$program: not installed"; continue; }
  cp "$original" "$work/original/$program"
  start=$(date +%s)
  if ! "$hoist" translate "$original" -o "$work/translated/$program" -q 2> "$work/$program.translate.log"; then
    echo "$program: refused or failed: $(tr '\n' ' ' < "$work/$program.translate.log")"
    continue
  fi
  echo "$program: translated in $(( $(date +%s) - start )) s"
  while IFS= read -r workload; do
    total=$((total + 1))
    for side in original translated; do
      (cd "$work" && PATH=$work/$side:$PATH timeout 120 bash -c "$workload" > "$work/$side.out" 2> "$work/$side.err"
       echo "status ${PIPESTATUS[*]}" >> "$work/$side.out")
    done
    if cmp -s "$work/original.out" "$work/translated.out" && cmp -s "$work/original.err" "$work/translated.err"; then
      same=$((same + 1)); echo "  same: $workload"
    else
      echo "  DIFFERENT: $workload"; diff "$work/original.out" "$work/translated.out" | head -5
    fi
  done <<< "${workloads[$program]}"
done
echo "$same of $total workloads the same"
