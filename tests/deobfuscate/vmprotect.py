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
A program's `dispatch` line chooses the interpreter's shape (DISPATCHES below).
Usage: vmprotect.py [--seed N] [--windows] PROGRAMS OUT.c OUT.h"""
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
            current = {"name": line.split()[1], "code": [], "labels": {}, "strings": {},
                       "dispatch": "switch"}
            programs.append(current)
        elif line.startswith("dispatch "):
            current["dispatch"] = line.split()[1]
            if current["dispatch"] not in DISPATCHES:
                sys.exit(f"{path}:{number}: unknown dispatch {current['dispatch']}")
        elif line == "flatten guest":
            current["flatten"] = True
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


def flatten_guest(program, index):
    """The program with its control flow flattened in the guest language itself (a layer
    under the VM): each basic block sets a state register (r7) and jumps to a dispatcher that
    finds the block by a binary search of `jlt` comparisons against the seeded states (r6
    holding each pivot). The program must leave r6 and r7 free."""
    code, labels = program["code"], program["labels"]
    for op, args in code:
        if any(a in ("r6", "r7") for a in args):
            sys.exit(f"{program['name']}: `flatten guest` needs r6 and r7 free")
    leaders = {0} | set(labels.values())
    for at, (op, _) in enumerate(code):
        if op in ("jlt", "jmp", "ret") and at + 1 < len(code):
            leaders.add(at + 1)
    starts = sorted(leaders)
    block_of = {start: number for number, start in enumerate(starts)}
    rng = program_random(index, 3)
    states = rng.sample(range(1, 1 << 31), len(starts))
    out, new_labels = [], {}

    def label(name):
        new_labels[name] = len(out)

    def goto_block(number):
        out.append(("movi", ["r7", str(states[number])]))
        out.append(("jmp", ["dispatch"]))

    goto_block(0)

    def search(items, name):
        label(name)
        if len(items) == 1:
            out.append(("jmp", [f"block{items[0][1]}"]))
            return
        middle = len(items) // 2
        out.append(("movi", ["r6", str(items[middle][0])]))
        out.append(("jlt", ["r7", "r6", f"{name}l"]))
        search(items[middle:], f"{name}h")
        search(items[:middle], f"{name}l")

    search(sorted((state, number) for number, state in enumerate(states)), "dispatch")
    target_block = {name: block_of[at] for name, at in labels.items()}
    for number, start in enumerate(starts):
        end = starts[number + 1] if number + 1 < len(starts) else len(code)
        label(f"block{number}")
        for at in range(start, end):
            op, args = code[at]
            if op == "jmp":
                goto_block(target_block[args[0]])
            elif op == "jlt":
                out.append(("jlt", [args[0], args[1], f"taken{number}"]))
                goto_block(block_of[at + 1])
                label(f"taken{number}")
                goto_block(target_block[args[2]])
            else:
                out.append((op, args))
        if code[end - 1][0] not in ("jmp", "jlt", "ret"):
            goto_block(block_of[end])
    return dict(program, code=out, labels=new_labels)


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


# --seed N chooses other opcode numbers, handler orders, state layouts and guard values; the
# default, 0, is what the samples' figures are measured with.
SEED = 0


def program_random(index, stream=0):
    """The random numbers of program `index` (stream 0: its encoding; 2: its guard value)."""
    return random.Random(index * 7919 + 1 + stream + SEED * 1000003)


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
    rng = program_random(index)
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


# The dispatch styles a program can ask for (`dispatch STYLE` in vm-programs.txt):
#   switch:         the interpreter above (a loop, a switch over the decrypted opcode);
#   threaded:       direct threading: the bytecode is words, each instruction the address of
#                   its handler (gcc's labels as values) and its encrypted operands, walked by
#                   a pointer (`goto **ip`), in a const array;
#   threaded-data:  the same bytecode in a writable array nothing writes (.data), walked by an
#                   index (`goto *code[pc]`);
#   context:        the switch interpreter with its whole state in a stack array indexed by a
#                   register: virtual PC, registers and a virtual stack (binary operations push
#                   both operands and pop the result) at seeded slots of `vm[c + slot]`;
#   nested:         an outer VM whose handler runs the switch interpreter as an inner VM, and
#                   whose dispatch depends on a .bss global that vm_setup_<name>() sets (the
#                   outer program jumps to a handler returning -1 unless the global holds a
#                   seeded value; plain_<name> checks the same);
#   flatten:        no VM: the program's control flow flattened, one `case` per instruction
#                   of a `switch` over a state variable in a loop, the states a seeded
#                   permutation of a dense range from a seeded base (gcc compiles the switch
#                   into a jump table), the next state chosen by each case (`cond ? S1 : S2`
#                   for a `jlt`) and hidden from gcc's jump threading by an empty asm;
#   flatten-search: the same with sparse seeded 32-bit states (gcc compiles the switch into
#                   a binary search of comparisons).
DISPATCHES = ["switch", "threaded", "threaded-data", "context", "nested", "flatten",
              "flatten-search"]


def operands(program, offsets):
    """The operands of each instruction as numbers, jump targets as offsets."""
    strings, labels = list(program["strings"]), program["labels"]
    out = []
    for op, args in program["code"]:
        if op in ("movi", "addi"):
            out.append([reg(args[0]), int(args[1], 0)])
        elif op == "jlt":
            out.append([reg(args[0]), reg(args[1]), offsets[labels[args[2]]]])
        elif op == "jmp":
            out.append([offsets[labels[args[0]]]])
        elif op in ("puts", "write"):
            out.append([strings.index(args[0])])
        elif op == "ret":
            out.append([reg(args[0])])
        else:
            out.append([reg(args[0]), reg(args[1])])
    return out


def word_key(at):
    return key(at) * 0x0101010101010101


# Threaded handlers: W(k) is operand k decrypted, JUMP(t) continues at word offset t, NEXT
# dispatches at the current word.
THREADED = {
    "movi": "r[W(1)] = (long)W(2);",
    "addi": "r[W(1)] += (long)W(2);",
    "jlt": "if (r[W(1)] < r[W(2)]) JUMP(W(3));",
    "jmp": "JUMP(W(1));",
    "puts": "puts(STRINGS[W(1)]);",
    "write": "{ const char *s = STRINGS[W(1)]; write(1, s, strlen(s)); }",
    "ret": "return r[W(1)];",
}
for name, symbol in BINARY.items():
    THREADED[name] = f"r[W(1)] {symbol}= r[W(2)];"
for name, symbol in SHIFTS.items():
    THREADED[name] = shift("W(1)", "W(2)", symbol)


def threaded(program, index, suffix, attributes, writable):
    """Direct threading: handler addresses in the bytecode, in seeded handler order."""
    name = program["name"]
    rng = program_random(index)
    offsets, size = [], 0
    for op, _ in program["code"]:
        offsets.append(size)
        size += 1 + {"movi": 2, "addi": 2, "jlt": 3, "jmp": 1, "puts": 1, "write": 1,
                     "ret": 1}.get(op, 2)
    words = []
    for (op, _), values in zip(program["code"], operands(program, offsets)):
        words.append(f"&&h_{op}")
        for value in values:
            encrypted = (value & (2**64 - 1)) ^ word_key(len(words))
            words.append(f"(void *){encrypted:#x}ULL")
    if writable:   # walked by an index: a read at a constant base plus a register
        # `used` keeps gcc from moving an array it sees unwritten to read-only data.
        table, state = "static void *code[] __attribute__((used))", "unsigned long pc = 0;"
        macros = {"W(k)": "((unsigned long long)code[pc + (k)] ^ WKEY(pc + (k)))",
                  "JUMP(t)": "do { pc = (t); NEXT; } while (0)", "NEXT": "goto *code[pc]",
                  "ADVANCE(n)": "pc += (n)"}
    else:          # walked by a pointer: goto **ip
        table, state = "static const void *const code[]", "const void *const *ip = code;"
        macros = {"W(k)": "((unsigned long long)ip[k] ^ WKEY(ip - code + (k)))",
                  "JUMP(t)": "do { ip = code + (t); NEXT; } while (0)",
                  "NEXT": "goto *(void *)*ip", "ADVANCE(n)": "ip += (n)"}
    lines = [f"#define {k} {v}" for k, v in macros.items()]
    lines += [f"{attributes}long obf_{name}{suffix}(long a, long b) {{",
              f"  {table} = {{{', '.join(words)}}};",
              "  long r[8] = {a, b, 0, 0, 0, 0, 0, 0};",
              f"  {state}",
              "  NEXT;"]
    order = list(OPS)
    rng.shuffle(order)
    for op in order:
        count = 1 + {"movi": 2, "addi": 2, "jlt": 3, "jmp": 1, "puts": 1, "write": 1,
                     "ret": 1}.get(op, 2)
        tail = "" if op in ("jmp", "ret") else f" ADVANCE({count}); NEXT;"
        lines.append(f"h_{op}: {THREADED[op]}{tail}")
    lines.append("}")
    lines += [f"#undef {k.split('(')[0]}" for k in macros]
    return "\n".join(lines).replace("STRINGS", f"strings_{name}")


def context(program, index, suffix, attributes):
    """The switch interpreter with its state in `long vm[]` at slots c + seeded offsets, c a
    register the compiler cannot fold (an empty asm hides its 0)."""
    name = program["name"]
    rng = program_random(index)
    opcode_of = dict(zip(OPS, rng.sample(range(1, 256), len(OPS))))
    segments = [("R", 8), ("P", 1), ("S", 1), ("K", 4)]
    rng.shuffle(segments)
    slot, at = {}, 0
    for segment, width in segments:
        at += rng.randrange(2)
        slot[segment] = at
        at += width
    handlers = dict(HANDLERS)
    for op, symbol in BINARY.items():
        handlers[op] = ("{ unsigned d = CODE[pc + 1] ^ KEY(pc + 1), s = CODE[pc + 2] ^ KEY(pc + 2);"
                        " PUSH(r[d]); PUSH(r[s]); { long y = POP(), x = POP(); PUSH(x "
                        f"{symbol} y); }} r[d] = POP(); pc += 3; break; }}")
    lines = [f"#define pc vm[c + {slot['P']}]",
             f"#define PUSH(v) (vm[c + {slot['K']} + vm[c + {slot['S']}]++] = (v))",
             f"#define POP() vm[c + {slot['K']} + --vm[c + {slot['S']}]]",
             f"{attributes}long obf_{name}{suffix}(long a, long b) {{",
             f"  long vm[{at}];",
             "  unsigned long c;",
             '  __asm__("" : "=r"(c) : "0"(0UL));',
             f"  long *r = vm + c + {slot['R']};",
             "  r[0] = a; r[1] = b;",
             "  for (int i = 2; i < 8; ++i) r[i] = 0;",
             f"  pc = 0; vm[c + {slot['S']}] = 0;",
             "  for (;;) {",
             "    switch (CODE[pc] ^ KEY(pc)) {"]
    order = list(OPS)
    rng.shuffle(order)
    lines += [f"    case {opcode_of[op]}: {handlers[op]}" for op in order]
    lines += ["    default: __builtin_trap();", "    }", "  }", "}",
              "#undef pc", "#undef PUSH", "#undef POP"]
    return "\n".join(lines).replace("CODE", f"code_{name}").replace("STRINGS", f"strings_{name}")


def flattened(program, index, suffix, attributes, dense):
    """The program's control flow flattened: a loop over `switch (state)`, one case per
    instruction, each choosing the next state; no bytecode."""
    name = program["name"]
    rng = program_random(index)
    count = len(program["code"])
    if dense:
        base = rng.randrange(1, 1 << 16)
        states = [base + k for k in rng.sample(range(count), count)]
    else:
        states = rng.sample(range(1, 1 << 32), count)
    labels = program["labels"]
    body = plain(program, index).split("\n")[2:-1]   # the statements, one per instruction
    cases = []
    for at, ((op, args), statement) in enumerate(zip(program["code"], body)):
        statement = statement.split(": ", 1)[1]
        following = f"{states[at + 1]}u" if at + 1 < count else "0u"
        if op == "jlt":
            target = states[labels[args[2]]]
            step = f"state = r[{reg(args[0])}] < r[{reg(args[1])}] ? {target}u : {following};"
        elif op == "jmp":
            step = f"state = {states[labels[args[0]]]}u;"
        elif op == "ret":
            step = statement
        else:
            step = f"{statement} state = {following};"
        cases.append((states[at], step))
    rng.shuffle(cases)
    lines = [f"{attributes}long obf_{name}{suffix}(long a, long b) {{",
             "  long r[8] = {a, b, 0, 0, 0, 0, 0, 0};",
             f"  unsigned state = {states[0]}u;",
             "  for (;;) {",
             '    __asm__("" : "+r"(state));',
             "    switch (state) {"]
    lines += [f"    case {value}u: {step} break;" for value, step in cases]
    lines += ["    default: __builtin_trap();", "    }", "  }", "}"]
    return "\n".join(lines)


def armed(program, index):
    """The value the nested VM's .bss global must hold (seeded)."""
    return program_random(index, 2).randrange(1, 1 << 31)


