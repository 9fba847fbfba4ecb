#!/usr/bin/env python3
"""Runs hoist-bench over every input and phase, each phase its own process, plus the
llvm-objdump baseline; prints the table (Markdown) and writes the figures as JSON.

Usage: run_bench.py --bench BIN [--smoke] [--json OUT] [--workdir DIR]
scripts/bench.sh builds hoist-bench and calls this; docs/PERFORMANCE.md explains the columns.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
OBJDUMP = "llvm-objdump-19"
WINE_DLL = "/usr/lib/x86_64-linux-gnu/wine/x86_64-windows/kernelbase.dll"
LIBC = "/lib/x86_64-linux-gnu/libc.so.6"

# Phase -> functions to lift (0: all). The optimizing phases lift a sample: at today's speed
# the whole of libc would take hours (docs/PERFORMANCE.md).
REAL_PHASES = [("zydis", 0), ("decode", 0), ("lift", 200), ("cleanup", 10), ("o2", 10),
               ("discover", 0), ("program", 0)]
SYNTHETIC_PHASES = [("zydis", 0), ("decode", 0), ("lift", 0), ("cleanup", 10), ("discover", 0),
                    ("program", 0), ("stream", 0)]
SMOKE_PHASES = [("zydis", 0), ("decode", 0), ("lift", 0), ("cleanup", 3), ("o2", 3),
                ("discover", 0), ("program", 0), ("stream", 0)]

GOALS = {
    "lift": "decode+lift >= 2M instr/s",
    "cleanup": "lift+cleanup >= 100k instr/s",
    "program": "<= 4x objdump wall; <= 1 KiB/instr",
    "stream": "us/instr flat within 20% 10k..1M; <= 1 KiB/instr",
    "zydis": "ceiling (Zydis alone)",
}


def run_child(argv, stdout_path):
    """Runs argv with its output in stdout_path, through os.wait4 so that the peak memory is
    this child's own."""
    start = time.monotonic()
    redirect = [(os.POSIX_SPAWN_OPEN, 1, stdout_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                 0o644)]
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=redirect)
    _, status, usage = os.wait4(pid, 0)
    wall = time.monotonic() - start
    return os.waitstatus_to_exitcode(status), wall, usage


RESULT_FILE = None


def bench_phase(bench, path, phase, sample):
    code, wall, _ = run_child([bench, "--phase", phase, "--sample", str(sample), path],
                              RESULT_FILE)
    if code != 0:
        raise SystemExit(f"hoist-bench failed (exit {code}) on {path}, phase {phase}")
    with open(RESULT_FILE) as result:
        figures = json.loads(result.read())
    figures["wall_seconds"] = wall
    return figures


def stream_phase(hoist, path, workdir, discovered_instructions):
    """`hoist lift --all -j 1 PATH -o DIR`: the whole program's streaming path as users run it
    (discovery, then chunks of functions lifted, each written as text IR and freed), timed as
    a process of its own; the instruction count is what discovery found (the discover phase)."""
    out_dir = os.path.join(workdir, "stream-out")
    shutil.rmtree(out_dir, ignore_errors=True)
    code, wall, usage = run_child([hoist, "lift", "--all", "-j", "1", path, "-o", out_dir],
                                  RESULT_FILE)
    if code != 0:
        raise SystemExit(f"{hoist} lift --all -j 1 {path} failed (exit {code})")
    shutil.rmtree(out_dir, ignore_errors=True)
    return {"file": path, "phase": "stream", "seconds": wall, "wall_seconds": wall,
            "cpu_seconds": usage.ru_utime + usage.ru_stime, "maxrss_kib": usage.ru_maxrss,
            "instructions": discovered_instructions, "functions": 0, "sample": 0}


def objdump_baseline(path, swept_instructions):
    listing = RESULT_FILE + ".objdump"
    code, wall, usage = run_child([OBJDUMP, "-d", path], listing)
    if code != 0:
        raise SystemExit(f"{OBJDUMP} -d {path} failed (exit {code})")
    with open(listing, "rb") as out:
        lines = sum(1 for _ in out)
    os.remove(listing)
    # llvm-objdump-19 prints next to nothing for some files (Debian's libc.so.6): then its
    # time is no baseline, and the table says so.
    complete = lines >= swept_instructions // 2
    return {"file": path, "phase": "objdump", "seconds": wall, "wall_seconds": wall,
            "cpu_seconds": usage.ru_utime + usage.ru_stime, "maxrss_kib": usage.ru_maxrss,
            "instructions": swept_instructions, "functions": 0,
            "sample": 0, "listing_lines": lines, "complete": complete}


