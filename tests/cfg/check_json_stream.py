#!/usr/bin/env python3
"""`hoist cfg --all --json` streams its document a function at a time (tools/hoist/
CfgCommand.cpp); before, it printed one llvm::json::Value, whose output is the canonical form:
keys sorted, two-space indent, which is also what Python's json.dumps(indent=2, sort_keys=True)
writes. For each binary, the streamed output must parse, be that canonical form byte for byte
(so identical to the whole-document output), and list as many functions as the text listing's
summary line counts.

Usage: check_json_stream.py HOIST BINARY...
"""
import json
import re
import subprocess
import sys

hoist, binaries = sys.argv[1], sys.argv[2:]
failures = 0
for binary in binaries:
    streamed = subprocess.run([hoist, "cfg", binary, "--all", "--json"], capture_output=True,
                              text=True, check=True).stdout
    try:
        document = json.loads(streamed)
    except json.JSONDecodeError as error:
        print(f"{binary}: not valid JSON: {error}")
        failures += 1
        continue
    canonical = json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if streamed != canonical:
        at = next(i for i, (a, b) in enumerate(zip(streamed + "\0", canonical + "\0")) if a != b)
        print(f"{binary}: differs from the whole-document form at byte {at}: "
              f"{streamed[max(0, at - 40):at + 40]!r}")
        failures += 1
        continue
    text = subprocess.run([hoist, "cfg", binary, "--all"], capture_output=True, text=True,
                          check=True).stdout
    listed = int(re.search(r"^(\d+) functions, ", text, re.M).group(1))
    if len(document["functions"]) != listed or listed == 0:
        print(f"{binary}: {len(document['functions'])} functions in JSON, {listed} in the text")
        failures += 1
        continue
    print(f"{binary}: {listed} functions, {len(streamed)} bytes, canonical JSON")
sys.exit(1 if failures else 0)
