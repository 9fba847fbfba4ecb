"""The compiler's truth about a mingw PE built with `-g -Wa,-L -save-temps`: function entries
from the COFF symbol table the linker keeps (unless stripped), jump tables from the assembly.

mingw's gcc writes a jump table as a label in .rdata followed by `.long .L5-.L4` entries
(target minus table). The assembly (`-save-temps` keeps it, from the same compilation) names
each table's label and its targets' labels; `-Wa,-L` keeps the local labels in the COFF symbol
table, which gives their addresses. Function extents come from the DWARF (`-g`), read with
llvm-dwarfdump. Otherwise only the standard library is used."""
import os
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from elf_truth import part_parent_name  # noqa: E402

TABLE_LABEL = re.compile(r"^(\.L\d+):$")
TABLE_ENTRY = re.compile(r"^\s*\.long\s+(\.L\d+)-(\.L\d+)\s*$")
IMAGE_SCN_MEM_EXECUTE = 0x20000000
DTYPE_FUNCTION = 0x20
C_FILE = 103


class Pe:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        (pe,) = struct.unpack_from("<I", self.data, 0x3C)
        if self.data[pe:pe + 4] != b"PE\0\0":
            raise ValueError(f"{path}: not a PE file")
        coff = pe + 4
        (_, nsections, _, self.symtab, self.nsymbols, optsize, _) = struct.unpack_from(
            "<HHIIIHH", self.data, coff)
        optional = coff + 20
        if struct.unpack_from("<H", self.data, optional)[0] != 0x20B:
            raise ValueError(f"{path}: not PE32+")
        (self.image_base,) = struct.unpack_from("<Q", self.data, optional + 24)
        self.sections = []
        for i in range(nsections):
            off = optional + optsize + 40 * i
            name = self.data[off:off + 8].rstrip(b"\0").decode()
            vsize, va, rawsize, rawptr = struct.unpack_from("<IIII", self.data, off + 8)
            (flags,) = struct.unpack_from("<I", self.data, off + 36)
            self.sections.append(dict(name=name, va=va, size=vsize, flags=flags,
                                      rawsize=rawsize, rawptr=rawptr))

    def read(self, address, size):
        for sec in self.sections:
            offset = address - self.image_base - sec["va"]
            if 0 <= offset < min(sec["size"], sec["rawsize"]):
                return self.data[sec["rawptr"] + offset:sec["rawptr"] + offset + size]
        return b""

    def is_import_thunk(self, address):
        """`jmp [rip+slot]`: mingw's thunk for an import, which hoist reports as the import
        (and which the import libraries type as a function or not, at random)."""
        return self.read(address, 2) == b"\xff\x25"

    def symbols(self):
        """(name, address, section, type) of every symbol with a section, aux entries skipped."""
        for name, address, section, kind, _ in self.symbols_with_files():
            if section is not None:
                yield name, address, section, kind

    def symbols_with_files(self):
        """(name, address or None, section or None, type, source file) of every symbol: the
        file is that of the last `.file` symbol before it."""
        strings = self.symtab + 18 * self.nsymbols
        source = None
        i = 0
        while i < self.nsymbols:
            off = self.symtab + 18 * i
            raw = self.data[off:off + 8]
            if raw[:4] == b"\0\0\0\0":
                (offset,) = struct.unpack_from("<I", raw, 4)
                start = strings + offset
                name = self.data[start:self.data.index(b"\0", start)].decode()
            else:
                name = raw.rstrip(b"\0").decode()
            value, section, kind, storage, naux = struct.unpack_from("<IhHBB", self.data,
                                                                     off + 8)
            if storage == C_FILE and naux:
                aux = self.data[off + 18:off + 18 + 18 * naux]
                source = aux.rstrip(b"\0").decode(errors="replace")
            if 0 < section <= len(self.sections):
                sec = self.sections[section - 1]
                yield name, self.image_base + sec["va"] + value, sec, kind, source
            else:
                yield name, None, None, kind, source
            i += 1 + naux


