#!/usr/bin/python3
"""Lifts a corpus of binaries on a Dask cluster through the Python module (docs/API.md,
"Corpus runs on a Dask cluster"), one JSON record per binary in OUT (JSON lines).

    scripts/corpus-dask.py LIST OUT [--scheduler tcp://HOST:8786 | --workers N]
                           [--timeout SECONDS] [--memory-mib MIB] [--opt 0-3] [--no-brighten]

LIST holds one binary a line, optionally followed by a tab and that binary's own time limit in
seconds. Each binary is lifted whole (`cfg(all=True)`, then `lift(all=True)`, brightened) in a
process of its own that the worker starts with the time and memory limits: a hostile file ends
its own process (a record says how), never the worker. Records are appended as binaries
finish; a rerun skips every binary OUT already has a record for, whatever its status, so a run
that crashed resumes where it stopped and a bad file is tried once.

A record: binary, status (ok, error, timeout, crashed), error (the message hoist prints),
cfg (functions, blocks, jump_tables, unresolved_jumps), lift (instructions_lifted, blocks,
functions, unsupported), brighten_share (brightened functions / lifted ones),
diagnostics (notes, warnings, errors), seconds, peak_memory_mib.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

# What the process of one binary runs: the Python module does the work, the worker only waits.
ONE_BINARY = r"""
import json, sys, hoist
path, opt, brighten = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
try:
    binary = hoist.load(path)
    cfg = binary.cfg(all=True)
    lifted = binary.lift(all=True, opt=opt, brighten=brighten)
except hoist.Error as error:
    print(json.dumps({"status": "error", "error": str(error)}))
    sys.exit(0)
diagnostics = cfg.diagnostics + lifted.diagnostics
functions = lifted.stats["functions"]
declined = sum(d["code"] == "brighten-declined" for d in lifted.diagnostics)
print(json.dumps({
    "status": "ok",
    "cfg": {"functions": len(cfg.functions),
            "blocks": sum(len(f.blocks) for f in cfg.functions),
            "jump_tables": sum(len(f.jump_tables) for f in cfg.functions),
            "unresolved_jumps": sum(len(f.unresolved_jumps) for f in cfg.functions)},
    "lift": {"instructions_lifted": lifted.stats["instructions_lifted"],
             "blocks": lifted.stats["blocks"], "functions": functions,
             "unsupported": sum(lifted.stats["unsupported"].values())},
    "brighten_share": (functions - declined) / functions if brighten and functions else None,
    "diagnostics": {kind: sum(d["severity"] == kind[:-1] for d in diagnostics)
                    for kind in ("notes", "warnings", "errors")},
}))
"""


def lift_one(path, seconds, memory_mib, opt, brighten):
    """Runs on a worker: one binary in a process of its own, within the limits."""
    def limit_memory():
        size = memory_mib * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    start = time.monotonic()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen(
            [sys.executable, "-c", ONE_BINARY, path, str(opt), "1" if brighten else "0"],
            stdout=out, stderr=err, preexec_fn=limit_memory if memory_mib else None)
        # wait4, not communicate: it gives the child's own peak memory, killed or not.
        timed_out = False
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - start > seconds:
                child.kill()
                pid, status, usage = os.wait4(child.pid, 0)
                timed_out = True
                break
            time.sleep(0.02)
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        output, errors = out.read().strip(), err.read().strip()

    record = {"binary": path}
    if timed_out:
        record.update(status="timeout", error=f"time limit of {seconds:g} s reached")
    elif child.returncode == 0 and output:
        record.update(json.loads(output.splitlines()[-1]))
    else:
        last = errors.splitlines()[-1] if errors else ""
        record.update(status="crashed",
                      error=f"exit status {child.returncode}" + (f": {last}" if last else ""))
    record["seconds"] = round(time.monotonic() - start, 3)
    record["peak_memory_mib"] = round(usage.ru_maxrss / 1024, 1)
    return record


def read_list(path, default_seconds):
    """(binary, seconds) for each line of LIST."""
    binaries = []
    with open(path) as lines:
        for line in lines:
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            name, _, seconds = line.partition("\t")
            binaries.append((name, float(seconds) if seconds else default_seconds))
    return binaries


def finished(out_path):
    """The binaries OUT has a complete record for; a line cut short by a crash is dropped."""
    done = set()
    if not os.path.exists(out_path):
        return done
    with open(out_path) as records:
        lines = records.read().split("\n")
    complete = []
    for line in lines:
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        done.add(record["binary"])
        complete.append(line)
    if len(complete) != len([line for line in lines if line]):
        with open(out_path, "w") as records:   # rewrite without the cut line
            records.write("".join(line + "\n" for line in complete))
    return done


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("list", help="binaries, one a line (optionally TAB seconds)")
    parser.add_argument("out", help="JSON lines, one record per binary (appended)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--scheduler", help="address of a running Dask scheduler")
    where.add_argument("--workers", type=int, default=os.cpu_count(),
                       help="workers of a LocalCluster on this machine (default: every core)")
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds per binary (default 600)")
    parser.add_argument("--memory-mib", type=int, default=4096,
                        help="address-space limit per binary (default 4096; 0: none)")
    parser.add_argument("--opt", type=int, choices=range(4), default=1)
    parser.add_argument("--no-brighten", action="store_true")
    args = parser.parse_args()

    binaries = read_list(args.list, args.timeout)
    done = finished(args.out)
    todo = [(name, seconds) for name, seconds in binaries if name not in done]
    print(f"corpus-dask: {len(binaries)} binaries, {len(binaries) - len(todo)} done before, "
          f"{len(todo)} to do", file=sys.stderr)
    if not todo:
        return

    from distributed import Client, LocalCluster, as_completed
    cluster = None
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        # One thread per worker process: each task waits on a child that does the work.
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        futures = [client.submit(lift_one, name, seconds, args.memory_mib, args.opt,
                                 not args.no_brighten, key=f"lift-{index}-{name}", pure=False)
                   for index, (name, seconds) in enumerate(todo)]
        names = {future.key: name for future, (name, _) in zip(futures, todo)}
        with open(args.out, "a") as records:
            for future in as_completed(futures):
                try:
                    record = future.result()
                except Exception as error:   # the worker itself died (KilledWorker) or the task failed
                    record = {"binary": names[future.key], "status": "crashed",
                              "error": f"{type(error).__name__}: {error}"}
                records.write(json.dumps(record, sort_keys=True) + "\n")
                records.flush()
                os.fsync(records.fileno())
                print(f"corpus-dask: {record['binary']}: {record['status']}", file=sys.stderr)
    finally:
        client.close()
        if cluster:
            cluster.close()


if __name__ == "__main__":
    main()
