#!/usr/bin/env python3
"""Checks the generated library prototypes against the compiler (issue 25, "Verification").

Picks a few hundred functions across the table (every n-th name, plus every variadic,
long double and struct-by-value one among a fixed share), writes a C file that calls each
through a pointer of the header's own type with distinct constant arguments, compiles it with
clang-19 -O2, and reads from llvm-objdump-19 which argument registers each call sets up: rdi,
rsi, rdx, rcx, r8, r9, xmm0-7, and al for a variadic call. Those must be what the table's ABI
classes say. A call whose setup cannot be attributed (scratch registers next to stack
arguments) is counted and reported, never silently passed; more than a tenth of them fails.

With --windows it checks the Windows table (WindowsPrototypes.inc, WindowsHeaders.h) under
the Microsoft x64 convention instead: x86_64-w64-mingw32-gcc -O2 compiles the calls, and the
registers are rcx, rdx, r8 and r9 or xmm0-3 by position; a variadic call also gets an int and
a double past its fixed parameters, the double in both its xmm and its integer register.

Usage: check_abi_against_clang.py TABLE.inc HEADERS.h WORKDIR [--mutate] [--windows]

--mutate swaps the Integer and Double classes in the table before checking, and succeeds only
if the check then finds calls that disagree: proof that it catches a wrong table.
"""

import os
import re
import subprocess
import sys

import clang.cindex as ci

LIBCLANG = "/usr/lib/llvm-19/lib/libclang-19.so.1"


class SystemV:
    parse_arguments = ["-x", "c", "-std=gnu11", "-target", "x86_64-pc-linux-gnu",
                       "-D_GNU_SOURCE"]
    compiler = ["clang-19", "-O2", "-c", "-w"] + parse_arguments[2:]
    gprs = ["rdi", "rsi", "rdx", "rcx", "r8", "r9"]
    xmms = ["xmm%d" % index for index in range(8)]
    sample_every = 13
    variadic_extra = ""   # al says how many vector registers a variadic call uses

    @staticmethod
    def expected_registers(entry):
        """The argument registers the table says a call sets up."""
        gprs, xmms = list(SystemV.gprs), list(SystemV.xmms)
        used_gprs, used_xmms = [], []
        if entry["result"][0] == "StructInMemory":
            used_gprs.append(gprs.pop(0))  # the hidden pointer to the result
        for abi_class, size, low, high, _ in entry["parameters"]:
            if abi_class in ("Integer", "Pointer"):
                need = ["I"] * (2 if int(size) > 8 else 1)
            elif abi_class in ("Float", "Double", "Vector"):
                need = ["S"]
            elif abi_class == "StructInRegisters":
                need = [{"Integer": "I", "Sse": "S"}[eightbyte]
                        for eightbyte in (low, high) if eightbyte != "None"]
            else:
                continue  # long double, memory: on the stack
            if need.count("I") > len(gprs) or need.count("S") > len(xmms):
                continue  # not enough registers left: the whole argument goes on the stack
            for kind in need:
                (used_gprs.append(gprs.pop(0)) if kind == "I" else used_xmms.append(xmms.pop(0)))
        return set(used_gprs), set(used_xmms)


class Win64:
    parse_arguments = ["-x", "c", "-std=gnu11", "-target", "x86_64-w64-mingw32",
                       "--sysroot=/usr/x86_64-w64-mingw32",
                       "-resource-dir", "/usr/lib/llvm-19/lib/clang/19",
                       "-D__USE_MINGW_ANSI_STDIO=0"]
    compiler = ["x86_64-w64-mingw32-gcc", "-O2", "-c", "-w", "-std=gnu11",
                "-D__USE_MINGW_ANSI_STDIO=0"]
    gprs = ["rcx", "rdx", "r8", "r9"]
    xmms = ["xmm%d" % index for index in range(4)]
    sample_every = 29
    # Past a variadic call's fixed parameters: an int, and a double that goes in both its
    # xmm register and its integer register (Microsoft x64, "Varargs").
    variadic_extra = "7, 8.5"

    @staticmethod
    def expected_registers(entry):
        """Positional: argument i in rcx/rdx/r8/r9 or xmm<i>, after the hidden result pointer
        of a result returned by reference."""
        classes = [parameter[0] for parameter in entry["parameters"]]
        if "Variadic" in entry["flags"]:
            classes += ["Integer", "VariadicDouble"]
        if entry["result"][0] == "ByReference":
            classes.insert(0, "Pointer")
        used_gprs, used_xmms = set(), set()
        for position, abi_class in enumerate(classes[:4]):
            if abi_class in ("Float", "Double", "VariadicDouble"):
                used_xmms.add(Win64.xmms[position])
            if abi_class != "Float" and abi_class != "Double":
                used_gprs.add(Win64.gprs[position])
        return used_gprs, used_xmms


