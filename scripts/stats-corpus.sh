#!/usr/bin/env bash
# Semantics coverage over the corpus of issue 4: every file of /usr/bin and /usr/sbin (ELF;
# scripts are skipped) and every PE file of Debian's Wine package (libwine, under
# /usr/lib/x86_64-linux-gnu/wine/x86_64-windows). Writes OUT_DIR/{elf,wine}.json and prints
# the totals with the share of reached instructions that have semantics, with and without
# AVX-512 (out of scope, docs/SIMD_FP.md), and the mnemonics that remain.
#
# usage: scripts/stats-corpus.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
build=${1:-build}
out=${2:-stats-corpus}
hoist="$build/tools/hoist/hoist"
wine=/usr/lib/x86_64-linux-gnu/wine/x86_64-windows
mkdir -p "$out"

find /usr/bin /usr/sbin -maxdepth 1 -type f -print0 | xargs -0 "$hoist" stats --json \
  > "$out/elf.json" 2> "$out/elf.err" || true
if [ -d "$wine" ]; then
  find "$wine" -maxdepth 1 -type f -print0 | xargs -0 "$hoist" stats --json \
    > "$out/wine.json" 2> "$out/wine.err" || true
else
  echo "hoist: $wine is missing (apt-get install libwine); PE part skipped" >&2
fi

python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
for name in ("elf", "wine"):
    path = os.path.join(out, name + ".json")
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        continue
    total = json.load(open(path))["total"]
    n, without = total["instructions"], total["without_semantics"]
    avx512 = total["avx512_without_semantics"]
    print(f"{name}: {total['files_read']} files read, {total['files_skipped']} skipped")
    print(f"  reached instructions     {n:>12,}")
    print(f"  without semantics        {without:>12,}  ({100.0 * (n - without) / n:.4f}% with)")
    print(f"    of them AVX-512        {avx512:>12,}  ({100.0 * (n - without) / (n - avx512):.4f}% with, AVX-512 excluded)")
    print(f"    of them general-purpose{total['general_purpose_without_semantics']:>12,}")
    rest = total["unsupported_outside_avx512"]
    print("  without semantics, AVX-512 left out: " +
          ", ".join(f"{u['mnemonic']} {u['count']}" for u in rest[:60]))
PY