def nested(program, index, suffix, attributes):
    """An outer VM (its own opcodes and key) whose program is: a guard that continues, or jumps
    to a handler returning -1, on the value of a .bss global; a handler that runs the inner
    VM (the switch interpreter over the program's bytecode) to its `ret`; a return."""
    name = program["name"]
    rng = program_random(index)
    opcode_of = dict(zip(OPS, rng.sample(range(1, 256), len(OPS))))
    outer_ops = ["guard", "enter", "leave", "trap"]
    outer_of = dict(zip(outer_ops, rng.sample(range(1, 256), len(outer_ops))))
    outer = [outer_of["guard"], 4, outer_of["enter"], outer_of["leave"], outer_of["trap"]]
    encrypted = ", ".join(str(b ^ key(at + 0x80)) for at, b in enumerate(outer))
    handlers = dict(HANDLERS)
    handlers["ret"] = "{ acc = r[CODE[pc + 1] ^ KEY(pc + 1)]; goto inner_done; }"
    inner = [f"        case {opcode_of[op]}: {handlers[op]}" for op in OPS]
    cases = {
        "guard": f"opc = vm_armed_{name} == {armed(program, index)} ? opc + 2 :"
                 " (unsigned char)(OUTER[opc + 1] ^ KEY(opc + 0x81)); break;",
        "enter": "{ long r[8] = {a, b, 0, 0, 0, 0, 0, 0}; unsigned pc = 0;\n"
                 "      for (;;) {\n        switch (CODE[pc] ^ KEY(pc)) {\n" + "\n".join(inner) +
                 "\n        default: __builtin_trap();\n        }\n      }\n"
                 "    inner_done: opc += 1; break; }",
        "leave": "return acc;",
        "trap": "return -1;",
    }
    order = list(outer_ops)
    rng.shuffle(order)
    lines = [f"{attributes}long obf_{name}{suffix}(long a, long b) {{",
             f"  static const unsigned char outer[] = {{{encrypted}}};",
             "  long acc = 0;",
             "  unsigned opc = 0;",
             "  for (;;) {",
             "    switch (OUTER[opc] ^ KEY(opc + 0x80)) {"]
    lines += [f"    case {outer_of[op]}: {cases[op]}" for op in order]
    lines += ["    default: __builtin_trap();", "    }", "  }", "}"]
    return ("\n".join(lines).replace("OUTER", "outer").replace("CODE", f"code_{name}")
            .replace("STRINGS", f"strings_{name}"))


