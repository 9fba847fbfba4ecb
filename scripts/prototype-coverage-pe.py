#!/usr/bin/env python3
"""How much of what PE binaries import has a prototype in Hoist's Windows table.

For each PE file given (or each *.dll and *.exe in a directory given), `hoist info --json`
lists its imports (name, DLL, IAT slot, stub) and llvm-objdump-19 its code. Counted are:

- distinct imported (name, DLL) pairs, over all files;
- call sites: a `call`/`jmp` through an IAT slot (`call [rip+slot]`), and a direct
  `call`/`jmp` to an import thunk (a stub Hoist reports, or a symbol whose code starts with a
  jump through a slot, after Wine's hot-patch `lea rsp, [rsp]`). A thunk's own jump is not a
  call site.

An import is covered when build/lib/Prototypes/WindowsPrototypes.inc has its (name, DLL);
an import by ordinal never is. Prints both shares, the call-site share without Wine's own
interfaces (wined3d.dll, win32u.dll, wow64.dll, ntdll's __wine_* and wine_*: no Windows
header declares them), and the DLLs that miss most call sites.

Usage: prototype-coverage-pe.py [--hoist PATH] [--table PATH] [--jobs N] [--cache FILE]
                                FILE_OR_DIR...

--cache keeps each file's imports and call sites (by path, size and time), so that measuring
a regenerated table again reads no binary.
"""

import argparse
import collections
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys

WINE_OWN_DLLS = {"wined3d.dll", "win32u.dll", "wow64.dll"}
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENTRY = re.compile(r'^    \{"([^"]+)", .*, "([^"]+)", CallingConvention::Win64, ')
LABEL = re.compile(r"^([0-9a-f]+) <(.+)>:$")
INSTRUCTION = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
THROUGH_SLOT = re.compile(r"qword ptr \[rip \+ 0x[0-9a-f]+\]\s*# 0x([0-9a-f]+)")
DIRECT = re.compile(r"^0x([0-9a-f]+)\b")


def table_keys(path):
    keys = set()
    with open(path) as stream:
        for line in stream:
            match = ENTRY.match(line)
            if match:
                keys.add((match.group(1), match.group(2)))
    return keys


def imports_of(hoist, path):
    info = subprocess.run([hoist, "info", "--json", path], capture_output=True, text=True)
    if info.returncode != 0:
        return None
    imports = json.loads(info.stdout).get("imports", [])
    return [(item["name"], item["library"].lower(), int(item["slot"], 16),
             int(item["stub"], 16) if item.get("stub") else None) for item in imports]


def call_sites(path, slots, stubs):
    """{slot: count} of the call sites of each import slot in the file's code."""
    disassembly = subprocess.run(
        ["llvm-objdump-19", "-d", "--no-show-raw-insn", "-M", "intel", path],
        capture_output=True, text=True).stdout
    thunks = {stub: slot for stub, slot in stubs.items()}
    through_slot, direct = [], []
    label, position = None, 0
    for line in disassembly.splitlines():
        match = LABEL.match(line)
        if match:
            label, position = int(match.group(1), 16), 0
            continue
        match = INSTRUCTION.match(line)
        if not match:
            continue
        address, mnemonic, operands = int(match.group(1), 16), match.group(2), match.group(3)
        position += 1
        if mnemonic == "lea" and operands.startswith("rsp, [rsp]"):
            position -= 1   # Wine's hot-patch prefix of a thunk
            continue
        if mnemonic not in ("call", "jmp"):
            continue
        slot = THROUGH_SLOT.search(operands)
        if slot and int(slot.group(1), 16) in slots:
            slot_address = int(slot.group(1), 16)
            if mnemonic == "jmp" and position == 1 and label is not None:
                thunks.setdefault(label, slot_address)
            if address not in thunks and not (mnemonic == "jmp" and thunks.get(label) == slot_address
                                              and position == 1):
                through_slot.append(slot_address)
            continue
        target = DIRECT.match(operands)
        if target:
            direct.append(int(target.group(1), 16))
    counts = collections.Counter(through_slot)
    for target in direct:
        if target in thunks:
            counts[thunks[target]] += 1
    return counts