def make_synthetic(workdir, instructions):
    source = os.path.join(workdir, f"synthetic-{instructions}.s")
    binary = os.path.join(workdir, f"synthetic-{instructions}.so")
    subprocess.run([sys.executable, os.path.join(HERE, "make_synthetic.py"), str(instructions),
                    source], check=True)
    subprocess.run(["gcc", "-shared", "-nostdlib", "-o", binary, source], check=True)
    return binary


def inputs(args):
    if args.smoke:
        return [("synthetic 2k", make_synthetic(args.workdir, 2000), SMOKE_PHASES)]
    wanted = lambda label: not args.only or label in args.only.split(",")
    chosen = [(label, path, REAL_PHASES)
              for label, path in (("bash", "/usr/bin/bash"), ("libc.so.6", LIBC)) if wanted(label)]
    if wanted("kernelbase.dll (Wine)"):
        if os.path.exists(WINE_DLL):
            chosen.append(("kernelbase.dll (Wine)", WINE_DLL, REAL_PHASES))
        else:
            print(f"skipped: {WINE_DLL} is not installed (apt-get install wine64)", file=sys.stderr)
    for size in (10_000, 100_000, 1_000_000):
        label = f"synthetic {size // 1000}k"
        if wanted(label):
            chosen.append((label, make_synthetic(args.workdir, size), SYNTHETIC_PHASES))
    return chosen


def describe(row):
    """Rates are per CPU second of the phase (wall time for objdump, a process of its own):
    on a shared machine wall time counts other processes' turns on the core too."""
    instructions = row["instructions"]
    seconds = row.get("cpu_seconds", row["seconds"])
    rate = instructions / seconds if seconds > 0 and instructions else 0
    functions = row.get("functions", 0)
    scope = ""
    if row["phase"] in ("lift", "cleanup", "o2", "program"):
        total = row.get("functions_in_program", 0)
        scope = f"{functions} of {total}" if functions < total else f"all {total}"
    elif row["phase"] == "discover":
        scope = f"{functions} found"
    return {
        "rate": f"{rate / 1000:,.1f}k" if rate else "-",
        "us": f"{seconds / instructions * 1e6:,.2f}" if instructions else "-",
        "scope": scope,
        "mem": f"{row['maxrss_kib'] / 1024:,.0f}",
        "kib": f"{row['maxrss_kib'] / instructions:,.2f}" if instructions else "-",
    }


