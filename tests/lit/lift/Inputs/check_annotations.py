"""Checks `hoist lift --annotate` at -O0 against objdump: each lifted function lists every
instruction of its symbol's extent, and nothing else. Usage: check_annotations.py BINARY IR"""
import re
import subprocess
import sys

binary, ir = sys.argv[1], sys.argv[2]
extents = {}
for line in subprocess.run(["nm", "-S", binary], capture_output=True, text=True, check=True).stdout.splitlines():
    fields = line.split()
    if len(fields) == 4 and fields[2] in "tT":
        extents[int(fields[0], 16)] = (int(fields[1], 16), fields[3])

text = open(ir).read()
parts = re.split(r"^; lifted from 0x([0-9a-f]+)\n", text, flags=re.M)
failures = 0
for i in range(1, len(parts), 2):
    entry = int(parts[i], 16)
    body = parts[i + 1].split("\n}\n")[0]
    listed = {int(a, 16) for a in re.findall(r"^  ; 0x([0-9a-f]+): ", body, re.M)}
    size, name = extents[entry]
    dump = subprocess.run(["objdump", "-d", "--no-show-raw-insn", f"--start-address={entry}",
                           f"--stop-address={entry + size}", binary],
                          capture_output=True, text=True, check=True).stdout
    expected = {int(a, 16) for a in re.findall(r"^\s+([0-9a-f]+):\s", dump, re.M)}
    if listed != expected:
        failures += 1
        print(f"{name}: missing {sorted(map(hex, expected - listed))}, "
              f"not in the function {sorted(map(hex, listed - expected))}")
    else:
        print(f"{name}: {len(expected)} instructions listed")
sys.exit(1 if failures else 0)