def measure(arguments):
    hoist, path = arguments
    imports = imports_of(hoist, path)
    if imports is None:
        return path, None, None
    slots = {slot: (name, dll) for name, dll, slot, _ in imports}
    stubs = {stub: slot for _, _, slot, stub in imports if stub}
    counts = call_sites(path, slots, stubs)
    return path, [(name, dll) for name, dll, _, _ in imports], \
        [(slots[slot], count) for slot, count in counts.items()]


def measure_all(files, options):
    """measure() of each file, through the cache when there is one."""
    cache = {}
    if options.cache and os.path.exists(options.cache):
        with open(options.cache) as stream:
            cache = json.load(stream)
    def stamp(path):
        status = os.stat(path)
        return "%d:%d" % (status.st_size, status.st_mtime_ns)
    missing = [path for path in files
               if cache.get(path, {}).get("stamp") != stamp(path)]
    with concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
        for path, imports, counted in pool.map(measure, [(options.hoist, f) for f in missing]):
            cache[path] = {"stamp": stamp(path), "imports": imports, "counted": counted}
    if options.cache:
        with open(options.cache, "w") as stream:
            json.dump(cache, stream)
    for path in files:
        entry = cache[path]
        imports = entry["imports"] and [tuple(key) for key in entry["imports"]]
        counted = entry["counted"] and [(tuple(key), count) for key, count in entry["counted"]]
        yield path, imports, counted


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hoist", default=os.path.join(ROOT, "build/tools/hoist/hoist"))
    parser.add_argument("--table",
                        default=os.path.join(ROOT, "build/lib/Prototypes/WindowsPrototypes.inc"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", help="a JSON file of each binary's imports and call sites")
    parser.add_argument("--missing", type=int, default=15,
                        help="how many uncovered DLLs and functions to list")
    parser.add_argument("inputs", nargs="+")
    options = parser.parse_args()
    covered = table_keys(options.table)
    files = []
    for item in options.inputs:
        if os.path.isdir(item):
            files += sorted(glob.glob(os.path.join(item, "*.dll")) +
                            glob.glob(os.path.join(item, "*.exe")))
        else:
            files.append(item)

    pairs, sites, missed_dlls, missed_functions = set(), collections.Counter(), \
        collections.Counter(), collections.Counter()
    unreadable = 0
    for path, imports, counted in measure_all(files, options):
        if imports is None:
            unreadable += 1
            continue
        pairs |= set(imports)
        for key, count in counted:
            known = key in covered
            sites["covered" if known else "missed"] += count
            if key[1] in WINE_OWN_DLLS or key[0].startswith(("__wine_", "wine_")):
                sites["wine's own covered" if known else "wine's own missed"] += count
            if not known:
                missed_dlls[key[1]] += count
                missed_functions["%s!%s" % (key[1], key[0])] += count

    covered_pairs = sum(1 for key in pairs if key in covered)
    total_sites = sites["covered"] + sites["missed"]
    print("files: %d (%d not readable as PE)" % (len(files) - unreadable, unreadable))
    print("distinct imported (name, DLL) pairs: %d, with a prototype: %d (%.2f%%)" % (
        len(pairs), covered_pairs, 100.0 * covered_pairs / max(len(pairs), 1)))
    print("import call sites: %d, with a prototype: %d (%.2f%%)" % (
        total_sites, sites["covered"], 100.0 * sites["covered"] / max(total_sites, 1)))
    wine_own = sites["wine's own covered"] + sites["wine's own missed"]
    print("without the %d call sites of Wine's own interfaces: %d of %d (%.2f%%)" % (
        wine_own, sites["covered"] - sites["wine's own covered"], total_sites - wine_own,
        100.0 * (sites["covered"] - sites["wine's own covered"]) / max(total_sites - wine_own, 1)))
    print("call sites without a prototype, by DLL:")
    for dll, count in missed_dlls.most_common(options.missing):
        print("  %7d  %s" % (count, dll))
    print("functions without a prototype, by call sites:")
    for function, count in missed_functions.most_common(options.missing):
        print("  %7d  %s" % (count, function))


if __name__ == "__main__":
    sys.exit(main())
