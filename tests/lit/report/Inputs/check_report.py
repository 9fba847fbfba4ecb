"""Checks the pages `hoist report` writes, in headless Chromium and against hoist's other outputs.

  check_report.py summary REPORT index CFG.json LIFT.json BRIGHTEN.json BINARY LIFT.ll
      index.html lists the functions `lift --annotate` lifts (LIFT.ll), as many as
      `lift --diagnostics` counts, with the blocks, jump tables and unresolved jumps of
      `cfg --all --json` and the instructions llvm-objdump finds in those blocks; its totals,
      brightened count and unsupported instructions agree with `lift --diagnostics` (lifted and
      brightened).
  check_report.py listings REPORT PAGE LIFT.ll BRIGHTENED.ll
      the page's lifted and brightened IR are the function's in `lift --annotate` (and with
      `--brighten`), line for line.
  check_report.py clean REPORT PAGE PROFILE
      the page loads in Chromium without a console message or a script error, and a function
      page's script runs to its end.
  check_report.py select REPORT PAGE CFG.json PROFILE
      opened as PAGE#0xADDR (an instruction that has IR in both listings), exactly the
      instruction, its IR lines (grouped here from the text alone) and its block carry the class
      `selected`.
  check_report.py screenshot REPORT PAGE PNG PROFILE
      Chromium's screenshot of the page is a 1200x900 PNG with something drawn.
  check_report.py break REPORT PAGE COPY
      writes COPY (in REPORT), the page with a script error after the selection: the check
      that `clean` catches one.
PAGE is a function's name as index.html links it, `index`, or a file name in REPORT.
Chromium must be installed (scripts/install-deps.sh): without it every browser check fails.
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib
from html.parser import HTMLParser


def fail(message):
    print(f"check_report: FAIL: {message}")
    sys.exit(1)


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children = tag, attrs, parent, []

    def classes(self):
        return (self.attrs.get("class") or "").split()

    def text(self):
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def walk(self):
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.walk()

    def elements(self):
        return [c for c in self.children if isinstance(c, Node)]


class TreeBuilder(HTMLParser):
    VOID = {"meta", "link", "br", "hr", "img", "input", "area", "base", "col", "source", "wbr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {}, None)
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.stack[-1])
        self.stack[-1].children.append(node)
        if tag not in self.VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1].children.append(Node(tag, dict(attrs), self.stack[-1]))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def parse(html):
    builder = TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


def by_id(root, id_):
    return next((n for n in root.walk() if n.attrs.get("id") == id_), None)


def chromium(profile, *arguments):
    browser = shutil.which("chromium")
    if not browser:
        fail("chromium is not installed (scripts/install-deps.sh installs it)")
    command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", *arguments]
    run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        fail(f"chromium exited with {run.returncode}: {run.stderr[-2000:]}")
    console = [line for line in run.stderr.splitlines() if ":CONSOLE" in line]
    if console:
        fail("console messages: " + " | ".join(console))
    return run.stdout


def load(page, profile, fragment=""):
    """The DOM after the page's scripts ran; fails on a script error or an unfinished script."""
    dom = parse(chromium(profile, "--dump-dom", f"file://{page}{fragment}"))
    error = by_id(dom, "script-error")
    if error is not None:
        fail(error.text())
    body = next((n for n in dom.walk() if n.tag == "body"), None)
    if body is None:
        fail("no body in the dumped DOM")
    return dom, body


def lines_of(listing):
    return [line.text() for line in listing.elements()]


def groups_from_text(lines):
    """Line indices per address: an annotation comment and the IR after it, to the next comment,
    label, blank line or closing brace (docs/CLI.md, "Annotated IR")."""
    groups, current = {}, None
    for index, line in enumerate(lines):
        comment = re.match(r"\s*; 0x([0-9a-f]+): ", line)
        if comment:
            current = comment.group(1)
        elif not line or not line[0].isspace():
            current = None
        if current:
            groups.setdefault(current, []).append(index)
    return groups


# llvm-objdump prints some prefixes on a line of their own (`lock` before `cmpxchg`): they are
# part of the instruction after them, not instructions.
PREFIX_LINES = {"lock", "rep", "repe", "repne", "repz", "repnz", "data16", "addr32", "notrack",
                "xacquire", "xrelease", "bnd"}


def objdump_instructions(binary):
    dump = subprocess.run(["llvm-objdump", "-d", "--no-show-raw-insn", binary],
                          capture_output=True, text=True, check=True).stdout
    return sorted({int(a, 16) for a, text in
                   re.findall(r"^[ \t]*([0-9a-f]+):[ \t]+(.*)$", dump, re.M)
                   if text.strip() not in PREFIX_LINES})


