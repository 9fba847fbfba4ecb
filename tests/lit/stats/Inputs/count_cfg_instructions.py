"""Checks that `hoist stats --json` counts the instructions `hoist cfg --all --json` finds: the
instructions `llvm-objdump -d` decodes at addresses inside a block of one of its functions,
each once, and one entry per function.

usage: count_cfg_instructions.py STATS.json CFG.json OBJDUMP.txt
"""
import bisect
import json
import re
import sys


def main():
    with open(sys.argv[1]) as f:
        stats = json.load(f)["files"][0]
    with open(sys.argv[2]) as f:
        functions = json.load(f)["functions"]
    blocks = sorted((int(b["start"], 16), int(b["end"], 16))
                    for function in functions for b in function["blocks"])
    starts = [start for start, _ in blocks]
    # objdump prints each instruction as "  401136:\tpush ..." (addresses in hex).
    with open(sys.argv[3]) as f:
        addresses = {int(m.group(1), 16) for m in re.finditer(r"^\s*([0-9a-f]+):\s", f.read(), re.M)}

    def in_a_block(address):
        i = bisect.bisect_right(starts, address)
        # Blocks of several functions may start at the same address; any that covers it counts.
        return any(start <= address < end for start, end in blocks[max(0, i - 4):i])

    expected = sum(1 for address in addresses if in_a_block(address))
    assert stats["entries"] == len(functions), (stats["entries"], len(functions))
    assert stats["instructions"] == expected, (stats["instructions"], expected)
    print(f"count_cfg_instructions: {len(functions)} functions, {expected} instructions agree")


if __name__ == "__main__":
    main()
