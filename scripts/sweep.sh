#!/usr/bin/env bash
# The whole-corpus robustness sweep of issue 9: `hoist lift BIN --all -o /dev/null
# --diagnostics` and `hoist cfg BIN --all --json` on every ELF file of /usr/bin and /usr/sbin
# and every PE file of Debian's Wine package (libwine), each run under a timeout and an
# address-space limit. Reports per binary and in total: crashes (signal exits), hangs
# (--timeout seconds of CPU spent, or ten times that in wall-clock time), out-of-memory (the limit hit), verifier failures ("fails the LLVM verifier"),
# budget exhaustions (budget-exhausted diagnostics) and lift-failed diagnostics, as JSON and a
# table. Exits 1 when any crash, hang, out-of-memory or verifier failure was seen.
#
# usage: scripts/sweep.sh [--build-dir DIR] [--sample N] [--max-size BYTES] [--jobs N]
#                         [--timeout SECONDS] [--memory MIB] [--opt -O0] [--json FILE]
#                         [--min-size BYTES] [--corpus elf|pe|all] [--no-cfg]
#                         [--hoist-timeout SECONDS] [--cfg-text] [--resume LOG] [--part K/N]
#   --sample N      N files chosen by the SHA-1 of their path (fixed: the same N on the same
#                   machine every time), after --max-size filtering; 0 (default) takes all.
#   --max-size B    skip files larger than B bytes (default: no limit); --min-size B skips
#                   smaller ones, so the corpus can be swept in size bands.
#   --memory MIB    address-space limit of each run (RLIMIT_AS); 0 sets none, for a hoist built
#                   with AddressSanitizer, whose shadow memory reserves terabytes of address
#                   space up front: the timeout then bounds the run. A sanitizer report counts
#                   as a crash (ASan's own out-of-memory report as out of memory).
#   --hoist-timeout S  pass --timeout S to hoist lift and cfg: a file too big to finish in S
#                   seconds ends with its partial result and a budget-exhausted diagnostic (a
#                   budget exhaustion, not a hang). The sweep's --timeout then catches real
#                   hangs; it must exceed the watchdog's 2 S + 10 s. A run the watchdog ends
#                   (exit 3) is a hang if it spent that long in CPU time, else "starved": the
#                   watchdog counts wall-clock time, which a loaded machine stretches.
#   --cfg-text      list the CFG as text (`hoist cfg BIN --all`), not --json: saves the JSON's
#                   formatting time on the biggest files (cfg --json streams its document, so
#                   its memory is that of the text listing; docs/ROBUSTNESS.md).
#   --resume LOG    skip the files a stopped sweep already reported (the per-file lines of its
#                   stdout, saved in LOG); --part K/N sweeps every Nth file from the Kth, so that
#                   N single-job sweeps share a band (their tables add up).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec python3 - "$here/.." "$@" <<'PY'
import argparse, hashlib, json, os, re, resource, signal, subprocess, sys, tempfile, time
from concurrent.futures import ThreadPoolExecutor

root = sys.argv[1]
parser = argparse.ArgumentParser(prog="scripts/sweep.sh")
parser.add_argument("--build-dir", default=os.environ.get("HOIST_BUILD_DIR",
                                                          os.path.join(root, "build")))
parser.add_argument("--sample", type=int, default=0)
parser.add_argument("--max-size", type=int, default=0)
parser.add_argument("--min-size", type=int, default=0)
parser.add_argument("--jobs", type=int, default=1)
parser.add_argument("--timeout", type=float, default=300.0)
parser.add_argument("--memory", type=int, default=8192,
                    help="address-space limit in MiB (0: none, for ASan builds)")
parser.add_argument("--opt", default="-O0")
parser.add_argument("--json", default=None)
parser.add_argument("--corpus", choices=("elf", "pe", "all"), default="all")
parser.add_argument("--no-cfg", action="store_true")
parser.add_argument("--hoist-timeout", type=float, default=0.0)
parser.add_argument("--cfg-text", action="store_true")
parser.add_argument("--resume", default=None)
parser.add_argument("--part", default="1/1")
args = parser.parse_args(sys.argv[2:])
hoist = os.path.join(args.build_dir, "tools", "hoist", "hoist")
if not os.access(hoist, os.X_OK):
    sys.exit(f"sweep: {hoist} is not built")
if args.hoist_timeout and args.timeout <= 2 * args.hoist_timeout + 10:
    sys.exit("sweep: --timeout must exceed 2 * --hoist-timeout + 10 s (hoist's watchdog)")
budget = ["--timeout", f"{args.hoist_timeout:g}"] if args.hoist_timeout else []

WINE = "/usr/lib/x86_64-linux-gnu/wine/x86_64-windows"
WALL_FACTOR = 10   # wall-clock limit of a run: this many times --timeout