def shaped(program, index, suffix, attributes):
    """obf_<name><suffix> in the program's dispatch style, after the data it shares."""
    name, dispatch = program["name"], program["dispatch"]
    if dispatch == "switch":
        return protected(program, index, suffix, attributes)
    text = protected(program, index).split("\n")[:2] if not suffix else []
    if dispatch == "nested" and not suffix:
        text += [f"long vm_armed_{name};",
                 f"void vm_setup_{name}(void) {{ vm_armed_{name} = {armed(program, index)}; }}"]
    if dispatch.startswith("flatten"):
        return flattened(program, index, suffix, attributes, dispatch == "flatten")
    if dispatch.startswith("threaded"):
        text.append(threaded(program, index, suffix, attributes, dispatch == "threaded-data"))
    elif dispatch == "context":
        text.append(context(program, index, suffix, attributes))
    else:
        text.append(nested(program, index, suffix, attributes))
    return "\n".join(text)


def plain(program, index, suffix="", attributes=""):
    name = program["name"]
    lines = [f"{attributes}long plain_{name}{suffix}(long a, long b) {{", "  long r[8] = {a, b, 0, 0, 0, 0, 0, 0};"]
    if program["dispatch"] == "nested":
        lines.append(f"  if (vm_armed_{name} != {armed(program, index)}) return -1;")
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