def print_table(rows):
    print("| input | phase | functions | instructions | wall s | CPU s | instr/s (CPU) "
          "| us/instr (CPU) | peak MiB | KiB/instr | goal |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for row in rows:
        d = describe(row)
        goal = GOALS.get(row["phase"], "")
        if row["phase"] == "objdump":
            goal = "baseline (process wall time)"
            if not row["complete"]:
                goal = (f"NOT A BASELINE: printed {row['listing_lines']:,} lines for "
                        f"{row['instructions']:,} instructions")
        if row["phase"] in ("cleanup", "o2"):
            extra = (f" (lift {row['lift_cpu_seconds']:.2f} s + optimize "
                     f"{row['optimize_cpu_seconds']:.2f} s)")
        else:
            extra = ""
        cpu = f"{row['cpu_seconds']:.3f}" if "cpu_seconds" in row else "-"
        print(f"| {row['label']} | {row['phase']} | {d['scope']} | {row['instructions']:,} "
              f"| {row['seconds']:.3f} | {cpu}{extra} | {d['rate']} | {d['us']} | {d['mem']} "
              f"| {d['kib']} | {goal} |")


def check_sane(rows):
    """The smoke run's assertions: every phase ran and measured something."""
    problems = []
    for row in rows:
        if row["seconds"] <= 0 or row["maxrss_kib"] <= 0:
            problems.append(f"{row['label']} {row['phase']}: no time or memory measured")
        if row["instructions"] <= 0:
            problems.append(f"{row['label']} {row['phase']}: no instructions")
    by = {(r["label"], r["phase"]): r for r in rows}
    for label in {r["label"] for r in rows}:
        zydis, decode = by.get((label, "zydis")), by.get((label, "decode"))
        if zydis and decode and zydis["instructions"] != decode["instructions"]:
            problems.append(f"{label}: Zydis swept {zydis['instructions']} instructions, "
                            f"Hoist's decoder {decode['instructions']}")
        lift, discover = by.get((label, "lift")), by.get((label, "discover"))
        if lift and discover and lift["sample"] == 0 and lift["instructions"] != discover["instructions"]:
            problems.append(f"{label}: lifted {lift['instructions']} instructions, discovery "
                            f"found {discover['instructions']}")
    for problem in problems:
        print(f"bench smoke: {problem}", file=sys.stderr)
    return not problems


def print_summary(rows):
    by = {(r["label"], r["phase"]): r for r in rows}
    for label in sorted({r["label"] for r in rows}):
        program, objdump = by.get((label, "program")), by.get((label, "objdump"))
        if program and objdump and not objdump["complete"]:
            print(f"{label}: {OBJDUMP} -d printed {objdump['listing_lines']} lines, no baseline")
        elif program and objdump and objdump["seconds"] > 0:
            print(f"{label}: discovery+lift of the whole program / objdump -d = "
                  f"{program['seconds'] / objdump['seconds']:.1f}x wall, "
                  f"{program['cpu_seconds'] / objdump['cpu_seconds']:.1f}x CPU (goal <= 4x)")
    for phase, what in (("program", "whole-program (one module)"),
                        ("stream", "streaming (hoist lift --all -j 1)")):
        synthetic = [r for r in rows if r["label"].startswith("synthetic") and r["phase"] == phase
                     and r["instructions"]]
        if len(synthetic) > 1:
            per = [r["cpu_seconds"] / r["instructions"] * 1e6 for r in synthetic]
            print(f"synthetic {what} CPU us/instr by size: " +
                  ", ".join(f"{r['label']}: {p:.2f}" for r, p in zip(synthetic, per)) +
                  f"; largest/smallest = {per[-1] / per[0]:.2f} (goal within 1.2)")


def main():
    global RESULT_FILE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", required=True, help="the hoist-bench executable")
    parser.add_argument("--hoist", required=True, help="the hoist executable (stream phase)")
    parser.add_argument("--smoke", action="store_true", help="a few seconds, one small input")
    parser.add_argument("--json", help="write every figure here")
    parser.add_argument("--workdir", help="where synthetic inputs go (default: a temp dir)")
    parser.add_argument("--only", help="comma-separated input labels, e.g. "
                        "'bash,synthetic 10k,synthetic 100k' (default: every input)")
    args = parser.parse_args()
    if not args.workdir:
        import tempfile
        args.workdir = tempfile.mkdtemp(prefix="hoist-bench-")
    os.makedirs(args.workdir, exist_ok=True)
    RESULT_FILE = os.path.join(args.workdir, "phase.json")
    if not shutil.which(OBJDUMP):
        raise SystemExit(f"{OBJDUMP} is not installed (scripts/install-deps.sh)")

    rows = []
    for label, path, phases in inputs(args):
        for phase, sample in phases:
            if phase == "stream":
                discovered = next(r["instructions"] for r in rows
                                  if r["label"] == label and r["phase"] == "discover")
                row = stream_phase(args.hoist, path, args.workdir, discovered)
            else:
                row = bench_phase(args.bench, path, phase, sample)
            row["label"] = label
            rows.append(row)
            print(f"  {label}: {phase} {row['seconds']:.2f} s", file=sys.stderr, flush=True)
        # objdump's rate is over the instructions of the same linear sweep.
        swept = next(r["instructions"] for r in rows
                     if r["label"] == label and r["phase"] == "decode")
        row = objdump_baseline(path, swept)
        row["label"] = label
        rows.append(row)
    print_table(rows)
    print()
    print_summary(rows)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"rows": rows, "load": os.getloadavg(), "cores": os.cpu_count()}, out,
                      indent=1)
    if args.smoke and not check_sane(rows):
        sys.exit(1)
    if args.smoke:
        print("bench smoke: every phase completed with non-zero figures")


if __name__ == "__main__":
    main()
