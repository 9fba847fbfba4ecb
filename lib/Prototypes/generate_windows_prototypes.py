#!/usr/bin/env python3
"""Writes Hoist's table of Windows prototypes (WindowsPrototypes.inc) from mingw-w64.

Each entry is one function a DLL exports, keyed by its name and the DLL's (lower case). The
DLL comes from mingw-w64's import libraries (mingw_import_libraries.py); the prototype from
its headers, parsed by libclang for x86_64-w64-mingw32 and reduced to the classes of the
Microsoft x64 calling convention. A name no header declares has no entry. The entries are
sorted by name, then DLL, so that the C++ side finds one by binary search; the same headers
and import libraries give the same bytes. Without mingw-w64 the table is empty.

Usage: generate_windows_prototypes.py SOURCE_DIR OUTPUT.inc [DEPFILE]
"""

import os
import re
import sys

import clang.cindex as ci

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate_library_prototypes as library  # noqa: E402
import mingw_import_libraries  # noqa: E402

MINGW = "/usr/x86_64-w64-mingw32"
CLANG_RESOURCE_DIR = "/usr/lib/llvm-19/lib/clang/19"
PARSE_ARGUMENTS = ["-x", "c", "-std=gnu11", "-target", "x86_64-w64-mingw32",
                   "--sysroot=" + MINGW, "-resource-dir", CLANG_RESOURCE_DIR,
                   # The runtime DLL's own printf family, not mingw-w64's C99 replacements
                   # that C99 mode would otherwise define inline over it.
                   "-D__USE_MINGW_ANSI_STDIO=0"]

# Each translation unit's source in SOURCE_DIR and its own arguments. The C runtime is
# parsed a second time with _UCRT, whose headers declare what ucrtbase exports instead of
# msvcrt's entry points; the driver kit headers (the native API) conflict with <windows.h>.
TRANSLATION_UNITS = {
    "windows": ("WindowsHeaders.h", []),
    "ucrt": ("WindowsCrtHeaders.h", ["-D_UCRT"]),
    "nt": ("WindowsNtHeaders.h", ["-I" + MINGW + "/include/ddk"]),
}

# The import libraries (lib/lib<NAME>.a) whose DLLs the table covers: the Windows API's
# core, the C runtimes, and the DLLs that programs (Wine's own among them) import most.
IMPORT_LIBRARIES = [
    "advapi32", "bcrypt", "cabinet", "cfgmgr32", "comctl32", "comdlg32", "crypt32", "d3d11",
    "d3d9", "d3dcompiler_47", "dbghelp", "ddraw", "dinput8", "dnsapi", "dsound", "dwmapi",
    "dxgi", "dxva2", "gdi32", "hid", "imagehlp", "imm32", "iphlpapi", "kernel32", "mf",
    "mfplat", "mfreadwrite", "mincore", "mpr", "msacm32", "msdmo", "msi", "msvcr100",
    "msvcr110", "msvcr120", "msvcr80", "msvcr90", "msvcrt", "msvfw32", "ncrypt", "netapi32",
    "ntdll", "ntdllcrt", "odbc32", "odbccp32", "ole32", "oleacc", "oleaut32", "opengl32",
    "powrprof", "propsys", "psapi", "rpcrt4", "secur32", "setupapi", "shcore", "shell32",
    "shlwapi", "snmpapi", "ucrt", "ucrtbase", "urlmon", "user32", "userenv", "usp10",
    "uxtheme", "vcruntime140_app", "version", "windowsapp", "windowscodecs", "winhttp",
    "wininet", "winmm", "winscard", "winspool", "wintrust", "winusb", "wlanapi", "wldap32",
    "ws2_32", "wtsapi32",
]


# kernelbase.dll and combase.dll have no import library; Windows resolves API sets to them
# (its API set schema), so they export what the sets do: the core and security sets
# kernelbase, but for the runtime support one (ntdll's); the COM and WinRT ones combase.
API_SET_HOSTS = [
    (re.compile(r"^api-ms-win-core-(com|winrt)-"), "combase.dll"),
    (re.compile(r"^api-ms-win-(core|security)-(?!rtlsupport|com-|winrt)"), "kernelbase.dll"),
]