ABI = SystemV
ARRAY_KINDS = (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY, ci.TypeKind.VARIABLEARRAY)

# An entry; a Windows entry goes on with its DLL, convention and writes.
ENTRY = re.compile(r'^    \{"([^"]+)", (\{[^}]*\}), GeneratedParameters \+ (\d+), (\d+), '
                   r'([^,}]*)(?:, (?:"([^"]+)"|nullptr), [^}]*)?\},$')
ABI_TYPE = re.compile(r"\{AbiClass::(\w+), (\d+), Eightbyte::(\w+), Eightbyte::(\w+), (\w+)(?:, \w+)?\}")


def read_table(path, mutate=False):
    text = open(path).read()
    if mutate:
        text = text.replace("AbiClass::Integer", "AbiClass::Swap")
        text = text.replace("AbiClass::Double", "AbiClass::Integer")
        text = text.replace("AbiClass::Swap", "AbiClass::Double")
    parameters = [match.groups() for match in
                  ABI_TYPE.finditer(text.split("GeneratedPrototypes[]")[0])]
    table = {}
    for line in text.splitlines():
        match = ENTRY.match(line)
        if not match:
            continue
        name, result, first, count, flags, dll = match.groups()
        first, count = int(first), int(count)
        # One entry per name: its DLLs share WindowsHeaders.h's declaration, except the
        # ucrt ones, whose C runtime declarations come from another parse.
        if name in table or (dll and (dll == "ucrtbase.dll" or dll.startswith("api-ms-win-crt-"))):
            continue
        table[name] = {"result": ABI_TYPE.match(result).groups(),
                       "parameters": parameters[first:first + count], "flags": flags}
    return table


def declared_types(headers, names):
    """The header's own parameter type spellings of each name declared under that name."""
    ci.Config.set_library_file(LIBCLANG)
    unit = ci.Index.create().parse(headers, args=ABI.parse_arguments)
    types = {}
    for cursor in unit.cursor.get_children():
        if cursor.kind != ci.CursorKind.FUNCTION_DECL or cursor.spelling not in names:
            continue
        if cursor.type.kind != ci.TypeKind.FUNCTIONPROTO or cursor.spelling in types:
            continue
        if (cursor.mangled_name or cursor.spelling).lstrip("\x01") != cursor.spelling:
            continue  # an asm label: the C name is not the symbol
        # An array parameter (va_list, `struct timespec[2]`) cannot be a cast's type; the
        # pointer it decays to takes a void pointer.
        types[cursor.spelling] = [cast_type(argument)
                                  for argument in cursor.type.argument_types()]
    return types


def cast_type(argument):
    """A type a constant can be cast to for `argument`: an array parameter (va_list, `struct
    timespec[2]`) cannot be a cast's type, so the pointer it decays to takes a void pointer.
    A union comes with its first member's type: a transparent one (glibc's __SOCKADDR_ARG,
    which the table classes as that member) is passed as the member."""
    canonical = argument.get_canonical()
    if canonical.kind in ARRAY_KINDS:
        return ("void *", None)
    declaration = canonical.get_declaration()
    if canonical.kind == ci.TypeKind.RECORD and declaration.kind == ci.CursorKind.UNION_DECL:
        return (argument.spelling, next(iter(canonical.get_fields())).type.spelling)
    return (argument.spelling, None)


