"""Checks that `hoist cfg --dot` draws what `hoist cfg --json` reports for the same functions:
the same blocks, an in-function edge per successor, a case edge per jump-table index, an edge
per call, tail call and unresolved jmp (docs/CFG.md, "Graphs").

usage: check_cfg_dot.py CFG.json CFG.dot
"""
import json
import re
import sys

NODE = re.compile(r'^\s*"f([0-9a-f]+)_b([0-9a-f]+)" \[label=<')
UNRESOLVED_NODE = re.compile(r'^\s*"(unresolved_[0-9a-f]+_[0-9a-f]+)" \[label="unresolved jmp\\n((?:[^"\\]|\\.)*)"')
EDGE = re.compile(r'^\s*"([^"]+)" -> "([^"]+)" \[class="([a-z_]+)"(.*)\];$')
CASE = re.compile(r'label="case (\d+)"')
IN_FUNCTION = {"fallthrough", "taken", "not_taken", "jump", "case", "computed"}


def fail(message):
    sys.exit("check_cfg_dot: " + message)


def node(entry, start):
    return f"f{entry:x}_b{start:x}"


def main():
    with open(sys.argv[1]) as f:
        cfg = json.load(f)
    with open(sys.argv[2]) as f:
        lines = f.read().splitlines()

    blocks = {}          # entry -> set of block starts
    unresolved = {}      # node -> reason
    edges = []           # (from, to, kind, case index or None)
    for line in lines:
        if m := NODE.match(line):
            blocks.setdefault(int(m[1], 16), set()).add(int(m[2], 16))
        elif m := UNRESOLVED_NODE.match(line):
            unresolved[m[1]] = re.sub(r'\\(.)', r'\1', m[2])
        elif m := EDGE.match(line):
            case = CASE.search(m[4])
            edges.append((m[1], m[2], m[3], int(case[1]) if case else None))
    functions = {int(f["entry"], 16): f for f in cfg["functions"]}
    edges_from = {}      # source node -> its edges, so that each check reads only its own
    for edge in edges:
        edges_from.setdefault(edge[0], []).append(edge)
    if set(blocks) != set(functions):
        fail(f"clusters {sorted(map(hex, blocks))} but functions {sorted(map(hex, functions))}")

    def holder(function, address):
        for b in function["blocks"]:
            if int(b["start"], 16) <= address < int(b["end"], 16):
                return node(int(function["entry"], 16), int(b["start"], 16))
        fail(f"no block of {function['entry']} holds {address:#x}")

    def callee(target):
        if not target.startswith("0x"):
            return "import_" + target
        address = int(target, 16)
        return node(address, address) if address in functions else f"fn_{address:x}"

    for entry, function in functions.items():
        starts = {int(b["start"], 16) for b in function["blocks"]}
        if blocks[entry] != starts:
            fail(f"{entry:#x}: nodes {sorted(map(hex, blocks[entry]))}, blocks {sorted(map(hex, starts))}")
        for b in function["blocks"]:
            source = node(entry, int(b["start"], 16))
            drawn = {to for _, to, kind, _ in edges_from.get(source, []) if kind in IN_FUNCTION}
            wanted = {node(entry, int(s, 16)) for s in b["successors"]}
            if drawn != wanted:
                fail(f"{source}: edges to {sorted(drawn)}, successors {sorted(wanted)}")
        for table in function["jump_tables"]:
            source = holder(function, int(table["jump"], 16))
            cases = [(index, to) for _, to, kind, index in edges_from.get(source, []) if kind == "case"]
            indices = sorted(index for index, _ in cases)
            if indices != list(range(len(indices))) or not indices:
                fail(f"{source}: case indices {indices}")
            if {to for _, to in cases} != {node(entry, int(t, 16)) for t in table["targets"]}:
                fail(f"{source}: case edges to {sorted(to for _, to in cases)}, table {table['targets']}")
        for call in function["calls"]:
            if call["target"] is None:
                continue
            wanted = (holder(function, int(call["at"], 16)), callee(call["target"]), "call")
            if wanted not in {e[:3] for e in edges_from.get(wanted[0], [])}:
                fail(f"no call edge {wanted}")
        tail_calls = {to for s in starts for _, to, kind, _ in edges_from.get(node(entry, s), [])
                      if kind == "tail_call"}
        for target in function["tail_calls"]:
            if callee(target) not in tail_calls:
                fail(f"{entry:#x}: no tail_call edge to {target}")
        for jump in function["unresolved_jumps"]:
            source = holder(function, int(jump["jump"], 16))
            targets = [to for _, to, kind, _ in edges_from.get(source, []) if kind == "unresolved"]
            if len(targets) != 1 or unresolved.get(targets[0]) != jump["reason"]:
                fail(f"{source}: unresolved edges {targets}, reason {jump['reason']!r}")
    print(f"check_cfg_dot: {len(functions)} functions, {sum(map(len, blocks.values()))} blocks, "
          f"{len(edges)} edges agree")


main()
