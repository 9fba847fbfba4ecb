"""The compiler's truth about an ELF built with `-g -Wa,-L -Wl,-q`: function entries and gcc's
parts of functions (`f.cold`) from the symbol table, jump tables from the kept local labels and the relocations of .rodata.

A jump table is a run of .rela.rodata relocations whose nearest preceding .rodata symbol is a
local label (.L4 for gcc, .LJTI0_0 for clang) and all of whose entries point into code. Its entries are read from the linked bytes:
R_X86_64_PC32 entries are table-relative (target = table + sext32(entry)), R_X86_64_64
entries are absolute (target = entry). Only the standard library is used."""
import re
import struct

R_X86_64_64, R_X86_64_PC32 = 1, 2
SHT_SYMTAB, SHT_RELA = 2, 4
SHF_EXECINSTR = 4
STT_FUNC = 2


class Elf:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        if self.data[:4] != b"\x7fELF" or self.data[4] != 2:
            raise ValueError(f"{path}: not an ELF64 file")
        (self.shoff,) = struct.unpack_from("<Q", self.data, 0x28)
        self.shentsize, self.shnum, self.shstrndx = struct.unpack_from("<HHH", self.data, 0x3A)
        self.sections = []
        for i in range(self.shnum):
            fields = struct.unpack_from("<IIQQQQIIQQ", self.data, self.shoff + i * self.shentsize)
            name, kind, flags, addr, offset, size, link, info, align, entsize = fields
            self.sections.append(dict(name_off=name, type=kind, flags=flags, addr=addr,
                                      offset=offset, size=size, link=link, info=info,
                                      entsize=entsize))
        strtab = self.sections[self.shstrndx]
        for s in self.sections:
            s["name"] = self._str(strtab, s["name_off"])

    def _str(self, strtab, offset):
        start = strtab["offset"] + offset
        return self.data[start:self.data.index(b"\0", start)].decode()

    def section(self, name):
        return next((s for s in self.sections if s["name"] == name), None)

    def symbols(self):
        for s in self.sections:
            if s["type"] != SHT_SYMTAB:
                continue
            strtab = self.sections[s["link"]]
            for off in range(s["offset"], s["offset"] + s["size"], 24):
                name, info, other, shndx, value, size = struct.unpack_from("<IBBHQQ", self.data, off)
                yield dict(name=self._str(strtab, name), type=info & 0xF, bind=info >> 4,
                           shndx=shndx, value=value, size=size)

    def read(self, address, size):
        for s in self.sections:
            if s["addr"] and s["addr"] <= address < s["addr"] + s["size"] and s["type"] != 8:
                off = s["offset"] + address - s["addr"]
                return self.data[off:off + size]
        return None

    def executable(self, address):
        return any(s["flags"] & SHF_EXECINSTR and s["addr"] <= address < s["addr"] + s["size"]
                   for s in self.sections)


def _code_symbols(elf):
    return [sym for sym in elf.symbols()
            if sym["type"] == STT_FUNC and sym["shndx"] != 0 and elf.executable(sym["value"])]


def part_parent_name(name):
    """`f` for gcc's `f.cold` and `f.cold.N` (a part of `f` moved away from it), else None."""
    match = re.fullmatch(r"(.+)\.cold(\.[0-9]+)?", name)
    return match.group(1) if match else None


def function_entries(elf):
    """The functions' entries: their symbols, but the parts of functions (`f.cold`)."""
    parts = function_parts(elf)
    return {sym["value"] for sym in _code_symbols(elf)} - set(parts)


def function_parts(elf):
    """{part start: its parent's entry, or None when two functions have the parent's name
    (static functions of different files)}."""
    symbols = _code_symbols(elf)
    by_name = {}
    for sym in symbols:
        by_name.setdefault(sym["name"], set()).add(sym["value"])
    parts = {}
    for sym in symbols:
        parent = part_parent_name(sym["name"])
        if parent is not None:
            entries = by_name.get(parent, set())
            parts[sym["value"]] = next(iter(entries)) if len(entries) == 1 else None
    return parts


def jump_tables(elf):
    """{table address: set of target addresses}."""
    rodata = elf.section(".rodata")
    rela = elf.section(".rela.rodata")
    if not rodata or not rela:
        return {}
    index = elf.sections.index(rodata)
    labels = sorted((sym["value"], sym["name"]) for sym in elf.symbols()
                    if sym["shndx"] == index and sym["name"])
    tables = {}
    for off in range(rela["offset"], rela["offset"] + rela["size"], 24):
        r_offset, r_info, _ = struct.unpack_from("<QQq", elf.data, off)
        kind = r_info & 0xFFFFFFFF
        address = rodata["addr"] + r_offset if r_offset < rodata["addr"] else r_offset
        owner = max((l for l in labels if l[0] <= address), default=None)
        if owner is None or not owner[1].startswith(".L"):
            continue
        table = owner[0]
        if kind == R_X86_64_PC32:
            (entry,) = struct.unpack("<i", elf.read(address, 4))
            target = table + entry
        elif kind == R_X86_64_64:
            (target,) = struct.unpack("<Q", elf.read(address, 8))
        else:
            continue
        tables.setdefault(table, set()).add(target)
    # Lookup tables of data (clang's relative switch tables of strings) are not jump tables.
    return {t: targets for t, targets in tables.items()
            if all(elf.executable(target) for target in targets)}
