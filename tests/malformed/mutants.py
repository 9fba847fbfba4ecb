#!/usr/bin/env python3
"""Malformed-input test: real ELF and PE files, truncated and with header fields mutated, run
through `hoist info`, `hoist cfg --all` and `hoist lift`.

Every run must end with exit code 0 (a result, partial or not) or exit code 1 with a clear
message (a line `hoist: error: <the file>: ...`). Anything else fails the test: a signal
(crash), the timeout (hang), an allocation failure under the memory limit (out of memory), a
sanitizer report, or another exit code. docs/ROBUSTNESS.md lists the mutations.

  mutants.py --hoist build/tools/hoist/hoist --count 300 example.elf example.exe hoist_test.dll

The mutants are a pure function of --seed and --count: a failure is reproduced by the same
command line, and --keep DIR keeps the failing files. Thousands of mutants: --count 5000.
--seed fresh draws a new seed and prints it, so that each run tries mutants no run tried before.
"""
import argparse
import concurrent.futures
import os
import random
import re
import resource
import shutil
import struct
import subprocess
import sys
import tempfile
import time

# ---------------------------------------------------------------------------------------------
# Field values that break assumptions: zero, one, the file's size and its neighbours, the edges
# of 16, 32 and 64 bits, and random ones.


def interesting_values(width, file_size, rng):
    top = (1 << (8 * width)) - 1
    values = [0, 1, 2, 7, file_size - 1, file_size, file_size + 1, file_size * 2,
              0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFF0,
              0xFFFFFFFF, 1 << 32, 1 << 48, 0x7FFFFFFFFFFFFFFF, 1 << 63, top - 7, top]
    values = [v & top for v in values if v >= 0]
    values.append(rng.getrandbits(8 * width))
    return values


def put(data, offset, width, value):
    if 0 <= offset and offset + width <= len(data):
        fmt = {1: "<B", 2: "<H", 4: "<I", 8: "<Q"}[width]
        data[offset:offset + width] = struct.pack(fmt, value & ((1 << (8 * width)) - 1))


def get(data, offset, width):
    if offset < 0 or offset + width > len(data):
        return 0
    return struct.unpack_from({1: "<B", 2: "<H", 4: "<I", 8: "<Q"}[width], data, offset)[0]


class Field:
    """A header field of the original file: where it is, how wide, and what it describes."""

    def __init__(self, category, name, offset, width):
        self.category, self.name, self.offset, self.width = category, name, offset, width


# ---------------------------------------------------------------------------------------------
# ELF64: the file header, program headers, section headers, symbols, relocations, dynamic.

ELF_HEADER = [("e_entry", 24, 8), ("e_phoff", 32, 8), ("e_shoff", 40, 8),
              ("e_phentsize", 54, 2), ("e_phnum", 56, 2), ("e_shentsize", 58, 2),
              ("e_shnum", 60, 2), ("e_shstrndx", 62, 2)]
PROGRAM_HEADER = [("p_type", 0, 4), ("p_flags", 4, 4), ("p_offset", 8, 8), ("p_vaddr", 16, 8),
                  ("p_filesz", 32, 8), ("p_memsz", 40, 8), ("p_align", 48, 8)]
SECTION_HEADER = [("sh_name", 0, 4), ("sh_type", 4, 4), ("sh_flags", 8, 8), ("sh_addr", 16, 8),
                  ("sh_offset", 24, 8), ("sh_size", 32, 8), ("sh_link", 40, 4),
                  ("sh_info", 44, 4), ("sh_entsize", 56, 8)]
SHT_SYMTAB, SHT_RELA, SHT_DYNAMIC, SHT_DYNSYM = 2, 4, 6, 11


