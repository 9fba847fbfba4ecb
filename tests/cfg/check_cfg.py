#!/usr/bin/env python3
"""Compares `hoist cfg --all --json` on stripped binaries with the compiler's truth.

Builds tests/cfg/*.c with gcc (and clang-19 when present) at -O0..-O3 and -Os, as PIE and
non-PIE, with `-g -Wa,-L -Wl,-q`; reads the truth from the unstripped copy (elf_truth.py,
coverage.py), runs hoist on a stripped copy and on one without .eh_frame either, prints the
figures and fails unless jump-table targets have 100% precision and recall, every emitted
instruction is in a block, function entries are exact in the stripped copy and their F1 is at
least 99% without unwind tables.

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
import pe_truth  # noqa: E402

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
    args = [hoist, "lift", "--names", "--verify", binary]   # the switch is found by its block names
    for f in functions:
        args += ["--function", f["entry"]]
    out = subprocess.run(args, check=True, capture_output=True, text=True, timeout=300).stdout
    tables = len({t["jump"] for f in functions for t in f["jump_tables"]})
    switches = len(set(re.findall(r"switch i64 %[^,]+, label %jt_default_([0-9a-f]+)", out)))
    return tables, switches


def compare(truth_tables, truth_entries, cfg, truth_parts=None):
    found_tables = [frozenset(int(t, 16) for t in jt["targets"])
                    for f in cfg["functions"] for jt in f["jump_tables"]]
    found_targets = set().union(*found_tables) if found_tables else set()
    true_targets = set().union(*truth_tables.values()) if truth_tables else set()
    entries = {int(f["entry"], 16) for f in cfg["functions"]}
    # A table counts as found when some resolved jmp has exactly its targets.
    tables_found = sum(1 for t in truth_tables.values() if frozenset(t) in set(found_tables))
    # What the value analysis resolved must be right too: a computed jmp goes to a block of its
    # function, to a true function entry (a tail call) or to an import (by name).
    wrong_computed = sorted(
        int(target, 16) for f in cfg["functions"] for jump in f.get("computed_jumps", [])
        for target in jump["targets"] if target.startswith("0x")
        and target not in {b["start"] for b in f["blocks"]}
        and int(target, 16) not in truth_entries)
    # Parts (gcc's f.cold): found when reported under the true parent (or any, when the parent's
    # name is ambiguous); every reported part must be a true one.
    truth_parts = truth_parts or {}
    parts = {int(p["start"], 16): int(f["entry"], 16)
             for f in cfg["functions"] for p in f.get("parts", [])}
    parts_found = sorted(start for start, parent in parts.items()
                         if start in truth_parts and truth_parts[start] in (None, parent))
    return dict(
        parts=len(truth_parts), parts_found=len(parts_found), parts_reported=len(parts),
        missed_parts=sorted(set(truth_parts) - set(parts_found)),
        wrong_parts=sorted(set(parts) - set(parts_found)),
        computed=sum(len(f.get("computed_jumps", [])) for f in cfg["functions"]),
        unresolved=sum(len(f.get("unresolved_jumps", [])) for f in cfg["functions"]),
        wrong_computed=wrong_computed,
        tables=len(truth_tables), tables_found=tables_found,
        targets=len(true_targets), targets_found=len(found_targets & true_targets),
        targets_reported=len(found_targets),
        entries=len(truth_entries), entries_found=len(truth_entries & entries),
        entries_reported=len(entries),
        missed_targets=sorted(true_targets - found_targets),
        wrong_targets=sorted(found_targets - true_targets),
        missed_entries=sorted(truth_entries - entries),
        wrong_entries=sorted(entries - truth_entries))


def print_row(name, result):
    """One binary's figures, under the header main() prints."""
    row = (f"{name:40} {result['tables_found']:>4}/{result['tables']:<4} "
           f"{result['targets_found']:>4}/{result['targets']:<4} "
           f"{ratio(result['targets_found'], result['targets_reported']):7.2f} "
           f"{ratio(result['targets_found'], result['targets']):7.2f} "
           f"{result['entries_found']:>4}/{result['entries']:<4} "
           f"{ratio(result['entries_found'], result['entries']):7.2f} "
           f"{ratio(result['entries_found'], result['entries_reported']):7.2f}")
    if "instructions" in result:
        row += f" {result['covered'] + result['filler']:>5}/{result['instructions']:<5}"
    print(row)


