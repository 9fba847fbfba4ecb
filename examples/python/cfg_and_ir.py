#!/usr/bin/env python3
"""Prints a function's control flow as discovery recovers it, then its brightened IR.

    PYTHONPATH=build/python examples/python/cfg_and_ir.py build/examples/example.elf add3

The function is a symbol name or a 0x address; without one, main (else the entry point)."""
import sys

import hoist


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    function = sys.argv[2] if len(sys.argv) == 3 else None
    try:
        binary = hoist.load(sys.argv[1])
        cfg = binary.cfg(functions=function)
        lifted = binary.lift(function, opt=2, brighten=True)
    except hoist.Error as error:
        sys.exit(f"cfg_and_ir: {error}")
    for found in cfg.functions:
        print(f"; function {found.name or '-'} at {found.entry:#x} ({', '.join(found.reasons)})")
        for block in found.blocks:
            successors = " ".join(f"{s:#x}" for s in block.successors) or "-"
            print(f";   block {block.start:#x}-{block.end:#x} -> {successors}")
        for call in found.calls:
            print(f";   call at {call.at:#x} to {call.import_ or hex(call.target or 0)}")
    print(lifted.ir, end="")
    for diagnostic in lifted.diagnostics:
        print(f"{diagnostic['severity']}: {diagnostic['message']}", file=sys.stderr)


if __name__ == "__main__":
    main()