def elf_fields(data):
    fields = [Field("elf-header", name, off, width) for name, off, width in ELF_HEADER]
    phoff, phnum = get(data, 32, 8), get(data, 56, 2)
    shoff, shnum = get(data, 40, 8), get(data, 60, 2)
    for i in range(phnum):
        base = phoff + 56 * i
        fields += [Field("elf-segment", f"phdr[{i}].{n}", base + o, w) for n, o, w in PROGRAM_HEADER]
    for i in range(shnum):
        base = shoff + 64 * i
        fields += [Field("elf-section", f"shdr[{i}].{n}", base + o, w) for n, o, w in SECTION_HEADER]
        kind, offset, size = get(data, base + 4, 4), get(data, base + 24, 8), get(data, base + 32, 8)
        if offset + size > len(data):
            continue
        if kind in (SHT_SYMTAB, SHT_DYNSYM):
            # An absurd symbol count: the table's size, and symbols that point anywhere.
            fields.append(Field("elf-symbols", f"shdr[{i}].sh_size (symbol count)", base + 32, 8))
            for s in range(1, min(size // 24, 64)):
                at = offset + 24 * s
                fields += [Field("elf-symbols", f"sym[{i}:{s}].st_name", at, 4),
                           Field("elf-symbols", f"sym[{i}:{s}].st_shndx", at + 6, 2),
                           Field("elf-symbols", f"sym[{i}:{s}].st_value", at + 8, 8),
                           Field("elf-symbols", f"sym[{i}:{s}].st_size", at + 16, 8)]
        elif kind == SHT_RELA:
            for r in range(min(size // 24, 64)):
                at = offset + 24 * r
                fields += [Field("elf-relocations", f"rela[{i}:{r}].r_offset", at, 8),
                           Field("elf-relocations", f"rela[{i}:{r}].r_info", at + 8, 8)]
        elif kind == SHT_DYNAMIC:
            for d in range(min(size // 16, 64)):
                fields.append(Field("elf-dynamic", f"dyn[{i}:{d}].d_val", offset + 16 * d + 8, 8))
    return fields


# ---------------------------------------------------------------------------------------------
# PE32+: DOS and COFF headers, optional header and data directories, sections, imports,
# exports (forwarders that loop), base relocations, .pdata.

DIRECTORY_NAMES = ["export", "import", "resource", "exception", "security", "basereloc",
                   "debug", "architecture", "globalptr", "tls", "loadconfig", "boundimport",
                   "iat", "delayimport", "clr", "reserved"]


class Pe:
    def __init__(self, data):
        self.lfanew = get(data, 0x3C, 4)
        self.coff = self.lfanew + 4
        self.sections_count = get(data, self.coff + 2, 2)
        self.optional = self.coff + 20
        self.optional_size = get(data, self.coff + 16, 2)
        self.directories = self.optional + 112
        self.section_table = self.optional + self.optional_size
        self.sections = []
        for i in range(self.sections_count):
            at = self.section_table + 40 * i
            self.sections.append((get(data, at + 12, 4), get(data, at + 8, 4),
                                  get(data, at + 20, 4), get(data, at + 16, 4)))

    def offset(self, rva):
        for address, size, raw, raw_size in self.sections:
            if address <= rva < address + max(size, raw_size) and rva - address < raw_size:
                return raw + rva - address
        return None

    def directory(self, data, index):
        return get(data, self.directories + 8 * index, 4), get(data, self.directories + 8 * index + 4, 4)


def pe_fields(data):
    pe = Pe(data)
    fields = [Field("pe-header", "e_lfanew", 0x3C, 4),
              Field("pe-header", "NumberOfSections", pe.coff + 2, 2),
              Field("pe-header", "PointerToSymbolTable", pe.coff + 8, 4),
              Field("pe-symbols", "NumberOfSymbols", pe.coff + 12, 4),
              Field("pe-header", "SizeOfOptionalHeader", pe.coff + 16, 2),
              Field("pe-header", "AddressOfEntryPoint", pe.optional + 16, 4),
              Field("pe-header", "ImageBase", pe.optional + 24, 8),
              Field("pe-header", "SectionAlignment", pe.optional + 32, 4),
              Field("pe-header", "SizeOfImage", pe.optional + 56, 4),
              Field("pe-header", "SizeOfHeaders", pe.optional + 60, 4),
              Field("pe-header", "NumberOfRvaAndSizes", pe.optional + 108, 4)]
    for index, name in enumerate(DIRECTORY_NAMES):
        fields += [Field("pe-directory", f"{name}.rva", pe.directories + 8 * index, 4),
                   Field("pe-directory", f"{name}.size", pe.directories + 8 * index + 4, 4)]
    for i in range(pe.sections_count):
        at = pe.section_table + 40 * i
        fields += [Field("pe-section", f"section[{i}].{n}", at + o, 4)
                   for n, o in (("VirtualSize", 8), ("VirtualAddress", 12),
                                ("SizeOfRawData", 16), ("PointerToRawData", 20))]
    imports = pe.offset(pe.directory(data, 1)[0])
    if imports is not None:
        for d in range(16):
            at = imports + 20 * d
            if get(data, at + 12, 4) == 0:
                break
            fields += [Field("pe-imports", f"import[{d}].{n}", at + o, 4)
                       for n, o in (("OriginalFirstThunk", 0), ("Name", 12), ("FirstThunk", 16))]
            thunks = pe.offset(get(data, at, 4))
            for t in range(4 if thunks is not None else 0):
                fields.append(Field("pe-imports", f"import[{d}].thunk[{t}]", thunks + 8 * t, 8))
    exports = pe.offset(pe.directory(data, 0)[0])
    if exports is not None:
        fields += [Field("pe-exports", f"export.{n}", exports + o, 4)
                   for n, o in (("Name", 12), ("Base", 16), ("NumberOfFunctions", 20),
                                ("NumberOfNames", 24), ("AddressOfFunctions", 28),
                                ("AddressOfNames", 32), ("AddressOfNameOrdinals", 36))]
    relocations = pe.offset(pe.directory(data, 5)[0])
    if relocations is not None:
        fields += [Field("pe-relocations", "reloc.PageRVA", relocations, 4),
                   Field("pe-relocations", "reloc.BlockSize", relocations + 4, 4)]
        fields += [Field("pe-relocations", f"reloc.entry[{e}]", relocations + 8 + 2 * e, 2)
                   for e in range(8)]
    pdata = pe.offset(pe.directory(data, 3)[0])
    if pdata is not None:
        for r in range(8):
            fields += [Field("pe-pdata", f"pdata[{r}].{n}", pdata + 12 * r + o, 4)
                       for n, o in (("Begin", 0), ("End", 4), ("UnwindInfo", 8))]
    return fields


def pe_looping_forwarder(data, rng):
    """An export that forwards to itself (`DLL.#ordinal` naming this very export): a loop a
    naive resolver never leaves."""
    pe = Pe(data)
    rva, size = pe.directory(data, 0)
    exports = pe.offset(rva)
    if exports is None or get(data, exports + 20, 4) == 0:
        return None
    functions = pe.offset(get(data, exports + 28, 4))
    dll_name_at = pe.offset(get(data, exports + 12, 4))
    if functions is None or dll_name_at is None:
        return None
    dll_name = bytes(data[dll_name_at:data.index(0, dll_name_at)])
    ordinal = get(data, exports + 16, 4)   # the first function's: Base + 0
    forwarder = dll_name.rsplit(b".", 1)[0] + b".#" + str(ordinal).encode() + b"\0"
    if len(forwarder) > len(dll_name) + 1:
        return None
    # The forwarder string replaces the DLL's name (inside the export directory, where
    # forwarder strings live); the first function's RVA points at it.
    data[dll_name_at:dll_name_at + len(forwarder)] = forwarder
    put(data, functions, 4, get(data, exports + 12, 4))
    put(data, pe.directories + 4, 4, max(size, get(data, exports + 12, 4) - rva + len(forwarder)))
    return f"export #{ordinal} forwards to itself ({forwarder[:-1].decode(errors='replace')})"


def pe_looping_imports(data, rng):
    pe = Pe(data)
    rva, _ = pe.directory(data, 1)
    imports = pe.offset(rva)
    if imports is None:
        return None
    # Thunks that are the descriptors themselves, and a name inside them.
    put(data, imports + 0, 4, rva)
    put(data, imports + 16, 4, rva)
    put(data, imports + 12, 4, rva + rng.randrange(0, 20))
    return "import descriptor whose thunks and name are the directory itself"


# ---------------------------------------------------------------------------------------------
# Mutants


def field_mutant(data, fields, category, rng):
    candidates = [f for f in fields if f.category == category]
    if not candidates:
        return None
    field = rng.choice(candidates)
    original = get(data, field.offset, field.width)
    values = interesting_values(field.width, len(data), rng)
    # Overlap: the value of another field of the same kind (another section's offset, ...).
    same_kind = [f for f in fields if f.name.split(".")[-1] == field.name.split(".")[-1]
                 and f is not field]
    if same_kind:
        values.append(get(data, rng.choice(same_kind).offset, field.width))
    values += [original + rng.randrange(1, 64), max(0, original - rng.randrange(1, 64))]
    value = rng.choice(values)
    put(data, field.offset, field.width, value)
    return f"{field.name} {original:#x} -> {value & ((1 << (8 * field.width)) - 1):#x}"


def truncate(data, rng):
    # Header boundaries are the interesting ones; every tenth cut is anywhere.
    interesting = [1, 4, 16, 63, 64, 100, 0x40, 0x80, 0x100, 0x200, 0x400, 0x1000]
    cut = rng.choice(interesting) if rng.random() < 0.3 else rng.randrange(1, len(data))
    cut = min(cut, len(data) - 1)
    del data[cut:]
    return f"truncated at {cut:#x}"


def damage(data, rng):
    count = rng.choice([1, 2, 8, 64])
    for _ in range(count):
        data[rng.randrange(len(data))] = rng.getrandbits(8)
    return f"{count} random bytes"


def make_mutant(original, index, ordinal, seed):
    """Mutant number `index` overall, `ordinal` of its file: the category goes round-robin over
    the file's mutants, the rest is random."""
    rng = random.Random(f"{seed}:{index}")
    data = bytearray(original)
    is_pe = data[:2] == b"MZ"
    fields = pe_fields(data) if is_pe else elf_fields(data)
    categories = ["truncate", "damage"] + sorted({f.category for f in fields})
    if is_pe:
        categories += ["pe-forwarder-loop", "pe-import-loop"]
    category = categories[ordinal % len(categories)]
    if category == "truncate":
        what = truncate(data, rng)
    elif category == "damage":
        what = damage(data, rng)
    elif category == "pe-forwarder-loop":
        what = pe_looping_forwarder(data, rng)
    elif category == "pe-import-loop":
        what = pe_looping_imports(data, rng)
    else:
        what = field_mutant(data, fields, category, rng)
    if what is None:   # the file has no such structure: damage it instead
        category, what = "damage", damage(data, rng)
    return category, what, bytes(data)


# ---------------------------------------------------------------------------------------------
# Running hoist


SANITIZER_REPORT = re.compile(r"ERROR: (Address|Leak|Memory)Sanitizer|runtime error:")


def commands(hoist, path, index):
    yield [hoist, "info", path]
    yield [hoist, "cfg", "--all", path]
    # Lifting is the costly part: the entry (or main) without callees for most mutants, the
    # whole program for every eighth.
    if index % 8 == 0:
        yield [hoist, "lift", "--all", "--verify", "-o", os.devnull, path]
    else:
        yield [hoist, "lift", "--callees=false", "-o", os.devnull, path]


def limit_memory(mebibytes):
    def apply():
        if mebibytes:
            limit = mebibytes << 20
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return apply


def verdict(path, returncode, stderr):
    """None when the run behaved, else what went wrong."""
    if SANITIZER_REPORT.search(stderr):
        return "sanitizer"
    if returncode == 0:
        return None
    if returncode == 1:
        name = re.escape(path)
        if re.search(rf"^hoist: error: {name}: \S", stderr, re.M):
            return None
        return "unclear-message"
    if "bad_alloc" in stderr or "out of memory" in stderr.lower():
        return "out-of-memory"
    if returncode < 0:
        return "crash"
    return f"exit-{returncode}"


def run_mutant(args, workdir, source, index, original):
    category, what, data = make_mutant(original, index, index // len(args.inputs), args.seed)
    extension = ".exe" if data[:2] == b"MZ" or source.endswith((".exe", ".dll")) else ".elf"
    path = os.path.join(workdir, f"mutant-{index}{extension}")
    with open(path, "wb") as out:
        out.write(data)
    failures = []
    exits = []
    for command in commands(args.hoist, path, index):
        try:
            result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                    timeout=args.timeout, preexec_fn=limit_memory(args.memory))
            problem = verdict(path, result.returncode, result.stderr.decode(errors="replace"))
            stderr = result.stderr.decode(errors="replace")
            exits.append(result.returncode)
        except subprocess.TimeoutExpired as timeout:
            problem, stderr = "hang", (timeout.stderr or b"").decode(errors="replace")
        except OSError as error:   # hoist itself cannot start (being rebuilt, say)
            problem, stderr = "cannot-run", str(error)
        if problem:
            failures.append((problem, " ".join(command[1:-1]), stderr.strip().splitlines()[-3:]))
    if failures and args.keep:
        os.makedirs(args.keep, exist_ok=True)
        shutil.copy(path, os.path.join(args.keep, os.path.basename(path)))
    os.unlink(path)
    return source, index, category, what, failures, exits


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", nargs="+", help="ELF and PE files to mutate")
    parser.add_argument("--hoist", required=True)
    parser.add_argument("--count", type=int, default=300, help="mutants in all (default 300)")
    parser.add_argument("--seed", default="hoist",
                        help="the mutants are a function of it; fresh: a new one, printed")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--timeout", type=float, default=60, help="seconds per run (a hang)")
    parser.add_argument("--memory", type=int, default=4096,
                        help="address-space limit per run, MiB (0: none, for ASan builds)")
    parser.add_argument("--keep", help="copy failing mutants into this directory")
    args = parser.parse_args()
    if args.seed == "fresh":
        args.seed = str(random.SystemRandom().randrange(1 << 32))
    print(f"seed: {args.seed}")
    # The reproducing command names the seed, fresh or not.
    command = []
    arguments = iter(sys.argv)
    for arg in arguments:
        if arg == "--seed":
            next(arguments, None)
        elif not arg.startswith("--seed="):
            command.append(arg)
    command += ["--seed", args.seed]

    originals = {path: open(path, "rb").read() for path in args.inputs}
    start = time.monotonic()
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="hoist-mutants-") as workdir, \
            concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        jobs = [pool.submit(run_mutant, args, workdir, source, index, originals[source])
                for index in range(args.count)
                for source in [args.inputs[index % len(args.inputs)]]]
        for job in concurrent.futures.as_completed(jobs):
            outcomes.append(job.result())

    failed = [o for o in outcomes if o[4]]
    categories = {}
    for _, _, category, _, _, _ in outcomes:
        categories[category] = categories.get(category, 0) + 1
    exits = [code for outcome in outcomes for code in outcome[5]]
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    print("mutants: " + ", ".join(f"{c} {n}" for c, n in sorted(categories.items())))
    print(f"runs: {len(exits)}, exit 0 (a result) {exits.count(0)}, exit 1 (refused with a "
          f"message) {exits.count(1)}")
    for source, index, category, what, failures, _ in sorted(failed, key=lambda o: o[1]):
        for problem, command, lines in failures:
            print(f"FAIL {problem}: mutant {index} of {os.path.basename(source)} ({category}: "
                  f"{what}), hoist {command}")
            for line in lines:
                print(f"    {line}")
    print(f"malformed inputs: {len(outcomes)} mutants, {len(failed)} failing, "
          f"{time.monotonic() - start:.1f} s wall, {usage.ru_utime + usage.ru_stime:.1f} s CPU")
    if failed:
        print(f"reproduce: {' '.join(command)} --keep /tmp/hoist-failing-mutants")
        return 1
    print("malformed inputs: every run ended with exit 0 or a clear error")
    return 0


if __name__ == "__main__":
    sys.exit(main())
