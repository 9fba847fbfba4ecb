#!/usr/bin/env python3
"""Brightening coverage on whole binaries (docs/BRIGHTEN.md, "Debian's binaries").

For each binary: `hoist lift BIN --all --brighten -O1 --diagnostics`, then the functions
lifted, how many were brightened (lifted minus declined: brightening tries every lifted
function and warns for each it declines) and the declines grouped by reason, a decline for
calling a declined function counted apart from the reasons that start such chains. With
--check, the lift runs the differential check (`--brighten-check`) too, and each binary's
line says how many brightened functions it ran, found the same, could not judge, and
declined for differing.

Usage: brighten-coverage.py HOIST BINARY... [--reasons N] [--markdown] [--check]
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

DEFAULT_BINARIES = [
    "/usr/bin/bzip2", "/usr/bin/gzip", "/usr/bin/sed", "/usr/bin/grep", "/usr/bin/ls",
    "/lib/x86_64-linux-gnu/libz.so.1", "/lib/x86_64-linux-gnu/libbz2.so.1.0",
    "/lib/x86_64-linux-gnu/liblzma.so.5",
]


def reason_of(message):
    """The decline's reason with addresses and function names made generic."""
    reason = re.sub(r"^.*?not brightened \(\w+\): ", "", message)
    reason = re.sub(r"0x[0-9a-f]+", "0x…", reason)
    reason = re.sub(r"\bfn_[0-9a-f]+\b", "fn_…", reason)
    reason = re.sub(r"import\.([\w@.]+)", r"import.\1", reason)
    return reason


CHECK_SUMMARY = re.compile(r"brighten-check: (\d+) brightened functions .*: (\d+) same, "
                           r"(\d+) without a verdict, (\d+) different")


def measure(hoist, binary, check=False):
    with tempfile.TemporaryDirectory() as work:
        report = os.path.join(work, "diagnostics.json")
        subprocess.run([hoist, "lift", binary, "--all", "--brighten", "-O1", "--diagnostics",
                        report, "-o", os.devnull] + (["--brighten-check"] if check else []),
                       stderr=subprocess.DEVNULL, check=True)
        with open(report) as file:
            data = json.load(file)
    functions = data["lift_stats"]["functions"]
    declines = [d for d in data["diagnostics"] if d.get("code") == "brighten-declined"]
    chained = sum(1 for d in declines if "which is not brightened" in d["message"])
    reasons = collections.Counter(reason_of(d["message"]) for d in declines
                                  if "which is not brightened" not in d["message"])
    summary = next((CHECK_SUMMARY.search(d["message"]) for d in data["diagnostics"]
                    if d.get("code") == "brighten-check"), None)
    return {"binary": binary, "functions": functions, "declined": len(declines),
            "brightened": functions - len(declines), "chained": chained, "reasons": reasons,
            "check": tuple(int(n) for n in summary.groups()) if summary else None}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("hoist")
    parser.add_argument("binaries", nargs="*", default=DEFAULT_BINARIES)
    parser.add_argument("--reasons", type=int, default=8, help="reasons listed per binary")
    parser.add_argument("--markdown", action="store_true", help="one table row per binary")
    parser.add_argument("--check", action="store_true", help="run --brighten-check too")
    args = parser.parse_args()
    if args.markdown:
        print("| binary | functions | brightened | declined: calls a declined function | "
              "declined: other reasons |")
        print("|---|---:|---:|---:|---:|")
    for binary in args.binaries:
        result = measure(args.hoist, binary, args.check)
        share = 100.0 * result["brightened"] / max(result["functions"], 1)
        if args.markdown:
            print(f"| {os.path.basename(binary)} | {result['functions']} | "
                  f"{result['brightened']} ({share:.0f}%) | {result['chained']} | "
                  f"{result['declined'] - result['chained']} |")
            continue
        print(f"{binary}: {result['brightened']} of {result['functions']} brightened "
              f"({share:.1f}%), {result['chained']} declined for calling a declined function")
        if result["check"]:
            ran, same, unjudged, different = result["check"]
            print(f"  check: {ran} run, {same} same, {unjudged} without a verdict, "
                  f"{different} different (declined)")
        for reason, count in result["reasons"].most_common(args.reasons):
            print(f"  {count:4} {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
