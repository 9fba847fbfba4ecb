#!/usr/bin/env python3
"""Compares `hoist cfg --all --json` on stripped binaries with the compiler's truth.

Builds tests/cfg/*.c with gcc (and clang-19 when present) at -O0..-O3 and -Os, as PIE and
non-PIE, with `-g -Wa,-L -Wl,-q`; reads the truth from the unstripped copy (elf_truth.py),
runs hoist on a stripped copy, prints the figures and fails unless jump-table targets have
100% precision and recall and every true function entry is found.

usage: check_cfg.py --hoist BIN --work DIR [--compilers gcc,clang-19] [--opts O0,O2]"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import coverage  # noqa: E402
import elf_truth  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def build(cc, opt, pie, source, out):
    flags = ["-fPIE", "-pie"] if pie else ["-fno-pie", "-no-pie"]
    subprocess.run([cc, f"-{opt}", "-g", "-Wa,-L", "-Wl,-q", *flags, source, "-o", out],
                   check=True, stderr=subprocess.DEVNULL)


def hoist_cfg(hoist, binary):
    out = subprocess.run([hoist, "cfg", binary, "--all", "--json"], check=True,
                         capture_output=True, text=True, timeout=300)
    return json.loads(out.stdout)


def lift_tables(hoist, binary, cfg):
    """Lifts every function with a jump table; the IR has one switch per table and verifies
    (hoist runs the verifier on what it emits). Returns (tables, switches)."""
    functions = [f for f in cfg["functions"] if f["jump_tables"]]
    if not functions:
        return 0, 0
    args = [hoist, "lift", binary]
    for f in functions:
        args += ["--function", f["entry"]]
    out = subprocess.run(args, check=True, capture_output=True, text=True, timeout=300).stdout
    tables = len({t["jump"] for f in functions for t in f["jump_tables"]})
    switches = len(set(re.findall(r"switch i64 %[^,]+, label %jt_default_([0-9a-f]+)", out)))
    return tables, switches


def compare(truth_tables, truth_entries, cfg):
    found_tables = [frozenset(int(t, 16) for t in jt["targets"])
                    for f in cfg["functions"] for jt in f["jump_tables"]]
    found_targets = set().union(*found_tables) if found_tables else set()
    true_targets = set().union(*truth_tables.values()) if truth_tables else set()
    entries = {int(f["entry"], 16) for f in cfg["functions"]}
    # A table counts as found when some resolved jmp has exactly its targets.
    tables_found = sum(1 for t in truth_tables.values() if frozenset(t) in set(found_tables))
    return dict(
        tables=len(truth_tables), tables_found=tables_found,
        targets=len(true_targets), targets_found=len(found_targets & true_targets),
        targets_reported=len(found_targets),
        entries=len(truth_entries), entries_found=len(truth_entries & entries),
        entries_reported=len(entries),
        missed_targets=sorted(true_targets - found_targets),
        wrong_targets=sorted(found_targets - true_targets),
        missed_entries=sorted(truth_entries - entries))


def ratio(a, b):
    return 100.0 * a / b if b else 100.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hoist", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--compilers", default="gcc,clang-19")
    parser.add_argument("--opts", default="O0,O1,O2,O3,Os")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    compilers = [c for c in args.compilers.split(",") if shutil.which(c)]
    if not compilers:
        print("no compiler found; nothing to check")
        return 0
    sources = sorted(glob.glob(os.path.join(HERE, "*.c")))
    total = dict(tables=0, tables_found=0, targets=0, targets_found=0, targets_reported=0,
                 entries=0, entries_found=0, entries_reported=0, instructions=0, covered=0,
                 filler=0)
    failures = []
    binaries = 0
    print(f"{'binary':34} {'tables':>9} {'targets':>9} {'prec%':>7} {'rec%':>7} "
          f"{'entries':>9} {'rec%':>7} {'prec%':>7} {'instructions':>11}")
    for source in sources:
        stem = os.path.splitext(os.path.basename(source))[0]
        for cc in compilers:
            for opt in args.opts.split(","):
                for pie in (True, False):
                    name = f"{stem}-{cc}-{opt}-{'pie' if pie else 'nopie'}"
                    full = os.path.join(args.work, name)
                    stripped = full + ".stripped"
                    build(cc, opt, pie, source, full)
                    subprocess.run(["strip", "-o", stripped, full], check=True)
                    elf = elf_truth.Elf(full)
                    binaries += 1
                    cfg = hoist_cfg(args.hoist, stripped)
                    result = compare(elf_truth.jump_tables(elf), elf_truth.function_entries(elf),
                                     cfg)
                    emitted = coverage.emitted(elf, coverage.disassemble(full))
                    covered, filler, uncovered = coverage.check(emitted, cfg)
                    result.update(instructions=len(emitted), covered=covered, filler=filler)
                    if binaries == 1 and coverage.self_test(emitted, cfg):
                        failures.append(f"{name}: the coverage check missed a dropped block")
                    if uncovered:
                        failures.append(f"{name}: {len(uncovered)} emitted instructions in no "
                                        "block: " + " ".join(hex(a) for a in uncovered[:10]))
                    tables, switches = lift_tables(args.hoist, stripped, cfg)
                    if tables != switches:
                        failures.append(f"{name}: {tables} jump tables lifted as {switches} "
                                        "switches")
                    for key in total:
                        total[key] += result[key]
                    print(f"{name:34} {result['tables_found']:>4}/{result['tables']:<4} "
                          f"{result['targets_found']:>4}/{result['targets']:<4} "
                          f"{ratio(result['targets_found'], result['targets_reported']):7.2f} "
                          f"{ratio(result['targets_found'], result['targets']):7.2f} "
                          f"{result['entries_found']:>4}/{result['entries']:<4} "
                          f"{ratio(result['entries_found'], result['entries']):7.2f} "
                          f"{ratio(result['entries_found'], result['entries_reported']):7.2f} "
                          f"{result['covered'] + result['filler']:>5}/{result['instructions']:<5}")
                    for key in ("missed_targets", "wrong_targets", "missed_entries"):
                        if result[key]:
                            failures.append(f"{name}: {key}: "
                                            + " ".join(hex(a) for a in result[key][:10]))
                    if result["tables_found"] != result["tables"]:
                        failures.append(f"{name}: {result['tables'] - result['tables_found']} "
                                        "jump tables not matched exactly")
    print(f"total: {binaries} binaries, jump tables {total['tables_found']}/{total['tables']}, "
          f"targets {total['targets_found']}/{total['targets']} "
          f"(precision {ratio(total['targets_found'], total['targets_reported']):.2f}% "
          f"recall {ratio(total['targets_found'], total['targets']):.2f}%), "
          f"function entries {total['entries_found']}/{total['entries']} (recall {ratio(total['entries_found'], total['entries']):.2f}% "
          f"precision {ratio(total['entries_found'], total['entries_reported']):.2f}%), "
          f"emitted instructions in a block {total['covered']}/"
          f"{total['instructions'] - total['filler']} "
          f"(+{total['filler']} unreachable filler)")
    for failure in failures:
        print("FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