# C runtime DLLs without an import library in mingw-w64, and the DLL whose exports stand for
# theirs: msvcr70 and msvcr71 are the Visual C++ 2002 and 2003 builds of the runtime
# msvcrt.dll continues, and vcruntime140_app the store build of vcruntime140. A name the
# program imports from one of them is that runtime's function, declared by the same C
# runtime headers; the entry may also list a name the older DLL lacks, which no program
# then imports.
RUNTIME_STAND_INS = {"msvcr70.dll": "msvcrt.dll", "msvcr71.dll": "msvcrt.dll",
                     "vcruntime140.dll": "vcruntime140_app.dll"}


def with_api_set_hosts(exports):
    hosted = set()
    for dll, name in exports:
        for api_set, host in API_SET_HOSTS:
            if api_set.match(dll):
                hosted.add((host, name))
                break
    return exports | hosted


def with_runtime_stand_ins(exports):
    return exports | {(runtime, name) for dll, name in exports
                      for runtime, stand_in in RUNTIME_STAND_INS.items() if dll == stand_in}


def translation_units_of(dll):
    """Where the prototypes of a DLL's exports are declared, first match first."""
    if dll == "ucrtbase.dll" or dll.startswith("api-ms-win-crt-"):
        return ["ucrt"]
    if dll == "ntdll.dll":
        return ["windows", "nt"]
    return ["windows"]


def declaration_names(dll, name):
    """(translation unit, name) pairs to look the export `name` of `dll` up under, first
    match first. ntdll's Nt* and Zw* functions are one entry point under two names (user
    mode), and the driver kit declares most of them only as Zw*."""
    names = [name]
    if dll == "ntdll.dll" and name[:2] in ("Nt", "Zw"):
        names.append({"Nt": "Zw", "Zw": "Nt"}[name[:2]] + name[2:])
    return [(unit, alias) for alias in names for unit in translation_units_of(dll)]


REGISTER_SIZES = (1, 2, 4, 8)
ARRAY_KINDS = (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY,
               ci.TypeKind.VARIABLEARRAY, ci.TypeKind.DEPENDENTSIZEDARRAY)
TK = ci.TypeKind


def win64_abi_type(type_, pretty, parameter=False):
    """(class, size, low, high, points to const) of one C type under the Microsoft x64
    convention: an aggregate of 1, 2, 4 or 8 bytes travels as an integer of its size; any
    other aggregate, a long double (x87, 16 bytes in mingw-w64), __m128 and __int128 are
    passed by reference, a pointer to a copy; as a result, a hidden pointer in rcx, except
    __m128 and __int128, which return in xmm0 (GCC)."""
    canonical = type_.get_canonical()
    try:
        kind = canonical.kind
    except ValueError:  # a kind the Python bindings do not name (_Float16)
        raise library.Unclassifiable(type_.spelling)
    if parameter and kind in ARRAY_KINDS:
        return ("Pointer", 8, "None", "None", canonical.element_type.is_const_qualified())
    if kind in ARRAY_KINDS:
        return ("Aggregate", max(canonical.get_size(), 0), "None", "None",
                canonical.element_type.is_const_qualified())
    if kind == TK.VOID:
        return ("Void", 0, "None", "None", False)
    if kind in (TK.POINTER, TK.BLOCKPOINTER):
        return ("Pointer", 8, "None", "None", canonical.get_pointee().is_const_qualified())
    if kind == TK.FLOAT:
        return ("Float", 4, "None", "None", False)
    if kind == TK.DOUBLE:
        return ("Double", 8, "None", "None", False)
    size = canonical.get_size()
    if kind in library.INTEGER_KINDS and size in REGISTER_SIZES:
        return ("Integer", size, "None", "None", False)
    if kind in (TK.RECORD, TK.COMPLEX, TK.VECTOR) and size in REGISTER_SIZES:
        return ("StructInRegisters", size, "Integer", "None", False)
    if size <= 0 or kind not in library.INTEGER_KINDS | {
            TK.RECORD, TK.COMPLEX, TK.VECTOR, TK.LONGDOUBLE, TK.FLOAT128}:
        raise library.Unclassifiable(type_.spelling)
    if not parameter and size == 16 and kind in library.INTEGER_KINDS | {TK.VECTOR, TK.FLOAT128}:
        return ("Vector", 16, "None", "None", False)
    return ("ByReference", size, "None", "None", False)


ANNOTATION_HEADERS = {"WindowsAnnotations.h", "WindowsCrtAnnotations.h"}