def function_entries(pe):
    """Symbols typed as functions in executable sections, import thunks and gcc's parts of
    functions (`f.cold`) left out. Functions written in assembly (`___chkstk_ms`) have no type,
    so they are not in the truth."""
    return {address for name, address, section, kind in pe.symbols()
            if kind & 0x30 == DTYPE_FUNCTION and section["flags"] & IMAGE_SCN_MEM_EXECUTE
            and not pe.is_import_thunk(address) and part_parent_name(name) is None}


def jump_tables(pe, assembly_path):
    """{table address: set of target addresses} from the `.long .Lx-.Ltable` runs."""
    labels = {}
    for name, address, _, _ in pe.symbols():
        if name.startswith(".L"):
            labels.setdefault(name, address)
    tables = {}
    current = None
    with open(assembly_path) as f:
        for line in f:
            line = line.rstrip("\n")
            label = TABLE_LABEL.match(line)
            if label:
                current = label.group(1)
                continue
            entry = TABLE_ENTRY.match(line)
            if entry and entry.group(2) == current:
                tables.setdefault(current, set()).add(entry.group(1))
            elif line.strip() and not line.lstrip().startswith(".p2align"):
                current = None
    missing = {l for table, targets in tables.items() for l in {table} | targets} - set(labels)
    if missing:
        raise ValueError(f"{assembly_path}: labels not in the COFF symbol table: "
                         + " ".join(sorted(missing)[:5]))
    return {labels[table]: {labels[t] for t in targets} for table, targets in tables.items()}


DIE = re.compile(r"^0x[0-9a-f]+:\s+(DW_TAG_\w+)")
PC = re.compile(r"^\s*DW_AT_(low_pc|high_pc)\s+\((0x[0-9a-f]+)\)")
RANGE = re.compile(r"\[(0x[0-9a-f]+), (0x[0-9a-f]+)\)")
DWARFDUMP = "llvm-dwarfdump-19"


def function_ranges(path):
    """{(start, end)} of every function the compiler emitted, from the DWARF of a `-g` build
    (`llvm-dwarfdump`): each DW_TAG_subprogram's [low_pc, high_pc) and DW_AT_ranges (a
    function split into hot and cold parts). COFF symbols have no sizes; DWARF does. The mingw
    runtime is built with -g too, so its functions are in the truth as well."""
    out = subprocess.run([DWARFDUMP, "--debug-info", path], check=True, capture_output=True,
                         text=True).stdout
    ranges = set()
    tag, pcs, parts = None, {}, []

    def finish():
        if tag == "DW_TAG_subprogram":
            if "low_pc" in pcs and "high_pc" in pcs and pcs["high_pc"] > pcs["low_pc"]:
                ranges.add((pcs["low_pc"], pcs["high_pc"]))
            ranges.update(parts)

    for line in out.splitlines():
        die = DIE.match(line)
        if die:
            finish()
            tag, pcs, parts = die.group(1), {}, []
            continue
        pc = PC.match(line)
        if pc:
            pcs[pc.group(1)] = int(pc.group(2), 16)
            continue
        parts.extend((int(a, 16), int(b, 16)) for a, b in RANGE.findall(line)
                     if int(b, 16) > int(a, 16))
    finish()
    return ranges


def source_functions(pe, source):
    """[(start, end)] of the functions compiled from `source` (the symbols after its `.file`
    symbol), each up to the next function symbol: where its own jump tables' jmps are."""
    starts = sorted(function_entries(pe))
    ranges = []
    for name, address, section, kind, owner in pe.symbols_with_files():
        if (address is not None and owner and os.path.basename(owner) == source
                and kind & 0x30 == DTYPE_FUNCTION and section["flags"] & IMAGE_SCN_MEM_EXECUTE):
            later = [a for a in starts if a > address]
            ranges.append((address, later[0] if later else address + 0x100000))
    return ranges
