#!/usr/bin/env python3
"""The test VM protector (docs/DEOBFUSCATE.md): compiles the guest programs of a text file
(vm-programs.txt documents the language) into C. For each program it writes

  obf_<name>:   the program as bytecode in a const array, run by an interpreter: a dispatcher
                loop that decrypts each opcode (xor with a key derived from the virtual PC),
                switches over a per-program permutation of the opcodes, and runs handlers
                that decode their operands from the bytecode and work on a register array;
  plain_<name>: the same program as straight C (one label per instruction, gotos),

both `long f(long a, long b)`, each twice: as the file is compiled and, suffixed _o0, at -O0
(the interpreter's state in stack slots), and a header line for the test driver.
With --windows the output is for mingw: `puts` and `write` become
WriteConsoleA(GetStdHandle(STD_OUTPUT_HANDLE), ...), the console output of a PE.
Usage: vmprotect.py [--windows] PROGRAMS OUT.c OUT.h"""
import random
import re
import sys

OPS = ["movi", "addi", "add", "sub", "mul", "xor", "and", "or", "shl", "shr",
       "jlt", "jmp", "puts", "write", "ret"]
BINARY = {"add": "+", "sub": "-", "mul": "*", "xor": "^", "and": "&", "or": "|"}
# Shifts are logical and by the low 6 bits of the count, as x86-64's are.
SHIFTS = {"shl": "<<", "shr": ">>"}


def shift(d, s, symbol):
    """The C statement r[d] = r[d] shifted by r[s] (d and s: C expressions of the indices)."""
    return f"r[{d}] = (long)((unsigned long)r[{d}] {symbol} (r[{s}] & 63));"