def check_summary(index, cfg_path, lift_path, brighten_path, binary, lifted_ll):
    page = parse(open(index).read())
    lifted = {int(a, 16) for a in re.findall(r"^; lifted from 0x([0-9a-f]+)$", open(lifted_ll).read(), re.M)}
    cfg = {int(f["entry"], 16): f for f in json.load(open(cfg_path))["functions"]
           if int(f["entry"], 16) in lifted}
    lift = json.load(open(lift_path))
    brighten = json.load(open(brighten_path))
    rows = {int(n.attrs["data-entry"], 16): n for n in page.walk() if "function" in n.classes()
            and n.tag == "tr"}
    if set(rows) != lifted or set(cfg) != lifted or len(lifted) != lift["lift_stats"]["functions"]:
        fail(f"functions {sorted(map(hex, rows))}, lifted {sorted(map(hex, lifted))}, of them in "
             f"cfg --json {sorted(map(hex, cfg))}, lift counts {lift['lift_stats']['functions']}")
    addresses = objdump_instructions(binary)
    totals = {"instructions": 0, "jump-tables": 0, "unresolved-jumps": 0}
    for entry, function in cfg.items():
        row = rows[entry]
        blocks = [(int(b["start"], 16), int(b["end"], 16)) for b in function["blocks"]]
        instructions = sum(1 for a in addresses for s, e in blocks if s <= a < e)
        expected = {"data-blocks": len(blocks), "data-instructions": instructions,
                    "data-jump-tables": len(function["jump_tables"]),
                    "data-unresolved": len(function["unresolved_jumps"])}
        for key, value in expected.items():
            if int(row.attrs[key]) != value:
                fail(f"{hex(entry)}: {key} {row.attrs[key]}, expected {value}")
        totals["instructions"] += instructions
        totals["jump-tables"] += len(function["jump_tables"])
        totals["unresolved-jumps"] += len(function["unresolved_jumps"])
    declined = sum(1 for d in brighten["diagnostics"] if d["code"] == "brighten-declined")
    totals["functions"] = len(cfg)
    totals["instructions-lifted"] = lift["lift_stats"]["instructions_lifted"]
    totals["brightened"] = len(cfg) - declined
    for id_, value in totals.items():
        shown = by_id(page, id_)
        if shown is None or int(shown.text()) != value:
            fail(f"#{id_} is {shown.text() if shown else 'missing'}, expected {value}")
    if sum(1 for r in rows.values() if r.attrs["data-brightened"] == "yes") != totals["brightened"]:
        fail("the functions marked brightened are not as many as brightened")
    # The decline histogram: one count per decline, grouped by its reason (the report leaves
    # addresses and names out of it, so functions declined for the same reason count together).
    reasons = by_id(page, "decline-reasons")
    histogram = {n.attrs["data-key"]: int(n.attrs["data-count"]) for n in reasons.walk()
                 if "data-key" in n.attrs}
    if sum(histogram.values()) != declined:
        fail(f"decline histogram {histogram} counts {sum(histogram.values())}, "
             f"{declined} functions declined")
    for reason in histogram:
        if "not brightened (" in reason or re.search(r"0x[0-9a-f]", reason):
            fail(f"decline reason {reason!r} still names a function or an address")
    unsupported = by_id(page, "unsupported")
    shown = {n.attrs["data-key"]: int(n.attrs["data-count"]) for n in unsupported.walk()
             if "data-key" in n.attrs}
    if shown != lift["lift_stats"]["unsupported"]:
        fail(f"unsupported {shown}, lift says {lift['lift_stats']['unsupported']}")
    print(f"check_report: summary agrees: {len(cfg)} functions, {totals['instructions']} "
          f"instructions, {totals['brightened']} brightened, {len(histogram)} decline reasons")


def function_text(ll_path, entry):
    """The function lifted from `entry` in annotated IR: its `define` line to its `}`."""
    text = open(ll_path).read()
    match = re.search(rf"^; lifted from 0x{entry:x}\n(define .*?\n}}\n)", text, re.M | re.S)
    if not match:
        fail(f"{ll_path}: no function lifted from {hex(entry)}")
    return match.group(1).rstrip("\n").split("\n")


def check_listings(page_path, lifted_ll, brightened_ll):
    page = parse(open(page_path).read())
    entry = int(re.search(r"fn_([0-9a-f]+)\.html$", page_path).group(1), 16)
    for id_, ll in (("lifted", lifted_ll), ("brightened", brightened_ll)):
        listing = by_id(page, id_)
        if listing is None:
            fail(f"no #{id_} listing")
        shown = [line for line in lines_of(listing) if not line.startswith("; lifted from")]
        while shown and not shown[-1]:
            shown.pop()
        expected = function_text(ll, entry)
        if shown != expected:
            first = next((i for i, (a, b) in enumerate(zip(shown, expected)) if a != b),
                         min(len(shown), len(expected)))
            fail(f"#{id_} differs from {ll} at line {first}: "
                 f"{shown[first:first + 1]} vs {expected[first:first + 1]}")
    print(f"check_report: listings of {hex(entry)} are lift's")


