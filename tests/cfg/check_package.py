#!/usr/bin/env python3
"""The cfg_truth figures for binaries built elsewhere with `-g -Wa,-L -Wl,-q` (a Debian package
rebuilt from source: tests/cfg/build_coreutils.sh). Not run in CI.

usage: check_package.py --hoist BIN --work DIR BINARY...
Prints one row per binary and copy (stripped; stripped without .eh_frame) and the totals; exits
1 when any check_cfg.py check fails. Lifting is not checked here (`hoist cfg` only)."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_cfg  # noqa: E402
import coverage  # noqa: E402
import elf_truth  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hoist", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("binaries", nargs="+")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    totals = {variant: check_cfg.new_totals() for variant in check_cfg.VARIANTS}
    failures = []
    for binary in args.binaries:
        elf = elf_truth.Elf(binary)
        truth = (elf_truth.jump_tables(elf), elf_truth.function_entries(elf),
                 coverage.emitted(elf, coverage.disassemble(binary)),
                 elf_truth.function_parts(elf))
        name = os.path.basename(binary)
        for variant, make in check_cfg.VARIANTS.items():
            copy = os.path.join(args.work, f"{name}.{variant}")
            make(binary, copy)
            check_cfg.check_binary(args.hoist, f"{name} {variant}", copy, truth,
                                   totals[variant], failures, variant == "stripped",
                                   self_test=False, lift=False)
    for variant, total in totals.items():
        print(f"total {variant}: {len(args.binaries)} binaries, jump tables "
              f"{total['tables_found']}/{total['tables']}, targets "
              f"{total['targets_found']}/{total['targets']} (precision "
              f"{check_cfg.ratio(total['targets_found'], total['targets_reported']):.2f}%), "
              f"function entries {total['entries_found']}/{total['entries']} (reported "
              f"{total['entries_reported']}, F1 {check_cfg.f1(total):.2f}%), "
              f"{check_cfg.parts_summary(total)}, emitted "
              f"instructions in a block {total['covered']}/"
              f"{total['instructions'] - total['filler']}, {check_cfg.indirect_summary(total)}")
    for failure in failures:
        print("FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