def parse(path):
    programs, current = [], None
    for number, raw in enumerate(open(path), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("program "):
            current = {"name": line.split()[1], "code": [], "labels": {}, "strings": {}}
            programs.append(current)
        elif line.startswith("string "):
            name, text = re.match(r'string (\w+) "(.*)"$', line).groups()
            current["strings"][name] = text
        elif line.endswith(":"):
            current["labels"][line[:-1]] = len(current["code"])
        else:
            op, _, rest = line.partition(" ")
            args = [a.strip() for a in rest.split(",")] if rest else []
            if op not in OPS:
                sys.exit(f"{path}:{number}: unknown instruction {op}")
            current["code"].append((op, args))
    return programs


def reg(arg):
    return int(arg.lstrip("r"))


def encode(program, opcode_of):
    """Bytecode (before encryption) and the byte offset of each instruction."""
    offsets, size = [], 0
    for op, args in program["code"]:
        offsets.append(size)
        size += {"movi": 10, "addi": 6, "jlt": 5, "jmp": 3, "puts": 2, "write": 2,
                 "ret": 2}.get(op, 3)
    strings = list(program["strings"])
    out = []
    for (op, args), at in zip(program["code"], offsets):
        out.append(opcode_of[op])
        if op in ("movi", "addi"):
            width = 8 if op == "movi" else 4
            value = int(args[1], 0) & ((1 << (8 * width)) - 1)
            out += [reg(args[0])] + list(value.to_bytes(width, "little"))
        elif op == "jlt":
            target = offsets[program["labels"][args[2]]]
            out += [reg(args[0]), reg(args[1])] + list(target.to_bytes(2, "little"))
        elif op == "jmp":
            out += list(offsets[program["labels"][args[0]]].to_bytes(2, "little"))
        elif op in ("puts", "write"):
            out.append(strings.index(args[0]))
        elif op == "ret":
            out.append(reg(args[0]))
        else:
            out += [reg(args[0]), reg(args[1])]
    return out


def key(pc):
    return (pc * 0x5B + 0xA7) & 0xFF


HANDLERS = {
    "movi": "{ unsigned d = CODE[pc + 1]; unsigned long v = 0;"
            " for (int i = 7; i >= 0; --i) v = (v << 8) | (unsigned char)(CODE[pc + 2 + i] ^ KEY(pc + 2 + i));"
            " r[d ^ KEY(pc + 1)] = (long)v; pc += 10; break; }",
    "addi": "{ unsigned d = CODE[pc + 1] ^ KEY(pc + 1); unsigned v = 0;"
            " for (int i = 3; i >= 0; --i) v = (v << 8) | (unsigned char)(CODE[pc + 2 + i] ^ KEY(pc + 2 + i));"
            " r[d] += (int)v; pc += 6; break; }",
    "jlt": "{ unsigned x = CODE[pc + 1] ^ KEY(pc + 1), y = CODE[pc + 2] ^ KEY(pc + 2);"
           " unsigned t = (unsigned char)(CODE[pc + 3] ^ KEY(pc + 3)) | (unsigned char)(CODE[pc + 4] ^ KEY(pc + 4)) << 8;"
           " pc = r[x] < r[y] ? t : pc + 5; break; }",
    "jmp": "{ pc = (unsigned char)(CODE[pc + 1] ^ KEY(pc + 1)) | (unsigned char)(CODE[pc + 2] ^ KEY(pc + 2)) << 8; break; }",
    "puts": "{ puts(STRINGS[CODE[pc + 1] ^ KEY(pc + 1)]); pc += 2; break; }",
    "write": "{ const char *s = STRINGS[CODE[pc + 1] ^ KEY(pc + 1)]; write(1, s, strlen(s)); pc += 2; break; }",
    "ret": "{ return r[CODE[pc + 1] ^ KEY(pc + 1)]; }",
}
for name, symbol in BINARY.items():
    HANDLERS[name] = ("{ unsigned d = CODE[pc + 1] ^ KEY(pc + 1), s = CODE[pc + 2] ^ KEY(pc + 2);"
                      f" r[d] {symbol}= r[s]; pc += 3; break; }}")
for name, symbol in SHIFTS.items():
    HANDLERS[name] = ("{ unsigned d = CODE[pc + 1] ^ KEY(pc + 1), s = CODE[pc + 2] ^ KEY(pc + 2);"
                      f" {shift('d', 's', symbol)} pc += 3; break; }}")


def c_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


VARIANTS = [("", ""), ("_o0", '__attribute__((optimize("O0"))) ')]


def protected(program, index, suffix="", attributes=""):
    name = program["name"]
    rng = random.Random(index * 7919 + 1)
    numbers = rng.sample(range(1, 256), len(OPS))
    opcode_of = dict(zip(OPS, numbers))
    code = encode(program, opcode_of)
    encrypted = [b ^ key(pc) for pc, b in enumerate(code)]
    strings = ", ".join(c_string(t) for t in program["strings"].values()) or "0"
    lines = [f"static const unsigned char code_{name}[] = {{{', '.join(map(str, encrypted))}}};",
             f"static const char *const strings_{name}[] = {{{strings}}};",
             f"{attributes}long obf_{name}{suffix}(long a, long b) {{",
             "  long r[8] = {a, b, 0, 0, 0, 0, 0, 0};",
             "  unsigned pc = 0;",
             "  for (;;) {",
             "    switch (CODE[pc] ^ KEY(pc)) {"]
    for op in OPS:
        lines.append(f"    case {opcode_of[op]}: {HANDLERS[op]}")
    lines += ["    default: __builtin_trap();", "    }", "  }", "}"]
    text = "\n".join(lines).replace("CODE", f"code_{name}").replace("STRINGS", f"strings_{name}")
    if suffix:   # the bytecode and strings are the first variant's
        text = "\n".join(text.split("\n")[2:])
    return text


def plain(program, suffix="", attributes=""):
    name = program["name"]
    lines = [f"{attributes}long plain_{name}{suffix}(long a, long b) {{", "  long r[8] = {a, b, 0, 0, 0, 0, 0, 0};"]
    for at, (op, args) in enumerate(program["code"]):
        label = f"  i{at}: "
        if op == "movi":
            stmt = f"r[{reg(args[0])}] = (long){int(args[1], 0)}L;"
        elif op == "addi":
            stmt = f"r[{reg(args[0])}] += {int(args[1], 0)};"
        elif op in BINARY:
            stmt = f"r[{reg(args[0])}] {BINARY[op]}= r[{reg(args[1])}];"
        elif op in SHIFTS:
            stmt = shift(reg(args[0]), reg(args[1]), SHIFTS[op])
        elif op == "jlt":
            stmt = f"if (r[{reg(args[0])}] < r[{reg(args[1])}]) goto i{program['labels'][args[2]]};"
        elif op == "jmp":
            stmt = f"goto i{program['labels'][args[0]]};"
        elif op == "puts":
            stmt = f"puts({c_string(program['strings'][args[0]])});"
        elif op == "write":
            text = program["strings"][args[0]]
            stmt = f"write(1, {c_string(text)}, {len(text)});"
        else:
            stmt = f"return r[{reg(args[0])}];"
        lines.append(label + stmt)
    lines.append("}")
    return "\n".join(lines)


# The two kernel32 functions are declared dllimport, as windows.h declares them: calls go
# through the import address table (`call [rip+__imp_X]`, or `mov rbx, [__imp_X]` and
# `call rbx`), which brightening turns into calls of the imports by name.
WINDOWS_OUTPUT = """typedef void *HANDLE;
typedef unsigned long DWORD;
#define STD_OUTPUT_HANDLE ((DWORD)-11)
__declspec(dllimport) HANDLE GetStdHandle(DWORD);
__declspec(dllimport) int WriteConsoleA(HANDLE, const void *, DWORD, DWORD *, void *);
static void console(const char *s, int newline) {
  DWORD written;
  HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
  WriteConsoleA(out, s, (DWORD)strlen(s), &written, 0);
  if (newline)
    WriteConsoleA(out, "\\n", 1, &written, 0);
}
#define puts(s) console((s), 1)
#define write(fd, s, n) console((s), 0)
"""


def main():
    args = sys.argv[1:]
    windows = args[0] == "--windows"
    if windows:
        args = args[1:]
    programs = parse(args[0])
    with open(args[1], "w") as out:
        out.write("/* Generated by vmprotect.py from vm-programs.txt. */\n")
        out.write("#include <stdio.h>\n#include <string.h>\n")
        out.write(WINDOWS_OUTPUT if windows else "#include <unistd.h>\n")
        out.write("#define KEY(pc) ((unsigned char)((pc) * 0x5b + 0xa7))\n\n")
        for index, program in enumerate(programs):
            for suffix, attributes in VARIANTS:
                out.write(protected(program, index, suffix, attributes) + "\n\n" +
                          plain(program, suffix, attributes) + "\n\n")
    with open(args[2], "w") as out:
        out.write("/* Generated by vmprotect.py: X(name) per protected program and variant. */\n")
        out.write("#define VM_SAMPLES " + " ".join(
            f"X({p['name']}{suffix})" for p in programs for suffix, _ in VARIANTS) + "\n")


if __name__ == "__main__":
    main()