def check_clean(page, profile):
    dom, body = load(page, profile)
    if by_id(dom, "assembly") is not None and body.attrs.get("data-script") != "done":
        fail("the page's script did not run to its end")
    print("check_report: clean")


def check_select(page_path, cfg_path, profile):
    entry = int(re.search(r"fn_([0-9a-f]+)\.html$", page_path).group(1), 16)
    function = next(f for f in json.load(open(cfg_path))["functions"]
                    if int(f["entry"], 16) == entry)
    blocks = [(int(b["start"], 16), int(b["end"], 16)) for b in function["blocks"]]
    static = parse(open(page_path).read())
    lifted = groups_from_text(lines_of(by_id(static, "lifted")))
    brightened = groups_from_text(lines_of(by_id(static, "brightened")))
    # An instruction past the entry block with IR in both listings, so that each check can fail.
    candidates = [a for a in lifted if a in brightened and int(a, 16) >= blocks[0][1]]
    if not candidates:
        fail("no instruction past the entry block has IR in both listings")
    address = candidates[0]
    block = next(s for s, e in blocks if s <= int(address, 16) < e)

    dom, body = load(page_path, profile, f"#0x{address}")
    if body.attrs.get("data-script") != "done":
        fail("the page's script did not run to its end")
    selected = [n for n in dom.walk() if "selected" in n.classes()]
    expected = {("assembly", "asm"), ("graph", f"block_{block:x}")}
    for id_, groups in (("lifted", lifted), ("brightened", brightened)):
        listing = by_id(dom, id_)
        for index in groups[address]:
            expected.add((id_, index))
    found = set()
    for node in selected:
        if node.parent is not None and node.parent.attrs.get("id") in ("lifted", "brightened"):
            found.add((node.parent.attrs["id"], node.parent.elements().index(node)))
        elif node.parent is not None and node.parent.attrs.get("id") == "assembly":
            if not node.text().startswith(address + " "):
                fail(f"selected assembly line {node.text()!r} is not {address}'s")
            found.add(("assembly", "asm"))
        elif node.tag == "g":
            found.add(("graph", node.attrs.get("id")))
        else:
            found.add(("other", node.tag + "#" + node.attrs.get("id", "")))
    if found != expected:
        fail(f"#0x{address}: selected {sorted(map(str, found - expected))} not expected, "
             f"{sorted(map(str, expected - found))} expected but not selected")
    print(f"check_report: 0x{address} selects its assembly line, {len(lifted[address])} lifted "
          f"and {len(brightened[address])} brightened lines, block 0x{block:x}")


def check_screenshot(page, png, profile):
    chromium(profile, f"--screenshot={png}", "--window-size=1200,900", f"file://{page}")
    data = open(png, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{png} is not a PNG")
    width, height = struct.unpack(">II", data[16:24])
    pixels, offset = b"", 8
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        if kind == b"IDAT":
            pixels += data[offset + 8:offset + 8 + length]
        offset += 12 + length
    distinct = len(set(zlib.decompress(pixels)))
    if (width, height) != (1200, 900) or distinct < 32:
        fail(f"{png}: {width}x{height}, {distinct} distinct byte values: nothing drawn")
    print(f"check_report: screenshot {width}x{height}, {distinct} distinct byte values")


def page_path(report, name):
    if name.endswith(".html"):
        return os.path.join(os.path.abspath(report), name)
    if name == "index":
        return page_path(report, "index.html")
    index = parse(open(os.path.join(report, "index.html")).read())
    link = next((n for n in index.walk() if n.tag == "a" and n.text() == name), None)
    if link is None:
        fail(f"index.html links no function {name}")
    return page_path(report, link.attrs["href"])


def break_script(page, copy):
    text = open(page).read()
    marker = 'document.body.setAttribute("data-script", "done");'
    if marker not in text:
        fail(f"{page}: the script has no end marker")
    open(copy, "w").write(text.replace(marker, "noSuchFunction();\n  " + marker))


mode, report, page, arguments = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
if mode == "summary":
    check_summary(page_path(report, page), *arguments)
elif mode == "break":
    break_script(page_path(report, page), page_path(report, arguments[0]))
else:
    {"listings": check_listings, "clean": check_clean, "select": check_select,
     "screenshot": check_screenshot}[mode](page_path(report, page), *arguments)
