#!/bin/bash
# Prints the per-function ratio table of docs/DEOBFUSCATE.md from a run-corpus.sh work
# directory: for each corpus function and level, the unprotected lift's IR instruction count
# and the ratio of each protection's deobfuscated lift to it (bold above 1.5).
# Usage: ratio-table.sh WORKDIR [LEVEL ...]   (default: the levels the directory has)
set -u
work=$1
shift
levels=("$@")
if [ ${#levels[@]} -eq 0 ]; then
  for file in "$work"/all-*.ratios; do
    level=${file##*/all-}
    levels+=("${level%.ratios}")
  done
fi
modes="substitute mba bogus flatten all"
header="| function |" rule="|---|"
for level in "${levels[@]}"; do
  header+=" -$level unprotected |"
  rule+="---|"
  for mode in $modes; do header+=" $mode |"; rule+="---|"; done
done
echo "$header"
echo "$rule"
for level in "${levels[@]}"; do
  for mode in $modes; do
    # "level mode function count reference ratio" for each function line
    awk -v level="$level" -v mode="$mode" 'NF >= 5 && $3 != "functions:" { print level, mode, $2, $3, $4, $5 }' \
      "$work/$mode-$level.ratios"
  done
done | awk -v levels="${levels[*]}" -v modes="$modes" '
  { ratio[$1, $2, $3] = $6; reference[$1, $3] = $5; if (!($3 in seen)) { seen[$3] = 1; names[++n] = $3 } }
  END {
    nl = split(levels, level, " "); nm = split(modes, mode, " ")
    for (i = 1; i <= n; i++) {
      line = "| " names[i] " |"
      for (l = 1; l <= nl; l++) {
        line = line " " reference[level[l], names[i]] " |"
        for (m = 1; m <= nm; m++) {
          r = ratio[level[l], mode[m], names[i]]
          line = line " " (r == "" ? "-" : (r > 1.5 ? "**" r "**" : r)) " |"
        }
      }
      print line
    }
  }'