def new_totals():
    """The counts compare() and the coverage check give, summed over binaries."""
    return dict(tables=0, tables_found=0, targets=0, targets_found=0, targets_reported=0,
                entries=0, entries_found=0, entries_reported=0, parts=0, parts_found=0,
                parts_reported=0, instructions=0, covered=0,
                filler=0, computed=0, unresolved=0)


def parts_summary(total):
    return (f"parts of functions {total['parts_found']}/{total['parts']} "
            f"(reported {total['parts_reported']})")


def indirect_summary(total):
    return (f"indirect jmps resolved by the value analysis {total['computed']}, "
            f"unresolved {total['unresolved']}")


def ratio(a, b):
    return 100.0 * a / b if b else 100.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hoist", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--compilers", default="gcc,clang-19")
    # The sanitizer build checks fewer levels (scripts/sanitize.sh, docs/ROBUSTNESS.md).
    parser.add_argument("--opts", default=os.environ.get("HOIST_CFG_TRUTH_OPTS", "O0,O1,O2,O3,Os"))
    parser.add_argument("--sources", default="*.c",
                        help="which of tests/cfg's C sources to build (a glob)")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    compilers = [c for c in args.compilers.split(",") if shutil.which(c)]
    if not compilers:
        print("no compiler found; nothing to check")
        return 0
    sources = sorted(glob.glob(os.path.join(HERE, args.sources)))
    # Hand-written assembly: gcc only assembles it, so one build per PIE setting.
    builds = [(source, cc, opt) for source in sources for cc in compilers
              for opt in args.opts.split(",")]
    builds += [(source, "gcc", "O0") for source in HAND_WRITTEN_ELF]
    totals = {variant: new_totals() for variant in VARIANTS}
    failures = []
    binaries = 0
    print(f"{'binary':40} {'tables':>9} {'targets':>9} {'prec%':>7} {'rec%':>7} "
          f"{'entries':>9} {'rec%':>7} {'prec%':>7} {'instructions':>11}")
    for source, cc, opt in builds:
        stem = os.path.splitext(os.path.basename(source))[0]
        for pie in (True, False):
            name = f"{stem}-{cc}-{opt}-{'pie' if pie else 'nopie'}"
            full = os.path.join(args.work, name)
            build(cc, opt, pie, source, full)
            elf = elf_truth.Elf(full)
            truth = (elf_truth.jump_tables(elf), elf_truth.function_entries(elf),
                     coverage.emitted(elf, coverage.disassemble(full)),
                     elf_truth.function_parts(elf))
            binaries += 1
            for variant, make in VARIANTS.items():
                copy = f"{full}.{variant}"
                make(full, copy)
                check_binary(args.hoist, f"{name} {variant}", copy, truth,
                             totals[variant], failures, variant == "stripped",
                             self_test=binaries == 1)
    for variant, total in totals.items():
        print(f"total {variant}: {binaries} binaries, jump tables "
              f"{total['tables_found']}/{total['tables']}, "
              f"targets {total['targets_found']}/{total['targets']} "
              f"(precision {ratio(total['targets_found'], total['targets_reported']):.2f}% "
              f"recall {ratio(total['targets_found'], total['targets']):.2f}%), "
              f"function entries {total['entries_found']}/{total['entries']} "
              f"(recall {ratio(total['entries_found'], total['entries']):.2f}% "
              f"precision {ratio(total['entries_found'], total['entries_reported']):.2f}% "
              f"F1 {f1(total):.2f}%), {parts_summary(total)}, "
              f"emitted instructions in a block {total['covered']}/"
              f"{total['instructions'] - total['filler']} "
              f"(+{total['filler']} unreachable filler), {indirect_summary(total)}")
    if shutil.which(MINGW):
        check_pe(args, sources, failures)
    check_index_table(args, failures)
    # The goal for function entries on stripped binaries, also without unwind tables.
    for variant, total in totals.items():
        if f1(total) < 99.0:
            failures.append(f"{variant}: function entries F1 {f1(total):.2f}% < 99%")
    for failure in failures:
        print("FAIL", failure)
    return 1 if failures else 0


MINGW = "x86_64-w64-mingw32-gcc"


