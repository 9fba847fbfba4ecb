"""Coverage: every instruction the compiler emitted inside a function lies in one of hoist's
blocks.

The instructions come from `objdump -d` of the unstripped copy, inside each function symbol's
[value, value + size). Filler inside a function -- alignment padding (nop forms, int3) and the
guard trap after a call that never returns (`hlt` after `__libc_start_main` in `_start`, `ud2`)
-- counts only when control can reach it: an uncovered run of filler is accepted when the
instruction before it is covered and ends a block that does not fall through into the run (a
jmp, a ret, a trap, or a call that never returns). Reachable padding (a `.p2align` in front of
a loop head that the code before it falls into) must be covered like any other instruction, and
so must anything after the run that is not filler: a call wrongly taken for noreturn leaves
real code uncovered and fails the check.
Only the standard library and binutils are used."""
import bisect
import re
import subprocess

LINE = re.compile(r"^\s*([0-9a-f]+):\t(.*)$")
FILLER = re.compile(r"^((data16|cs|ds|rex\.?\w*)\s+)*(nop[wlq]?|xchg\s+%ax,%ax|int3|hlt|ud2)\b")


def disassemble(path):
    """{address: instruction text} for every instruction objdump decodes in code sections."""
    out = subprocess.run(["objdump", "-d", "-w", "--no-show-raw-insn", path], check=True,
                         capture_output=True, text=True).stdout
    instructions = {}
    for line in out.splitlines():
        match = LINE.match(line)
        if match and not match.group(2).startswith("(bad)"):
            instructions[int(match.group(1), 16)] = match.group(2).strip()
    return instructions


def emitted(elf, instructions):
    """[(address, text)] of the instructions inside function symbols with a size, in order."""
    return emitted_in({(sym["value"], sym["value"] + sym["size"]) for sym in elf.symbols()
                       if sym["type"] == 2 and sym["shndx"] != 0 and sym["size"]
                       and elf.executable(sym["value"])}, instructions)


def emitted_in(ranges, instructions):
    """[(address, text)] of the instructions inside the [start, end) `ranges`, in order."""
    ranges = sorted(ranges)
    addresses = sorted(instructions)
    result = []
    for start, end in ranges:
        first = bisect.bisect_left(addresses, start)
        last = bisect.bisect_left(addresses, end)
        result.extend((a, instructions[a]) for a in addresses[first:last])
    return sorted(set(result))


class Blocks:
    """The blocks of `hoist cfg --json`, for looking addresses up."""

    def __init__(self, cfg):
        blocks = {}
        for function in cfg["functions"]:
            for block in function["blocks"]:
                start, end = int(block["start"], 16), int(block["end"], 16)
                successors = {int(s, 16) for s in block["successors"]}
                old = blocks.get(start)
                if old is None or old[0] < end:
                    blocks[start] = (end, successors)
                else:
                    old[1].update(successors)
        self.starts = sorted(blocks)
        self.blocks = blocks

    def covering(self, address):
        """(start, end, successors) of a block with start <= address < end, or None."""
        i = bisect.bisect_right(self.starts, address)
        # Blocks of different functions may overlap (shared code); look back a few.
        for start in reversed(self.starts[max(0, i - 8):i]):
            end, successors = self.blocks[start]
            if address < end:
                return start, end, successors
        return None


def check(emitted_instructions, cfg):
    """Returns (covered, unreachable filler, [uncovered addresses])."""
    blocks = Blocks(cfg)
    covered = filler = 0
    missed = []
    last_block = None      # the covered block of the instruction before, if it was covered
    in_filler_run = False  # the instructions since last_block are accepted filler
    for address, text in emitted_instructions:
        block = blocks.covering(address)
        if block:
            covered += 1
            last_block, in_filler_run = block, False
            continue
        starts_run = (last_block is not None and last_block[1] == address
                      and address not in last_block[2])
        if FILLER.match(text) and (in_filler_run or starts_run):
            filler += 1
            in_filler_run = True
        else:
            missed.append(address)
            in_filler_run = False
        last_block = None
    return covered, filler, missed


def self_test(emitted_instructions, cfg):
    """The check must notice a missing block: drops each function's entry block in turn from a
    copy of `cfg` and returns the number of drops it failed to notice (0 when it works)."""
    unnoticed = 0
    for i, function in enumerate(cfg["functions"]):
        if not function["blocks"]:
            continue
        functions = [dict(f) for f in cfg["functions"]]
        functions[i]["blocks"] = [b for b in function["blocks"]
                                  if b["start"] != function["entry"]]
        # The entry block may also be a block of another function (shared code).
        if any(b["start"] == function["entry"] for f in functions for b in f["blocks"]):
            continue
        start = int(function["entry"], 16)
        if not any(a == start for a, _ in emitted_instructions):
            continue
        if start not in check(emitted_instructions, {"functions": functions})[2]:
            unnoticed += 1
    return unnoticed