# What each half of run-samples.sh builds: the PE half (mingw) and the hardened half (PIE)
# leave out the shape whose table a PIE or a PE reaches through an address that escapes
# (threaded-data: -O0 code holds the table's address in a register it also stores through;
# docs/DEOBFUSCATE.md, "Writable data").
PE_DISPATCHES = ["switch", "threaded", "context", "nested", "flatten", "flatten-search"]
PIE_DISPATCHES = ["switch", "threaded", "context", "nested", "flatten", "flatten-search"]


def main():
    global SEED
    args = sys.argv[1:]
    if args[0] == "--seed":
        SEED, args = int(args[1]), args[2:]
    windows = args[0] == "--windows"
    if windows:
        args = args[1:]
    programs = parse(args[0])
    indexed = [(index, p) for index, p in enumerate(programs)
               if not windows or p["dispatch"] in PE_DISPATCHES]
    with open(args[1], "w") as out:
        out.write("/* Generated by vmprotect.py from vm-programs.txt. */\n")
        out.write("#include <stdio.h>\n#include <string.h>\n")
        out.write(WINDOWS_OUTPUT if windows else "#include <unistd.h>\n")
        out.write("#define KEY(pc) ((unsigned char)((pc) * 0x5b + 0xa7))\n")
        out.write("#define WKEY(at) ((unsigned long long)KEY(at) * 0x0101010101010101ULL)\n\n")
        for index, program in indexed:
            guest = flatten_guest(program, index) if program.get("flatten") else program
            for suffix, attributes in VARIANTS:
                out.write(shaped(guest, index, suffix, attributes) + "\n\n" +
                          plain(program, index, suffix, attributes) + "\n\n")

    def samples(dispatches):
        return " ".join(f"X({p['name']}{suffix})" for _, p in indexed
                        if p["dispatch"] in dispatches for suffix, _ in VARIANTS)
    with open(args[2], "w") as out:
        out.write("/* Generated by vmprotect.py: X(name) per protected program and variant;\n"
                  "   G(global, value) per global the driver sets before the calls. */\n")
        out.write("#define VM_SAMPLES " + samples(DISPATCHES) + "\n")
        out.write("#define VM_PIE_SAMPLES " + samples(PIE_DISPATCHES) + "\n")
        out.write("#define VM_GLOBALS " + " ".join(
            f"G(vm_armed_{p['name']}, {armed(p, index)})" for index, p in indexed
            if p["dispatch"] == "nested") + "\n")


if __name__ == "__main__":
    main()
