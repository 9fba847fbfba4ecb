#!/usr/bin/env python3
"""How many imports, and calls to them, have a prototype from the headers (docs/PROTOTYPES.md).

Runs `hoist stats --sweep --json` once over every regular file under the given directories
(or the files given) and prints its totals: the distinct imported names (merged over the
binaries; a PE name with its DLL) and the call sites (calls and jumps through a stub or a
slot) whose import a header declares, and the most-called imports no header declares. Files
that are not ELF or PE are skipped by hoist.

usage: scripts/prototype-coverage.py [--hoist PATH] [--glob PATTERN] [--top N] PATH...
e.g.   scripts/prototype-coverage.py /usr/bin /usr/sbin
       scripts/prototype-coverage.py --glob '*.so*' /usr/lib/x86_64-linux-gnu
"""
import argparse
import fnmatch
import json
import os
import subprocess
import sys


def files_under(paths, pattern):
    for path in paths:
        if os.path.isfile(path):
            yield path
            continue
        for name in sorted(os.listdir(path)):
            full = os.path.join(path, name)
            if os.path.isfile(full) and not os.path.islink(full) \
                    and fnmatch.fnmatch(name, pattern):
                yield full


def percent(part, whole):
    return "%.2f%%" % (100.0 * part / whole) if whole else "-"


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hoist", default=os.path.join(root, "build/tools/hoist/hoist"))
    parser.add_argument("--glob", default="*", help="only files whose name matches")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("paths", nargs="+")
    arguments = parser.parse_args()

    files = list(files_under(arguments.paths, arguments.glob))
    run = subprocess.run([arguments.hoist, "stats", "--sweep", "--json"] + files,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if run.returncode != 0:
        sys.exit("prototype-coverage: no input could be read")
    total = json.loads(run.stdout)["total"]
    imports = total["imports"]
    undeclared = imports["undeclared"]
    print("files read: %d of %d" % (total["files_read"], len(files)))
    print("imported names: %d, declared by a header: %d (%s)" % (
        imports["names"], imports["declared_names"],
        percent(imports["declared_names"], imports["names"])))
    print("call sites: %d, to imports a header declares: %d (%s)" % (
        imports["call_sites"], imports["declared_call_sites"],
        percent(imports["declared_call_sites"], imports["call_sites"])))
    print("calls of a library's own exports through its PLT (not imports, not counted above): "
          "%d" % imports["own_export_call_sites"])
    cxx = sum(entry["call_sites"] for entry in undeclared if entry["name"].startswith("_Z"))
    print("call sites to undeclared C++ (mangled) names: %d (%s of all call sites)" % (
        cxx, percent(cxx, imports["call_sites"])))
    print("most called imports no header declares:")
    for entry in undeclared[:arguments.top]:
        library = entry.get("library")
        print("  %8d  %s" % (entry["call_sites"],
                             library + "!" + entry["name"] if library else entry["name"]))


if __name__ == "__main__":
    sys.exit(main())