def parameter_writes(translation_unit):
    """For each function marked hoist-writes-only-out-parameters (WindowsAnnotations.h): the
    (parameter, bytes, size parameter) of each pointer it writes through."""
    known = {}
    for cursor in translation_unit.cursor.get_children():
        # Only the annotation headers annotate: reading every declaration's attributes would
        # cost a tenth of the generator's time.
        if cursor.kind != ci.CursorKind.FUNCTION_DECL or cursor.location.file is None \
                or os.path.basename(cursor.location.file.name) not in ANNOTATION_HEADERS \
                or "hoist-writes-only-out-parameters" not in library.annotations_of(cursor):
            continue
        parameters = [child for child in cursor.get_children()
                      if child.kind == ci.CursorKind.PARM_DECL]
        names = [parameter.spelling for parameter in parameters]
        writes = []
        for index, parameter in enumerate(parameters):
            notes = library.annotations_of(parameter)
            pointer = parameter.type.get_canonical().kind == TK.POINTER
            if pointer and not notes:
                sys.exit("generate_windows_prototypes: %s: pointer parameter %s has no SAL "
                         "annotation" % (cursor.spelling, parameter.spelling))
            for note in notes:
                if note == "hoist-out":
                    size = parameter.type.get_canonical().get_pointee().get_size()
                    writes.append((index, size, -1))
                elif note.startswith("hoist-out-bytes:"):
                    count = note.split(":", 1)[1].strip()
                    writes.append((index, 0, names.index(count)) if count in names
                                  else (index, int(count, 0), -1))
        known[library.symbol_name(cursor)] = writes
    return known


def parse(source_dir, name):
    source, arguments = TRANSLATION_UNITS[name]
    unit = ci.Index.create().parse(os.path.join(source_dir, source),
                                   args=PARSE_ARGUMENTS + arguments)
    errors = [diagnostic for diagnostic in unit.diagnostics
              if diagnostic.severity >= ci.Diagnostic.Error]
    if errors:
        sys.exit("generate_windows_prototypes: %s" % "\n".join(str(error) for error in errors))
    return unit


def build_entries(source_dir):
    """(entries keyed by (name, DLL), the files read)."""
    archives = [os.path.join(MINGW, "lib", "lib%s.a" % name) for name in IMPORT_LIBRARIES]
    exports, read = mingw_import_libraries.read_exports(archives)
    exports = with_runtime_stand_ins(with_api_set_hosts(exports))
    declarations, writes, inputs = {}, {}, set(read)
    for name in TRANSLATION_UNITS:
        unit = parse(source_dir, name)
        declarations[name] = library.collect(unit, classify=win64_abi_type)
        writes[name] = parameter_writes(unit)
        inputs |= {include.include.name for include in unit.get_includes()}
        inputs.add(os.path.join(source_dir, TRANSLATION_UNITS[name][0]))
    entries = {}
    for dll, name in exports:
        for unit, declared_name in declaration_names(dll, name):
            declared = declarations[unit].get(declared_name)
            if declared:
                kind, result, parameters, flags, _ = declared
                known_writes = writes[unit].get(declared_name)
                if known_writes is not None:
                    flags = flags | {"KnownWrites"}
                entries[(name, dll)] = (kind, result, parameters, flags, known_writes or [])
                break
    return entries, inputs


def write_table(entries, output):
    keys = sorted(entries, key=lambda key: (key[0].encode(), key[1].encode()))
    rows = [(name, dll, "Win64") + tuple(entries[(name, dll)]) for name, dll in keys]
    library.write_prototype_table(
        output, ["// Generated by lib/Prototypes/generate_windows_prototypes.py from mingw-w64's",
                 "// headers (lib/Prototypes/WindowsHeaders.h) and import libraries. Do not edit."],
        rows)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    source_dir, output = sys.argv[1], sys.argv[2]
    ci.Config.set_library_file(library.LIBCLANG)
    if os.path.isdir(os.path.join(MINGW, "include")):
        entries, inputs = build_entries(source_dir)
    else:
        # Installing mingw-w64 creates MINGW, which changes its parent's time.
        entries, inputs = {}, {os.path.dirname(MINGW)}
    write_table(entries, output)
    if len(sys.argv) == 4:
        library.write_dependencies(output, sys.argv[3], inputs)


if __name__ == "__main__":
    main()