def argument_expression(c_types, abi_class, index):
    c_type, member_type = c_types
    if member_type and abi_class in ("Integer", "Pointer"):
        c_type = member_type  # a transparent union, passed as its first member
    if abi_class in ("Float", "Double", "LongDouble", "ComplexLongDouble"):
        return "(%s)(%d.5)" % (c_type, index + 1)
    if abi_class in ("Integer", "Pointer"):
        return "(%s)%d" % (c_type, index + 1)
    return "(%s){0}" % c_type


def pick(table):
    names = sorted(table, key=lambda text: text.encode())
    # C++ symbols (mangled) are not declared by the C headers this check compiles against.
    functions = [name for name in names if "PrototypeFlag::Data" not in table[name]["flags"]
                 and not name.startswith("_Z")]
    picked = functions[::ABI.sample_every]
    for name in functions:
        entry = table[name]
        classes = [entry["result"][0]] + [parameter[0] for parameter in entry["parameters"]]
        interesting = ("Variadic" in entry["flags"] or "LongDouble" in classes
                       or "StructInRegisters" in classes or "StructInMemory" in classes
                       or "ByReference" in classes)
        if interesting and name not in picked:
            picked.append(name)
    return picked


def write_program(path, headers, calls):
    lines = ['#include "%s"' % headers]
    for index, (name, text) in enumerate(calls):
        lines.append("__typeof__(%s) *target_%d;" % (name, index))
        lines.append("void call_%d(void) { target_%d(%s); }" % (index, index, text))
    open(path, "w").write("\n".join(lines) + "\n")


REGISTER_NAMES = {}
for number, family in enumerate([("rdi", "edi", "di", "dil"), ("rsi", "esi", "si", "sil"),
                                 ("rdx", "edx", "dx", "dl"), ("rcx", "ecx", "cx", "cl"),
                                 ("r8", "r8d", "r8w", "r8b"), ("r9", "r9d", "r9w", "r9b"),
                                 ("rax", "eax", "ax", "al")]):
    for alias in family:
        REGISTER_NAMES[alias] = family[0]
for number in range(16):
    for prefix in ("xmm", "ymm"):
        REGISTER_NAMES["%s%d" % (prefix, number)] = "xmm%d" % number

INSTRUCTION = re.compile(r"^\s+[0-9a-f]+:\s+(\S+)\s*(.*)$")
FUNCTION = re.compile(r"^[0-9a-f]+ <call_(\d+)>:$")


def registers_read(mnemonic, operands):
    """The argument registers an instruction reads: all it names, but the destination of a
    plain move."""
    destination, _, sources = operands.partition(",")
    if not mnemonic.startswith(("mov", "lea", "cvt")) or "[" in destination:
        sources = operands
    return {REGISTER_NAMES[token] for token in re.findall(r"[a-z0-9]+", sources)
            if token in REGISTER_NAMES}


def call_setups(object_file):
    """For each call_N: (registers written before the call, al's value, stack stores, and
    the written registers read again before the call: scratch, when not arguments)."""
    disassembly = subprocess.run(
        ["llvm-objdump-19", "-d", "--no-show-raw-insn", "-M", "intel", object_file],
        check=True, capture_output=True, text=True).stdout
    setups, current = {}, None
    for line in disassembly.splitlines():
        function = FUNCTION.match(line)
        if function:
            current = {"written": set(), "al": None, "stack": False, "called": False,
                       "read": set()}
            setups[int(function.group(1))] = current
            continue
        instruction = INSTRUCTION.match(line)
        if not instruction or current is None or current["called"]:
            continue
        mnemonic, operands = instruction.groups()
        if mnemonic in ("call", "jmp"):
            # The pointer the call goes through is loaded into a scratch register first.
            current["written"].discard(REGISTER_NAMES.get(operands.strip()))
            current["called"] = True
            continue
        current["read"] |= registers_read(mnemonic, operands) & current["written"]
        destination = operands.split(",")[0].strip()
        if "rsp" in destination and "ptr" in destination:
            current["stack"] = True
        register = REGISTER_NAMES.get(destination)
        if register is None or mnemonic.startswith(("push", "cmp", "test")):
            continue
        current["written"].add(register)
        if register == "rax":
            source = operands.split(",")[-1].strip()
            if mnemonic == "xor" and source == destination:
                current["al"] = 0
            elif mnemonic == "mov" and re.fullmatch(r"\d+|0x[0-9a-f]+", source):
                current["al"] = int(source, 0)
    return setups