def kind_of(path):
    """'elf', 'pe' or None (scripts, data, 32-bit PE and the like are skipped by hoist anyway)."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return None
    if head[:4] == b"\x7fELF":
        return "elf"
    if head[:2] == b"MZ" and len(head) >= 0x40:
        pe = int.from_bytes(head[0x3C:0x40], "little")
        if pe + 4 <= len(head) and head[pe:pe + 4] == b"PE\0\0":
            return "pe"
    return None

def corpus():
    dirs = []
    if args.corpus in ("elf", "all"):
        dirs += [("/usr/bin", "elf"), ("/usr/sbin", "elf")]
    if args.corpus in ("pe", "all"):
        if os.path.isdir(WINE):
            dirs.append((WINE, "pe"))
        else:
            print(f"sweep: {WINE} is missing (apt-get install libwine); PE part skipped",
                  file=sys.stderr)
    files = []
    for directory, want in dirs:
        for name in sorted(os.listdir(directory)):
            path = os.path.join(directory, name)
            if os.path.islink(path) or not os.path.isfile(path):
                continue   # a link names a file already in the list, or one elsewhere
            size = os.path.getsize(path)
            if (args.max_size and size > args.max_size) or size < args.min_size:
                continue
            if kind_of(path) == want:
                files.append(path)
    if args.sample:
        files.sort(key=lambda p: hashlib.sha1(p.encode()).hexdigest())
        files = sorted(files[:args.sample])
    if args.resume:
        with open(args.resume) as log:
            done = {line.split()[-1] for line in log if line.strip()}
        files = [f for f in files if f not in done]
    part, parts = (int(n) for n in args.part.split("/"))
    return files[part - 1::parts]

def limit_resources():
    if args.memory:
        limit = args.memory * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    # The timeout is CPU time, which the machine's load does not stretch: SIGXCPU at the limit,
    # SIGKILL a little later.
    cpu = max(1, int(args.timeout + 0.5))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))

# A hoist built with the sanitizers reports a memory error or undefined behaviour and exits 1,
# which must not pass for a refused file.
SANITIZER_REPORT = re.compile(r"ERROR: (Address|Leak|Memory)Sanitizer|runtime error:")
SANITIZER_OOM = re.compile(r"AddressSanitizer: (out of memory|requested allocation size|"
                           r"allocation-size-too-big|hard rss limit)")

def wait_for(child, wall_limit):
    """(status, CPU seconds of the child); status None when the wall-clock limit ran out."""
    deadline = time.monotonic() + wall_limit
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            return status, usage.ru_utime + usage.ru_stime
        if time.monotonic() > deadline:
            child.kill()
            _, _, usage = os.wait4(child.pid, 0)
            return None, usage.ru_utime + usage.ru_stime
        time.sleep(0.05)

def run(cmd):
    """(outcome, returncode, stderr, seconds, CPU seconds); outcome in ok, error, crash, hang,
    oom, starved.

    A hang is a run that spent --timeout seconds of CPU (RLIMIT_CPU), or that was still there
    after WALL_FACTOR times as much wall-clock time (blocked, not spinning). The wall-clock
    limit is generous because the machine may be shared: a run's CPU time, not its wall time,
    says what the run costs."""
    start = time.monotonic()
    with tempfile.TemporaryFile() as stderr:
        try:
            child = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=stderr, preexec_fn=limit_resources)
        except OSError as e:   # hoist could not be started (being relinked, say): not its verdict
            return "error", None, f"sweep: cannot run {cmd[0]}: {e}", 0.0, 0.0
        status, cpu = wait_for(child, args.timeout * WALL_FACTOR)
        stderr.seek(0)
        err = stderr.read().decode(errors="replace")
    seconds = time.monotonic() - start
    if status is None:
        return "hang", None, err, seconds, cpu
    rc = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    if SANITIZER_REPORT.search(err):
        return ("oom" if SANITIZER_OOM.search(err) else "crash"), rc, err, seconds, cpu
    if rc in (-signal.SIGXCPU, -signal.SIGKILL) and cpu >= args.timeout:
        return "hang", rc, err, seconds, cpu
    if rc == 3 and "watchdog of --timeout" in err:
        # hoist's watchdog counts wall-clock time: a run that got less CPU than the watchdog's
        # delay was starved by the machine's load, not stuck (docs/ROBUSTNESS.md).
        starved = cpu < 2 * args.hoist_timeout + 10
        return ("starved" if starved else "hang"), rc, err, seconds, cpu
    if rc < 0:
        # std::bad_alloc under the address-space limit aborts: that is memory, not a bug in a path
        oom = "bad_alloc" in err or "out of memory" in err.lower() or "Cannot allocate" in err
        return ("oom" if oom else "crash"), rc, err, seconds, cpu
    return ("ok" if rc == 0 else "error"), rc, err, seconds, cpu

def run_record(cmd):
    """run(cmd) as the JSON record of one run, and its stderr."""
    outcome, rc, err, seconds, cpu = run(cmd)
    return {"outcome": outcome, "exit": rc, "seconds": round(seconds, 2),
            "cpu_seconds": round(cpu, 2), "stderr": err.strip().splitlines()[-3:]}, err

def sweep_one(path):
    result = {"file": path, "size": os.path.getsize(path)}
    with tempfile.TemporaryDirectory(prefix="hoist-sweep-") as tmp:
        diag_path = os.path.join(tmp, "d.json")
        result["lift"], err = run_record([hoist, "lift", path, "--all", "--verify", args.opt, "-o",
                                          "/dev/null", "--diagnostics", diag_path] + budget)
        diags = []
        if os.path.exists(diag_path) and os.path.getsize(diag_path):
            try:
                diags = json.load(open(diag_path)).get("diagnostics", [])
            except ValueError:
                result["lift"]["bad_diagnostics_json"] = True
    verifier = [d for d in diags if "fails the LLVM verifier" in d.get("message", "")]
    if "fails the LLVM verifier" in err:
        verifier.append({"address": None, "message": err.strip().splitlines()[-1]})
    result["verifier_failures"] = [{"address": d.get("address"), "message": d["message"][:400]}
                                   for d in verifier]
    result["budget_exhausted"] = [{"address": d.get("address"), "message": d["message"][:200]}
                                  for d in diags if d.get("code") == "budget-exhausted"]
    result["lift_failed"] = [{"address": d.get("address"), "message": d["message"][:400]}
                             for d in diags if d.get("code") == "lift-failed"]
    if not args.no_cfg:
        cfg_format = [] if args.cfg_text else ["--json"]
        result["cfg"], _ = run_record([hoist, "cfg", path, "--all"] + cfg_format + budget)
    return result

files = corpus()
memory = f"memory {args.memory} MiB" if args.memory else "no memory limit"
hoist_budget = f", hoist --timeout {args.hoist_timeout:g}" if args.hoist_timeout else ""
print(f"sweep: {len(files)} files, {args.jobs} jobs, timeout {args.timeout:g} s{hoist_budget}, "
      f"{memory}, lift --all {args.opt}", flush=True)
start = time.monotonic()
results = []
with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
    for r in pool.map(sweep_one, files):
        results.append(r)
        runs = [r["lift"]] + ([r["cfg"]] if "cfg" in r else [])
        status = "/".join(x["outcome"] for x in runs)   # lift, then cfg
        cpu = sum(x["cpu_seconds"] for x in runs)
        print(f"{status:<10} {r['lift']['seconds']:>8.1f}s {cpu:>7.1f}s CPU  verifier {len(r['verifier_failures']):>3}  "
              f"budget {len(r['budget_exhausted']):>3}  lift-failed {len(r['lift_failed']):>4}  "
              f"{r['file']}", flush=True)

def count(outcome):
    return sum(1 for r in results for k in ("lift", "cfg") if k in r and r[k]["outcome"] == outcome)

total = {
    "files": len(results),
    "elf": sum(1 for r in results if not r["file"].startswith(WINE)),
    "pe": sum(1 for r in results if r["file"].startswith(WINE)),
    "crashes": count("crash"), "hangs": count("hang"), "out_of_memory": count("oom"),
    "errors": count("error"), "starved": count("starved"),
    "verifier_failures": sum(len(r["verifier_failures"]) for r in results),
    "budget_exhaustions": sum(len(r["budget_exhausted"]) for r in results),
    "lift_failed": sum(len(r["lift_failed"]) for r in results),
    "wall_seconds": round(time.monotonic() - start, 1),
    "cpu_seconds": round(sum(r[k]["cpu_seconds"] for r in results for k in ("lift", "cfg")
                             if k in r), 1),
}
if args.json:
    with open(args.json, "w") as f:
        json.dump({"options": vars(args), "total": total, "binaries": results}, f, indent=1)

print()
print(f"{'':<22}{'count':>8}")
for key in ("files", "elf", "pe", "crashes", "hangs", "out_of_memory", "errors",
            "starved", "verifier_failures", "budget_exhaustions", "lift_failed", "wall_seconds",
            "cpu_seconds"):
    print(f"{key:<22}{total[key]:>8}")
bad = [r for r in results
       if r["verifier_failures"] or any(k in r and r[k]["outcome"] in ("crash", "hang", "oom")
                                        for k in ("lift", "cfg"))]
for r in bad:
    for k in ("lift", "cfg"):
        if k in r and r[k]["outcome"] in ("crash", "hang", "oom"):
            print(f"  {r[k]['outcome']}: hoist {k} {r['file']} (exit {r[k]['exit']}): "
                  + " | ".join(r[k]["stderr"]))
    for v in r["verifier_failures"]:
        print(f"  verifier: {r['file']} {v['address']}: {v['message'][:200]}")
if total["crashes"] or total["hangs"] or total["out_of_memory"] or total["verifier_failures"]:
    print("sweep: FAILED (crash, hang, out-of-memory or verifier failure)")
    sys.exit(1)
print("sweep: no crash, hang, out-of-memory or verifier failure")
PY
