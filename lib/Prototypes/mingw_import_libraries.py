"""Which DLL exports which function, read from mingw-w64's import libraries.

Headers do not say which DLL a function comes from; the import library a program links
against does. A mingw-w64 import library (`libkernel32.a`) is an `ar` archive of COFF
objects in dlltool's long format: one object per export, which defines `__imp_NAME` and holds
the name the loader binds (`.idata$6`: a hint, then the name) and refers to a `_head_X`
symbol; a head object refers to the `X_iname` symbol; and a tail object defines it in
`.idata$7`, which holds the DLL's name. Archives in Microsoft's short import format (one
`IMPORT_OBJECT_HEADER` per export, then the name and the DLL) are read as well. Combined
archives (`libucrt.a`: every api-ms-win-crt-* DLL) resolve each export to its own DLL.

Everything here is plain file parsing: no tool runs, and the result depends only on the bytes.
"""

import struct

IMAGE_FILE_MACHINE_AMD64 = 0x8664
IMPORT_OBJECT_HDR_SIG2 = 0xFFFF
IMPORT_NAME_TYPE_ORDINAL = 0


def archive_members(data):
    """The (name, bytes) of each member of a System V / GNU `ar` archive."""
    if not data.startswith(b"!<arch>\n"):
        return
    long_names = b""
    position = 8
    while position + 60 <= len(data):
        header = data[position:position + 60]
        name = header[:16].decode("latin-1").rstrip()
        size = int(header[48:58].decode("latin-1").strip() or 0)
        body = data[position + 60:position + 60 + size]
        position += 60 + size + (size & 1)
        if name == "//":
            long_names = body
        elif name in ("/", "/SYM64/", "__.SYMDEF"):
            continue
        else:
            if name.startswith("/") and name[1:].isdigit():
                offset = int(name[1:])
                name = long_names[offset:long_names.index(b"\n", offset)].decode("latin-1")
            yield name.rstrip("/"), body


def c_string(data, offset=0):
    end = data.find(b"\0", offset)
    return data[offset:end if end >= 0 else len(data)].decode("latin-1")


class CoffObject:
    """The sections and symbols of one x86-64 COFF object that matter for imports."""

    def __init__(self, data):
        (machine, section_count, _, symbol_table, symbol_count,
         optional_size, _) = struct.unpack_from("<HHIIIHH", data, 0)
        self.valid = machine == IMAGE_FILE_MACHINE_AMD64
        if not self.valid:
            return
        strings_at = symbol_table + 18 * symbol_count
        self.sections = []
        for index in range(section_count):
            at = 20 + optional_size + 40 * index
            raw_name = data[at:at + 8].rstrip(b"\0").decode("latin-1")
            size, pointer = struct.unpack_from("<II", data, at + 16)
            self.sections.append((raw_name, data[pointer:pointer + size] if pointer else b""))
        self.defined, self.undefined = {}, set()
        index = 0
        while index < symbol_count:
            at = symbol_table + 18 * index
            raw = data[at:at + 8]
            if raw[:4] == b"\0\0\0\0":
                name = c_string(data, strings_at + struct.unpack_from("<I", raw, 4)[0])
            else:
                name = raw.rstrip(b"\0").decode("latin-1")
            _, section, _, storage, auxiliary = struct.unpack_from("<IhHBB", data, at + 8)
            if storage == 2:  # IMAGE_SYM_CLASS_EXTERNAL
                if section > 0:
                    self.defined[name] = section
                elif section == 0:
                    self.undefined.add(name)
            index += 1 + auxiliary

    def section_named(self, name):
        for section_name, contents in self.sections:
            if section_name == name:
                return contents
        return None


def short_import(data):
    """(DLL, name) of a short-format import member, or None for an import by ordinal."""
    _, _, _, machine, _, size, _, kind = struct.unpack_from("<HHHHIIHH", data, 0)
    if machine != IMAGE_FILE_MACHINE_AMD64 or (kind >> 2) & 7 == IMPORT_NAME_TYPE_ORDINAL:
        return None
    name = c_string(data, 20)
    return c_string(data, 20 + len(name) + 1), name


def exports_of_archive(data):
    """Every (DLL, exported name) the archive imports by name; DLL names in lower case."""
    pairs = set()
    exports = []           # (head symbol, exported name) of each long-format export object
    head_to_iname = {}     # _head_X -> X_iname
    iname_to_dll = {}      # X_iname -> "kernel32.dll"
    for _, body in archive_members(data):
        if len(body) < 20:
            continue
        signature1, signature2 = struct.unpack_from("<HH", body, 0)
        if signature1 == 0 and signature2 == IMPORT_OBJECT_HDR_SIG2:
            pair = short_import(body)
            if pair:
                pairs.add((pair[0].lower(), pair[1]))
            continue
        coff = CoffObject(body)
        if not coff.valid:
            continue
        hint_name = coff.section_named(".idata$6")
        heads = [symbol for symbol in coff.undefined if symbol.startswith("_head_")]
        if hint_name and len(hint_name) > 2 and heads:
            exports.append((heads[0], c_string(hint_name, 2)))
        for symbol in coff.defined:
            if symbol.startswith("_head_"):
                inames = [name for name in coff.undefined if name.endswith("_iname")]
                if inames:
                    head_to_iname[symbol] = inames[0]
            elif symbol.endswith("_iname"):
                dll = coff.section_named(".idata$7")
                if dll:
                    iname_to_dll[symbol] = c_string(dll).lower()
    for head, name in exports:
        dll = iname_to_dll.get(head_to_iname.get(head))
        if dll and name:
            pairs.add((dll, name))
    return pairs


def read_exports(archive_paths):
    """The union of exports_of_archive over the archives that exist, and the paths read."""
    pairs, read = set(), []
    for path in archive_paths:
        try:
            with open(path, "rb") as stream:
                data = stream.read()
        except OSError:
            continue
        read.append(path)
        pairs |= exports_of_archive(data)
    return pairs, read
