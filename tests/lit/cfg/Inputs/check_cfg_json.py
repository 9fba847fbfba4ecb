"""Checks that `hoist cfg --json` output has exactly the documented shape (docs/CFG.md)."""
import json
import re
import sys

HEX = re.compile(r"^0x[0-9a-f]+$")


def fail(message):
    sys.exit("check_cfg_json: " + message)


def check_hex(value, where):
    if not isinstance(value, str) or not HEX.match(value):
        fail(f"{where}: {value!r} is not a lowercase 0x hex string")


def check_jump(jump, keys, what, seen):
    """An indirect jmp's entry: its keys, its address, and no other entry for the same jmp."""
    if set(jump) != keys:
        fail(f"{what} keys {sorted(jump)}")
    check_hex(jump["jump"], what)
    if jump["jump"] in seen:
        fail(f"{what} {jump['jump']} is listed twice")
    seen.add(jump["jump"])


def main():
    data = json.load(sys.stdin)
    if set(data) != {"binary", "format", "functions", "totals"}:
        fail(f"top-level keys {sorted(data)}")
    totals = data["totals"]
    if set(totals) != {"functions", "jump_tables", "jump_table_targets", "computed_jumps",
                       "unresolved_jumps", "rounds"}:
        fail(f"totals keys {sorted(totals)}")
    if totals["functions"] != len(data["functions"]):
        fail(f"totals count {totals['functions']} functions, the list {len(data['functions'])}")
    for key, listed in (("jump_tables", "jump_tables"), ("computed_jumps", "computed_jumps"),
                        ("unresolved_jumps", "unresolved_jumps")):
        if totals[key] != sum(len(f[listed]) for f in data["functions"]):
            fail(f"totals {key} {totals[key]} is not the sum over the functions")
    if data["format"] not in ("elf", "pe"):
        fail(f"format {data['format']!r}")
    wanted = set(sys.argv[1:])
    names = set()
    for f in data["functions"]:
        keys = {"entry", "name", "noreturn", "reasons", "ifunc_resolver", "blocks", "parts", "jump_tables",
                "computed_jumps", "unresolved_jumps", "calls", "tail_calls", "shared_blocks",
                "overlapping_instructions", "recognized"}
        if set(f) != keys:
            fail(f"function keys {sorted(f)}")
        check_hex(f["entry"], "entry")
        if f["name"] is not None and not isinstance(f["name"], str):
            fail("name is neither a string nor null")
        if not f["reasons"] or not all(isinstance(r, str) and r for r in f["reasons"]):
            fail(f"function {f['entry']} has reasons {f['reasons']!r}")
        if not isinstance(f["noreturn"], bool):
            fail("noreturn is not a boolean")
        if not isinstance(f["ifunc_resolver"], bool):
            fail("ifunc_resolver is not a boolean")
        recognized = f["recognized"]
        if recognized is not None and (
                set(recognized) != {"name", "library", "candidates", "ifunc_resolver"} or
                not recognized["candidates"] or
                (recognized["name"] is not None and recognized["name"] not in recognized["candidates"])):
            fail(f"recognized {recognized!r}")
        starts = set()
        for b in f["blocks"]:
            if set(b) != {"start", "end", "instructions", "successors"}:
                fail(f"block keys {sorted(b)}")
            if not isinstance(b["instructions"], int) or b["instructions"] < 1:
                fail(f"block {b['start']} has {b['instructions']!r} instructions")
            check_hex(b["start"], "block start")
            check_hex(b["end"], "block end")
            if int(b["end"], 16) <= int(b["start"], 16):
                fail(f"block {b['start']} ends at {b['end']}")
            starts.add(b["start"])
        if f["entry"] not in starts:
            fail(f"function {f['entry']} has no block at its entry")
        for p in f["parts"]:
            if set(p) != {"start", "end", "name"}:
                fail(f"part keys {sorted(p)}")
            check_hex(p["start"], "part start")
            check_hex(p["end"], "part end")
            if p["start"] not in starts or int(p["end"], 16) <= int(p["start"], 16):
                fail(f"part {p['start']}..{p['end']} is not a run of blocks of {f['entry']}")
        for b in f["blocks"]:
            for s in b["successors"]:
                if s not in starts:
                    fail(f"successor {s} of {b['start']} is not a block of {f['entry']}")
        for t in f["jump_tables"]:
            if set(t) != {"bound", "jump", "targets"}:
                fail(f"jump table keys {sorted(t)}")
            if t["bound"] not in ("compare", "set-of-values", "index-width"):
                fail(f"jump table bound {t['bound']}")
            check_hex(t["jump"], "jump")
            for target in t["targets"]:
                if target not in starts:
                    fail(f"jump table target {target} is not a block")
        jumps = {t["jump"] for t in f["jump_tables"]}
        for t in f["computed_jumps"]:
            check_jump(t, {"jump", "targets"}, "computed jump", jumps)
            if not t["targets"]:
                fail(f"computed jump {t['jump']} has no target")
            for target in t["targets"]:
                # A block of the function, another function's entry (a tail call), or an
                # import's name.
                if target not in starts and target not in f["tail_calls"] and HEX.match(target):
                    fail(f"computed jump target {target} is neither a block nor a tail call")
        for u in f["unresolved_jumps"]:
            check_jump(u, {"jump", "reason"}, "unresolved jump", jumps)
            if not isinstance(u["reason"], str) or not u["reason"]:
                fail(f"unresolved jump {u['jump']} has no reason")
        for c in f["calls"]:
            if set(c) != {"at", "target"}:
                fail(f"call keys {sorted(c)}")
            check_hex(c["at"], "call at")
            if c["target"] is not None and not isinstance(c["target"], str):
                fail("call target is neither a string nor null")
        for t in f["tail_calls"]:
            check_hex(t, "tail call")
        for b in f["shared_blocks"]:
            if b not in starts:
                fail(f"shared block {b} is not a block of {f['entry']}")
        for a in f["overlapping_instructions"]:
            check_hex(a, "overlapping instruction")
        if f["name"]:
            names.add(f["name"])
    if not wanted <= names:
        fail(f"functions missing: {sorted(wanted - names)}")
    print(f"ok: {len(data['functions'])} functions")


main()