def compare(table, checked_names, setups):
    """(failures, unattributed): each call_<index> of setups checked against the table's entry
    of checked_names[index]."""
    failures, unattributed = [], []
    for index, name in enumerate(checked_names):
        entry = table[name]
        setup = setups.get(index)
        if setup is None or not setup["called"]:
            unattributed.append("%s: no call found" % name)
            continue
        gprs, xmms = ABI.expected_registers(entry)
        written = setup["written"]
        variadic = "Variadic" in entry["flags"]
        written_gprs = written & set(ABI.gprs)
        written_xmms = written & set(ABI.xmms)
        missing = (gprs - written_gprs) | (xmms - written_xmms)
        extra = (written_gprs - gprs) | (written_xmms - xmms)
        if ABI is SystemV and not variadic and "rax" in written:
            extra.add("rax")
        if missing:
            failures.append("%s: the table puts arguments in %s, the call does not set them"
                            % (name, sorted(missing)))
        elif extra and setup["stack"]:
            unattributed.append("%s: %s written next to stack arguments" % (name, sorted(extra)))
        elif extra and extra <= setup["read"]:
            unattributed.append("%s: %s written and read again, as scratch" % (name, sorted(extra)))
        elif extra:
            failures.append("%s: the call sets %s, which the table does not use"
                            % (name, sorted(extra)))
        elif ABI is SystemV and variadic and setup["al"] != len(xmms):
            failures.append("%s: al is %s, the table says %d vector registers"
                            % (name, setup["al"], len(xmms)))

    return failures, unattributed


def main():
    global ABI
    inc, headers, workdir = sys.argv[1:4]
    if "--windows" in sys.argv[4:]:
        ABI = Win64
    else:
        # The libraries' include directories, as the generator parses the headers with them.
        sys.path.insert(0, os.path.dirname(os.path.abspath(headers)))
        import generate_library_prototypes
        includes = ["-I" + directory
                    for directory in generate_library_prototypes.INCLUDE_DIRECTORIES]
        SystemV.parse_arguments = SystemV.parse_arguments + includes
        SystemV.compiler = SystemV.compiler + includes
    os.makedirs(workdir, exist_ok=True)
    table = read_table(inc, mutate="--mutate" in sys.argv[4:])
    picked = pick(table)
    types = declared_types(headers, set(picked))
    calls, checked_names = [], []
    for name in picked:
        if name not in types or len(types[name]) != len(table[name]["parameters"]):
            continue
        arguments = [argument_expression(c_type, parameter[0], index) for index, (c_type, parameter)
                     in enumerate(zip(types[name], table[name]["parameters"]))]
        if "Variadic" in table[name]["flags"] and ABI.variadic_extra:
            arguments.append(ABI.variadic_extra)
        calls.append((name, ", ".join(arguments)))
        checked_names.append(name)
    source = os.path.join(workdir, "calls.c")
    object_file = os.path.join(workdir, "calls.o")
    write_program(source, os.path.abspath(headers), calls)
    subprocess.run(ABI.compiler + ["-o", object_file, source], check=True)
    setups = call_setups(object_file)

    failures, unattributed = compare(table, checked_names, setups)

    print("checked %d calls of %d picked functions (%d not declared under their symbol name "
          "or with a different parameter count)" % (len(checked_names), len(picked),
                                                    len(picked) - len(checked_names)))
    finish(len(checked_names), failures, unattributed, "--mutate" in sys.argv[4:])


def finish(checked, failures, unattributed, mutated, minimum=200):
    """Prints the verdict and exits: a mutated table must disagree somewhere; a real one
    nowhere, with at most a tenth of `checked` unattributed and at least `minimum` checked."""
    for line in unattributed:
        print("unattributed: " + line)
    for line in failures:
        print("FAIL: " + line)
    print("%d agree, %d unattributed, %d disagree" % (
        checked - len(unattributed) - len(failures), len(unattributed), len(failures)))
    if mutated:
        sys.exit(0 if failures else "the mutated table was not caught")
    if failures or len(unattributed) * 10 > checked or checked < minimum:
        sys.exit(1)


if __name__ == "__main__":
    main()
