#!/bin/bash
# Runs run-samples.sh (both gates on every sample) for a range of vmprotect.py seeds and
# prints one line a seed: pass, or fail with the samples that failed. The work directory of a
# failing seed is kept (WORKDIR/seedN: lift.err, driver.out, the lifted objects).
# Usage: run-seeds.sh HOIST WORKDIR FIRST LAST [RUNS]
# RUNS (random inputs per sample) goes to run-samples.sh (default 2,000, as in CI);
# docs/DEOBFUSCATE.md reports the result.
set -u
hoist=$1 work=$2 first=$3 last=$4 runs=${5:-2000}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
failed=0
for ((seed = first; seed <= last; ++seed)); do
  dir=$work/seed$seed
  if VM_SEED=$seed "$here/run-samples.sh" "$hoist" "$dir" "$runs" >"$dir.log" 2>&1; then
    echo "seed $seed: pass"
    rm -rf "$dir"
  else
    failed=$((failed + 1))
    bad=$(grep -E 'DIFFER|TOO-LARGE$|NOT BRIGHTENED|failed' "$dir.log" | cut -d: -f1 | sort -u | tr '\n' ' ')
    echo "seed $seed: FAIL ${bad:-(see $dir.log)}"
  fi
done
echo "seeds $first to $last: $((last - first + 1 - failed)) pass, $failed fail"
[ "$failed" = 0 ]