def check_pe(args, sources, failures):
    """mingw builds at each level: jump tables exact, every true function entry found. The
    truth is pe_truth's (COFF symbols and the assembly); entries hoist reports beyond it are
    counted, not failed: functions written in assembly have no type in the symbol table."""
    total = new_totals()
    coverage_checked = shutil.which(pe_truth.DWARFDUMP) is not None
    binaries = 0
    for source in sources:
        stem = os.path.splitext(os.path.basename(source))[0]
        for opt in args.opts.split(","):
            name = f"{stem}-mingw-{opt}"
            full = os.path.join(args.work, name + ".exe")
            subprocess.run([MINGW, f"-{opt}", "-g", "-Wa,-L", "-save-temps", source, "-o", full],
                           check=True, cwd=args.work, stderr=subprocess.DEVNULL)
            pe = pe_truth.Pe(full)
            tables = pe_truth.jump_tables(pe, os.path.join(args.work, f"{name}-{stem}.s"))
            entries = pe_truth.function_entries(pe)
            own = pe_truth.source_functions(pe, os.path.basename(source))
            emitted = (coverage.emitted_in(pe_truth.function_ranges(full),
                                           coverage.disassemble(full))
                       if coverage_checked else [])
            if not own:
                failures.append(f"{name}: no function of {source} in the COFF symbols")
            binaries += 1
            for variant, tool_args in PE_VARIANTS.items():
                copy = f"{full}.{variant}"
                subprocess.run(["x86_64-w64-mingw32-objcopy", *tool_args, full, copy], check=True)
                cfg = hoist_cfg(args.hoist, copy)
                for f in cfg["functions"]:
                    if pe.is_import_thunk(int(f["entry"], 16)):   # see function_entries
                        f["entry"] = "0x0"
                    # The mingw runtime's tables have no truth (compiled without -Wa,-L).
                    f["jump_tables"] = [t for t in f["jump_tables"]
                                        if any(a <= int(t["jump"], 16) < b for a, b in own)]
                result = compare(tables, entries, cfg)
                result["entries_reported"] = len({f["entry"] for f in cfg["functions"]} - {"0x0"})
                covered, filler, uncovered = coverage.check(emitted, cfg)
                result.update(instructions=len(emitted), covered=covered, filler=filler)
                if uncovered:
                    failures.append(f"{name} {variant}: {len(uncovered)} emitted instructions "
                                    "in no block: " + " ".join(hex(a) for a in uncovered[:10]))
                for key in total:
                    total[key] += result[key]
                print_row(f"{name} {variant}", result)
                for key in ("missed_targets", "wrong_targets", "missed_entries",
                            "wrong_computed"):
                    if result[key]:
                        failures.append(f"{name} {variant}: {key}: "
                                        + " ".join(hex(a) for a in result[key][:10]))
                if result["tables_found"] != result["tables"]:
                    failures.append(f"{name} {variant}: jump tables not matched exactly")
    print(f"total mingw (stripped, and without .pdata/.xdata): {binaries} binaries x 2, "
          f"jump tables {total['tables_found']}/{total['tables']}, "
          f"targets {total['targets_found']}/{total['targets']} "
          f"(precision {ratio(total['targets_found'], total['targets_reported']):.2f}% "
          f"recall {ratio(total['targets_found'], total['targets']):.2f}%), "
          f"function entries {total['entries_found']}/{total['entries']} "
          f"(recall {ratio(total['entries_found'], total['entries']):.2f}%, "
          f"{total['entries_reported'] - total['entries_found']} reported beyond the truth), "
          + (f"emitted instructions in a block {total['covered']}/"
             f"{total['instructions'] - total['filler']} (+{total['filler']} unreachable filler)"
             if coverage_checked else f"coverage not checked: no {pe_truth.DWARFDUMP}")
          + f", {indirect_summary(total)}")


PE_VARIANTS = {"stripped": ["--strip-all"],
               "no-pdata": ["--strip-all", "--remove-section", ".pdata",
                            "--remove-section", ".xdata"]}


INDEX_TABLE = os.path.join(HERE, "index_table.s")
# ELF assembly whose truth is read like a compiler's (symbols and `.rela.rodata`).
HAND_WRITTEN_ELF = [os.path.join(HERE, name)
                    for name in ("loop_head.s", "layout_tail_calls.s", "pointer_after_call.s",
                                 "dead_after_exit_call.s", "saved_base.s")]
INDEX_BYTES = [0, 1, 0, 2, 1, 2]   # index_table.s's `indexed_bytes`


