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
real code uncovered and fails the check. The one exception: the code a compiler put after a
call that never returns though the compiler did not know it, up to its jmp or ret, is dead too
and counted with the filler: a call of `error (N, ...)` with a constant N != 0 (the status is
read from the disassembly), and a direct call of a function of the program whose own
instructions (objdump's, in its symbol's range) hold no ret and no jmp out of that range
(clang -O0's `call writeError; jmp L` in bzip2recover, where writeError calls exit).
Only the standard library and binutils are used."""
import bisect
import re
import subprocess

LINE = re.compile(r"^\s*([0-9a-f]+):\t(.*)$")
FILLER = re.compile(r"^((data16|cs|ds|rex\.?\w*)\s+)*(nop[wlq]?|xchg\s+%ax,%ax|int3|hlt|ud2)\b")
EXITING_CALL = re.compile(r"^call\s+[0-9a-f]+ <(error|error_at_line)(@plt)?>$")
WRITES_EDI = re.compile(r"(^|,)%[er]di$")
STATUS = re.compile(r"^mov\s+\$0x([0-9a-f]+),%edi$")


DIRECT_CALL = re.compile(r"^call\s+([0-9a-f]+) <")
DIRECT_JMP = re.compile(r"^jmp\s+([0-9a-f]+) <")


class Emitted(list):
    """[(address, text)] in address order, with the start addresses of the functions whose
    own code never returns (`never_returning`) and of every function (`starts`)."""
    never_returning = frozenset()
    starts = frozenset()


def exits(emitted_instructions, i):
    """Whether instruction i is a call that never returns although the compiler did not know
    it, so that what the compiler put after it is dead: error() or error_at_line() whose status
    (edi, set by the last write of edi among the few instructions before it) is a nonzero
    constant, or a direct call of a function in `never_returning`."""
    text = emitted_instructions[i][1]
    call = DIRECT_CALL.match(text)
    if call and int(call.group(1), 16) in getattr(emitted_instructions, "never_returning", ()):
        return True
    if not EXITING_CALL.match(text):
        return False
    for _, text in reversed(emitted_instructions[max(0, i - 8):i]):
        if WRITES_EDI.search(text):
            status = STATUS.match(text)
            return bool(status) and int(status.group(1), 16) != 0
    return False


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
    """Emitted: the instructions inside function symbols with a size, in order."""
    ranges = {(sym["value"], sym["value"] + sym["size"]) for sym in elf.symbols()
              if sym["type"] == 2 and sym["shndx"] != 0 and sym["size"]
              and elf.executable(sym["value"])}
    result = Emitted(emitted_in(ranges, instructions))
    result.starts = frozenset(start for start, _ in ranges)
    addresses = sorted(instructions)
    result.never_returning = frozenset(
        start for start, end in ranges
        if never_returns(start, end, [instructions[a] for a in addresses[
            bisect.bisect_left(addresses, start):bisect.bisect_left(addresses, end)]]))
    return result


def never_returns(start, end, texts):
    """Whether the function's own code in [start, end) (its instructions' `texts`) has
    instructions and no way out: no ret, no indirect jmp, no jmp outside the range."""
    for text in texts:
        if re.match(r"^(ret|bnd\s+ret|rep\s+ret|notrack\s+jmp|jmp\s+\*)", text):
            return False
        jump = DIRECT_JMP.match(text)
        if jump and not start <= int(jump.group(1), 16) < end:
            return False
    return bool(texts)


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
    """Returns (covered, unreachable filler or dead code after an exiting call, [uncovered
    addresses])."""
    blocks = Blocks(cfg)
    covered = filler = 0
    missed = []
    last_block = None      # the covered block of the instruction before, if it was covered
    in_filler_run = False  # the instructions since last_block are accepted filler
    in_dead_run = False    # ... are dead code after error (status != 0, ...)
    for i, (address, text) in enumerate(emitted_instructions):
        block = blocks.covering(address)
        if block:
            covered += 1
            last_block, in_filler_run, in_dead_run = block, False, False
            continue
        starts_run = (last_block is not None and last_block[1] == address
                      and address not in last_block[2])
        # Dead code belongs to the function of the call: it ends where another one starts.
        another_function = address in getattr(emitted_instructions, "starts", ())
        if not another_function and (in_dead_run or
                                     (starts_run and exits(emitted_instructions, i - 1))):
            # Up to the dead code's own jmp or ret; only filler may follow uncovered.
            filler += 1
            in_dead_run = not re.match(r"^(ret|jmp)\b", text)
            in_filler_run = not in_dead_run
        elif FILLER.match(text) and (in_filler_run or starts_run):
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