def check_index_table(args, failures):
    """index_table.s (a jump table behind a byte index table) built as an ELF PIE, an ELF
    non-PIE and a mingw PE: `hoist cfg` must resolve the jmp at `indexed_jmp` to the three
    cases, and the lifted switch must send index i to case indexed_bytes[i]."""
    builds = [("elf-pie", ["gcc", "-pie", "-fPIE"], "strip", lambda p: elf_truth.Elf(p).symbols()),
              ("elf-nopie", ["gcc", "-no-pie"], "strip", lambda p: elf_truth.Elf(p).symbols())]
    if shutil.which(MINGW):
        builds.append(("pe", [MINGW], "x86_64-w64-mingw32-strip",
                       lambda p: ({"name": n, "value": a} for n, a, _, _ in
                                  pe_truth.Pe(p).symbols())))
    for kind, compiler, strip_tool, symbols in builds:
        full = os.path.join(args.work, f"index_table-{kind}" + (".exe" if kind == "pe" else ""))
        extra = ["-Wa,--noexecstack"] if kind.startswith("elf") else []
        subprocess.run([*compiler, *extra, INDEX_TABLE, "-o", full], check=True)
        stripped = full + ".stripped"
        subprocess.run([strip_tool, "-o", stripped, full], check=True)
        names = {sym["name"]: sym["value"] for sym in symbols(full)}
        jump = names["indexed_jmp"]
        cases = [names[f"indexed_case{i}"] for i in range(3)]
        cfg = hoist_cfg(args.hoist, stripped)
        tables = [t for f in cfg["functions"] for t in f["jump_tables"]
                  if int(t["jump"], 16) == jump]
        if not tables or [int(t, 16) for t in tables[0]["targets"]] != cases:
            failures.append(f"index_table {kind}: jmp at {jump:#x} not resolved to "
                            + " ".join(hex(c) for c in cases))
            continue
        out = subprocess.run([args.hoist, "lift", "--names", "--verify", stripped,
                              "--function", hex(names["indexed"])],
                             check=True, capture_output=True, text=True).stdout
        found = {int(i): int(t, 16) for i, t in
                 re.findall(r"i64 (\d+), label %(?:bb|jt_[0-9a-f]+)_([0-9a-f]+)", out)}
        expected = {i: cases[b] for i, b in enumerate(INDEX_BYTES)}
        if found != expected:
            failures.append(f"index_table {kind}: switch cases {found} != {expected}")
        print(f"index_table {kind}: jmp {jump:#x} -> {len(expected)} indices, 3 cases: "
              f"{'ok' if found == expected else 'WRONG'}")


def strip(full, copy):
    subprocess.run(["strip", "-o", copy, full], check=True)


def strip_unwind_tables(full, copy):
    subprocess.run(["objcopy", "--strip-all", "--remove-section", ".eh_frame",
                    "--remove-section", ".eh_frame_hdr", full, copy], check=True)


# The stripped copy hoist reads: symbols removed, and also the unwinding tables (.eh_frame),
# which leaves function starts to code pointers in data, code references and gaps.
VARIANTS = {"stripped": strip, "no-eh-frame": strip_unwind_tables}


def f1(total):
    recall = ratio(total["entries_found"], total["entries"])
    precision = ratio(total["entries_found"], total["entries_reported"])
    return 2 * recall * precision / (recall + precision) if recall + precision else 0.0


def check_binary(hoist, name, binary, truth, total, failures, exact_entries, self_test,
                 lift=True):
    """Compares one stripped copy with the truth; adds to `total`, appends to `failures`.
    Jump tables and coverage must be exact in every copy; function entries must be exact when
    `exact_entries` (the F1 goal is checked on the totals), and then, with `lift`, every jump
    table must be lifted as a switch."""
    true_tables, true_entries, emitted, true_parts = truth
    cfg = hoist_cfg(hoist, binary)
    result = compare(true_tables, true_entries, cfg, true_parts)
    covered, filler, uncovered = coverage.check(emitted, cfg)
    result.update(instructions=len(emitted), covered=covered, filler=filler)
    if self_test and coverage.self_test(emitted, cfg):
        failures.append(f"{name}: the coverage check missed a dropped block")
    if uncovered:
        failures.append(f"{name}: {len(uncovered)} emitted instructions in no block: "
                        + " ".join(hex(a) for a in uncovered[:10]))
    if exact_entries and lift:
        tables, switches = lift_tables(hoist, binary, cfg)
        if tables != switches:
            failures.append(f"{name}: {tables} jump tables lifted as {switches} switches")
    for key in total:
        total[key] += result[key]
    print_row(name, result)
    keys = ["missed_targets", "wrong_targets", "wrong_computed", "wrong_parts"]
    if exact_entries:
        keys += ["missed_entries", "wrong_entries", "missed_parts"]
    for key in keys:
        if result[key]:
            failures.append(f"{name}: {key}: " + " ".join(hex(a) for a in result[key][:10]))
    if result["tables_found"] != result["tables"]:
        failures.append(f"{name}: {result['tables'] - result['tables_found']} "
                        "jump tables not matched exactly")


if __name__ == "__main__":
    sys.exit(main())
