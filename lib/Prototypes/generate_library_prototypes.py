#!/usr/bin/env python3
"""Writes Hoist's table of library prototypes (LibraryPrototypes.inc) from the system headers.

libclang parses LibraryHeaders.h; every extern function and data object it declares becomes
one entry, keyed by its symbol name (an asm label wins over the C name), with its return and
parameter types reduced to their System V x86-64 ABI classes. The entries are sorted by name
so that the C++ side finds one by binary search. The output depends only on the headers: the
same headers give the same bytes.

A second parse, of CxxLibraryHeaders.h in C++ mode (cxx_prototypes.py), adds the C++
library's functions under their mangled names, and a third (cxx_instantiations.py) the members
of the template specializations libstdc++.so.6 exports; a name both the C and a C++ parse
declare keeps its C entry.

Usage: generate_library_prototypes.py LibraryHeaders.h CxxLibraryHeaders.h OUTPUT.inc [DEPFILE]
"""

import ctypes
import glob
import os
import re
import sys

import clang.cindex as ci

import cxx_instantiations
import cxx_prototypes

LIBCLANG = "/usr/lib/llvm-19/lib/libclang-19.so.1"

# Where libraries keep headers that include each other by names relative to their own
# directory (`pkg-config --cflags glib-2.0 dbus-1 ext2fs` on Debian 12). A directory that is
# not there is skipped by the compiler, and LibraryHeaders.h includes such a library only when
# its header is found.
INCLUDE_DIRECTORIES = ["/usr/include/glib-2.0", "/usr/lib/x86_64-linux-gnu/glib-2.0/include",
                       "/usr/include/dbus-1.0", "/usr/lib/x86_64-linux-gnu/dbus-1.0/include",
                       "/usr/include/et"] + \
    sorted(glob.glob("/usr/include/python3.[0-9]*"),  # python3-dev's, the newest
           key=lambda path: [int(number) for number in re.findall(r"\d+", path)])[-1:]

# The parse as a Debian C program sees the headers: GNU C11, GNU extensions, and the fortified
# variants that _FORTIFY_SOURCE=2 declares when optimizing.
PARSE_ARGUMENTS = ["-x", "c", "-std=gnu11", "-target", "x86_64-pc-linux-gnu",
                   "-D_GNU_SOURCE", "-D_FORTIFY_SOURCE=2", "-O2"] + \
    ["-I" + directory for directory in INCLUDE_DIRECTORIES]

TK = ci.TypeKind

INTEGER_KINDS = {TK.BOOL, TK.CHAR_U, TK.UCHAR, TK.CHAR16, TK.CHAR32, TK.USHORT, TK.UINT,
                 TK.ULONG, TK.ULONGLONG, TK.UINT128, TK.CHAR_S, TK.SCHAR, TK.WCHAR, TK.SHORT,
                 TK.INT, TK.LONG, TK.LONGLONG, TK.INT128, TK.ENUM}


class Unclassifiable(Exception):
    pass


def pretty_printer(translation_unit):
    """clang_getCursorPrettyPrinted, which the Python bindings of LLVM 19 do not wrap: the
    only way libclang shows attributes such as nothrow and leaf."""
    lib = ci.conf.lib
    lib.clang_getCursorPrintingPolicy.restype = ctypes.c_void_p
    lib.clang_getCursorPrintingPolicy.argtypes = [ci.Cursor]
    lib.clang_getCursorPrettyPrinted.restype = ci._CXString
    lib.clang_getCursorPrettyPrinted.argtypes = [ci.Cursor, ctypes.c_void_p]
    policy = lib.clang_getCursorPrintingPolicy(translation_unit.cursor)

    def pretty(cursor):
        return ci._CXString.from_result(lib.clang_getCursorPrettyPrinted(cursor, policy))
    return pretty


def scalar_leaves(type_, offset_bits, leaves):
    """Appends (offset in bytes, size, 'I' or 'S' or 'X') for each scalar inside type_."""
    type_ = type_.get_canonical()
    kind = type_.kind
    if kind in INTEGER_KINDS or kind == TK.POINTER:
        leaves.append((offset_bits // 8, type_.get_size(), "I"))
    elif kind in (TK.FLOAT, TK.DOUBLE, TK.FLOAT128):
        leaves.append((offset_bits // 8, type_.get_size(), "S"))
    elif kind == TK.LONGDOUBLE:
        leaves.append((offset_bits // 8, 16, "X"))
    elif kind == TK.COMPLEX:
        element = type_.element_type
        size = element.get_size()
        scalar_leaves(element, offset_bits, leaves)
        scalar_leaves(element, offset_bits + 8 * size, leaves)
    elif kind == TK.VECTOR:
        leaves.append((offset_bits // 8, type_.get_size(), "S"))
    elif kind == TK.CONSTANTARRAY:
        element = type_.element_type
        for index in range(type_.element_count):
            scalar_leaves(element, offset_bits + 8 * index * element.get_size(), leaves)
    elif kind == TK.RECORD:
        for field in type_.get_fields():
            if field.is_bitfield():
                leaves.append((field.get_field_offsetof() // 8, 1, "I"))
            else:
                scalar_leaves(field.type, offset_bits + field.get_field_offsetof(), leaves)
    elif kind == TK.INCOMPLETEARRAY:
        pass  # a flexible array member adds nothing to the size
    else:
        raise Unclassifiable(type_.spelling)


def classify_record(type_):
    """The System V classes of a struct or union passed by value (ABI 3.2.3): up to two
    eightbytes in INTEGER or SSE registers, else MEMORY."""
    size = type_.get_size()
    if size <= 0 or size > 16:
        return ("StructInMemory", max(size, 0), "None", "None")
    leaves = []
    scalar_leaves(type_, 0, leaves)
    eightbytes = ["None", "None"]
    for offset, leaf_size, leaf_class in leaves:
        if leaf_class == "X" or (leaf_size and offset % min(leaf_size, 8)):
            return ("StructInMemory", size, "None", "None")
        for index in range(offset // 8, (offset + leaf_size - 1) // 8 + 1):
            if index < 2:
                merged = "Integer" if leaf_class == "I" else "Sse"
                if eightbytes[index] != "Integer":
                    eightbytes[index] = merged
    if eightbytes[0] == "None":
        eightbytes[0] = "Integer" if size else "None"
    if size > 8 and eightbytes[1] == "None":
        eightbytes[1] = "Integer"
    return ("StructInRegisters", size, eightbytes[0], eightbytes[1])


def is_transparent_union(type_, pretty):
    declaration = type_.get_declaration()
    return (declaration.kind == ci.CursorKind.UNION_DECL
            and "transparent_union" in pretty(declaration))


def abi_type(type_, pretty, parameter=False):
    """(class, size, low eightbyte, high eightbyte, points to const) of one C type; a
    parameter of array type (va_list, `const struct timespec[2]`) is a pointer (C11 6.7.6.3)."""
    canonical = type_.get_canonical()
    kind = canonical.kind
    if parameter and kind in (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY):
        return ("Pointer", 8, "None", "None", canonical.element_type.is_const_qualified())
    if kind == TK.VOID:
        return ("Void", 0, "None", "None", False)
    if kind in INTEGER_KINDS:
        return ("Integer", canonical.get_size(), "None", "None", False)
    if kind in (TK.POINTER, TK.BLOCKPOINTER):
        # A sixth element for a pointer to a function: the code it points to is the program's.
        if is_code_pointer(canonical):
            return ("Pointer", 8, "None", "None", False, True)
        return ("Pointer", 8, "None", "None", canonical.get_pointee().is_const_qualified())
    if kind in (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY, TK.DEPENDENTSIZEDARRAY):
        return ("Aggregate", max(canonical.get_size(), 0), "None", "None",
                canonical.element_type.is_const_qualified())
    if kind == TK.FLOAT:
        return ("Float", 4, "None", "None", False)
    if kind == TK.DOUBLE:
        return ("Double", 8, "None", "None", False)
    if kind == TK.LONGDOUBLE:
        return ("LongDouble", 16, "None", "None", False)
    if kind in (TK.FLOAT128, TK.VECTOR):
        return ("Vector", canonical.get_size(), "None", "None", False)
    if kind == TK.COMPLEX:
        if canonical.element_type.get_canonical().kind == TK.LONGDOUBLE:
            return ("ComplexLongDouble", 32, "None", "None", False)
        return classify_record(canonical) + (False,)
    if kind == TK.RECORD:
        if is_transparent_union(canonical, pretty):
            # GCC passes a transparent union as its first member (sockaddr arguments).
            return abi_type(next(iter(canonical.get_fields())).type, pretty)
        return classify_record(canonical) + (False,)
    raise Unclassifiable(type_.spelling)


def is_code_pointer(type_):
    canonical = type_.get_canonical()
    return canonical.kind == TK.POINTER and \
        canonical.get_pointee().get_canonical().kind in (TK.FUNCTIONPROTO, TK.FUNCTIONNOPROTO)


def record_holds_code_pointer(type_):
    """Whether a struct or union has a function pointer among its fields, at any depth of
    nested records (not through further pointers): fopencookie's cookie_io_functions_t,
    sigaction's handler, an obstack's chunk allocator."""
    canonical = type_.get_canonical()
    if canonical.kind != TK.RECORD:
        return False
    return any(is_code_pointer(field.type) or record_holds_code_pointer(field.type)
               for field in canonical.get_fields())


def takes_code(parameter_types):
    """Whether a function is given code of the program to run: a function pointer, or a
    struct (by value, or through one pointer) holding one. glibc marks some of these
    `__leaf__` all the same (atexit, on_exit, fopencookie, sigaction): they keep the code to
    run it later, which a leaf may do."""
    for type_ in parameter_types:
        canonical = type_.get_canonical()
        if is_code_pointer(canonical) or record_holds_code_pointer(canonical):
            return True
        if canonical.kind == TK.POINTER and record_holds_code_pointer(canonical.get_pointee()):
            return True
    return False


FORMAT_ATTRIBUTE = re.compile(r"__attribute__\(\(format\((\w+), (\d+), (\d+)\)\)\)")
FORMAT_PARAMETER_NAMES = {"__format", "__fmt", "format", "fmt"}


def format_flag(cursor, text, name):
    """PrintfFormat or ScanfFormat for a variadic function whose last parameter is the format
    that its variadic arguments follow: `format(printf, N, N + 1)` with N the last parameter,
    or, where the header gives no attribute (glibc's __fprintf_chk), a last parameter
    `const char *` named as glibc names formats. None otherwise (strfmon's format, execl)."""
    parameters = list(cursor.get_arguments())
    if not parameters:
        return None
    attribute = FORMAT_ATTRIBUTE.search(text)
    if attribute:
        archetype = attribute.group(1).strip("_").replace("gnu_", "")
        if int(attribute.group(2)) != len(parameters) or \
                int(attribute.group(3)) != len(parameters) + 1:
            return None
        return {"printf": "PrintfFormat", "scanf": "ScanfFormat"}.get(archetype)
    last = parameters[-1]
    pointee = last.type.get_canonical().get_pointee()
    if last.spelling not in FORMAT_PARAMETER_NAMES or \
            pointee.kind not in (TK.CHAR_S, TK.CHAR_U) or not pointee.is_const_qualified():
        return None
    return "ScanfFormat" if "scanf" in name else "PrintfFormat"


# What a variadic function without a format reads after its fixed parameters, from the
# annotations of VariadicAnnotations.h.
VARIADIC_RULES = {
    "hoist-variadic:mode-if-creating": "ModeIfCreating",
    "hoist-variadic:argument-by-command": "ArgumentByCommand",
    "hoist-variadic:one-argument": "OneVariadicArgument",
    "hoist-variadic:six-longs": "SixLongs",
    "hoist-variadic:four-longs": "FourLongs",
    "hoist-variadic:null-terminated": "NullTerminated",
    "hoist-variadic:null-terminated-then-one": "NullTerminatedThenOne",
}


def symbol_name(cursor):
    """The name a binary imports: the asm label if the declaration has one."""
    mangled = cursor.mangled_name or cursor.spelling
    return mangled.lstrip("\x01")


def collect(translation_unit, classify=None):
    """Every extern function and data object, with its types reduced by `classify` (the
    System V classes of abi_type unless given)."""
    classify = classify or abi_type
    pretty = pretty_printer(translation_unit)
    entries = {}
    for cursor in translation_unit.cursor.get_children():
        if cursor.kind == ci.CursorKind.FUNCTION_DECL:
            function_type = cursor.type
            if function_type.kind != TK.FUNCTIONPROTO and function_type.kind != TK.FUNCTIONNOPROTO:
                continue
            name = symbol_name(cursor)
            text = pretty(cursor)
            try:
                result = classify(function_type.get_result(), pretty)
                parameters = [classify(argument, pretty, parameter=True)
                              for argument in function_type.argument_types()] \
                    if function_type.kind == TK.FUNCTIONPROTO else []
            except (Unclassifiable, ValueError):  # ValueError: a type kind the bindings lack
                continue
            flags = set()
            if function_type.kind == TK.FUNCTIONNOPROTO or function_type.is_function_variadic():
                flags.add("Variadic")
                if function_type.kind == TK.FUNCTIONPROTO:
                    flags.add(format_flag(cursor, text, name))
                    flags.discard(None)
            if "__attribute__((noreturn))" in function_type.spelling or "_Noreturn" in text \
                    or "[[noreturn]]" in text:
                flags.add("NoReturn")
            if "__attribute__((nothrow))" in text:
                flags.add("NoThrow")
            if "__attribute__((leaf))" in text:
                flags.add("Leaf")
            if function_type.kind == TK.FUNCTIONPROTO and \
                    takes_code(function_type.argument_types()):
                flags.add("TakesCode")
            flags |= {VARIADIC_RULES[note] for note in annotations_of(cursor)
                      if note in VARIADIC_RULES}
            if "static inline" in text or cursor.storage_class == ci.StorageClass.STATIC:
                continue
            previous = entries.get(name)
            if previous is None:
                entries[name] = ("Function", result, parameters, flags, cursor.spelling == name)
            else:
                # Attributes accumulate over redeclarations; the declaration under the
                # symbol's own name gives the types (an asm-labelled alias may differ).
                types_from = (result, parameters) if cursor.spelling == name and not previous[4] \
                    else (previous[1], previous[2])
                entries[name] = ("Function", types_from[0], types_from[1],
                                 previous[3] | flags, previous[4] or cursor.spelling == name)
        elif cursor.kind == ci.CursorKind.VAR_DECL \
                and cursor.storage_class == ci.StorageClass.EXTERN:
            try:
                object_type = classify(cursor.type, pretty)
            except Unclassifiable:
                continue
            entries.setdefault(symbol_name(cursor), ("Data", object_type, [], set(), True))
    return entries


def cxx_type(abi):
    abi_class, size, low, high, const = abi[:5]
    code = ", true" if len(abi) > 5 and abi[5] else ""
    return "{AbiClass::%s, %d, Eightbyte::%s, Eightbyte::%s, %s%s}" % (
        abi_class, size, low, high, "true" if const else "false", code)


def write_prototype_table(output, header, rows):
    """Writes a table LibraryPrototype.cpp or WindowsPrototype.cpp includes: `rows` are
    (name, library or None, convention, kind, result, parameters, flags, writes), sorted as
    the lookup expects; equal parameter and write lists are stored once."""
    parameter_lists, write_lists = {(): 0}, {(): 0}
    parameter_lines, write_lines = [], []
    for row in rows:
        parameters, writes = tuple(row[5]), tuple(row[7])
        if parameters not in parameter_lists:
            parameter_lists[parameters] = len(parameter_lines)
            parameter_lines += ["    %s," % cxx_type(parameter) for parameter in parameters]
        if writes not in write_lists:
            write_lists[writes] = len(write_lines)
            write_lines += ["    {%d, %d, %d}," % write for write in writes]
    lines = header + [""]
    # constinit, not constexpr: both initialize the tables at compile time, but clang checks a
    # constexpr table of 24,000 entries as a constant expression for 45 s; constinit takes 2 s.
    lines += ["static constinit const AbiType GeneratedParameters[] = {"] + \
        (parameter_lines or ["    {},"]) + ["};", ""]
    lines += ["static constinit const ParameterWrite GeneratedWrites[] = {"] + \
        (write_lines or ["    {},"]) + ["};", ""]
    lines += ["static constexpr size_t GeneratedPrototypeCount = %d;" % len(rows),
              "static constinit const LibraryPrototype GeneratedPrototypes[] = {"]
    for name, library, convention, kind, result, parameters, flags, writes in rows:
        flag_text = " | ".join("PrototypeFlag::%s" % flag for flag in
                               ["Data" if kind == "Data" else None] + sorted(flags) if flag) \
            or "0"
        lines.append('    {"%s", %s, GeneratedParameters + %d, %d, %s, %s, '
                     'CallingConvention::%s, GeneratedWrites + %d, %d},' % (
                         name, cxx_type(result), parameter_lists[tuple(parameters)],
                         len(parameters), flag_text,
                         '"%s"' % library if library else "nullptr", convention,
                         write_lists[tuple(writes)], len(writes)))
    if not rows:
        lines.append("    {},")
    lines += ["};", ""]
    with open(output, "w") as stream:
        stream.write("\n".join(lines))


def write_table(entries, writes, output):
    rows = []
    for name in sorted(entries, key=lambda text: text.encode()):
        kind, result, parameters, flags, _ = entries[name]
        known = writes.get(name)
        if known is not None:
            flags = flags | {"KnownWrites"}
        rows.append((name, None, "SysV", kind, result, parameters, flags, known or []))
    write_prototype_table(
        output, ["// Generated by lib/Prototypes/generate_library_prototypes.py from the system",
                 "// headers named in lib/Prototypes/LibraryHeaders.h. Do not edit."], rows)


def annotations_of(cursor):
    return [child.spelling for child in cursor.get_children()
            if child.kind == ci.CursorKind.ANNOTATE_ATTR]


ACCESS = re.compile(r"^hoist-access\(\s*__(read_only|write_only|read_write|none)__\s*,"
                    r"\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)$")


def holds_writable_pointer(type_, depth=0):
    """Whether a struct or union (or an array of them) has a pointer to non-const memory
    among its fields: readv's `const struct iovec *` leads to the buffers it writes."""
    canonical = type_.get_canonical()
    if depth > 8:
        return True
    if canonical.kind == TK.CONSTANTARRAY:
        return holds_writable_pointer(canonical.element_type, depth + 1)
    if canonical.kind != TK.RECORD:
        return False
    for field in canonical.get_fields():
        field_type = field.type.get_canonical()
        if field_type.kind == TK.POINTER and \
                not field_type.get_pointee().is_const_qualified():
            return True
        if holds_writable_pointer(field_type, depth + 1):
            return True
    return False


def parameter_accesses(translation_unit):
    """{symbol: {pointer parameter: (mode, size parameter or None)}} from glibc's access
    attributes (`__attr_access`, which LibraryHeaders.h turns into `hoist-access`
    annotations), merged over a function's redeclarations; parameters counted from 0. A
    pointer to const memory that leads to writable memory (readv's iovec) is "indirect"."""
    accesses = {}
    for cursor in translation_unit.cursor.get_children():
        if cursor.kind != ci.CursorKind.FUNCTION_DECL:
            continue
        if cursor.type.kind == TK.FUNCTIONPROTO:
            for index, argument in enumerate(cursor.type.argument_types()):
                canonical = argument.get_canonical()
                if canonical.kind == TK.POINTER and \
                        holds_writable_pointer(canonical.get_pointee()):
                    accesses.setdefault(symbol_name(cursor), {})[index] = ("indirect", None)
        for note in annotations_of(cursor):
            match = ACCESS.match(note)
            if not match:
                continue
            mode, pointer, size = match.groups()
            known = accesses.setdefault(symbol_name(cursor), {})
            # glibc calls readv's iovec read-only: so it is, but not the buffers it leads to.
            if known.get(int(pointer) - 1, ("",))[0] != "indirect":
                known[int(pointer) - 1] = (mode, int(size) - 1 if size else None)
    return accesses


def known_writes(entry, accesses):
    """The writes of a function whose pointer writes are all known, or None: every pointer
    parameter points to const or has a write access with its size, and the function is given
    no code, returns, is not variadic and, if it writes through a parameter at all, is a leaf
    (it calls nothing of the program's that could write elsewhere). A FILE or any other
    pointer the headers do not annotate leaves the writes unknown."""
    kind, _, parameters, flags, _ = entry
    if kind != "Function" or flags & {"Variadic", "TakesCode", "NoReturn"}:
        return None
    writes = []
    for index, (abi_class, _, _, _, to_const) in enumerate(parameters):
        mode, size = accesses.get(index, ("unknown", None))
        if mode == "indirect":
            return None
        if abi_class != "Pointer" or to_const or mode in ("none", "read_only"):
            continue
        if mode not in ("write_only", "read_write") or size is None:
            return None
        writes.append((index, 0, size))
    if writes and "Leaf" not in flags:
        return None
    return writes


# Where LibraryHeaders.h's optional headers (`__has_include`) appear when their -dev package
# is installed: a directory's time changes when a file is added, so the table is generated
# again then.
OPTIONAL_HEADER_DIRECTORIES = ["/usr/include", "/usr/include/sys", "/usr/include/acl",
                               "/usr/include/selinux", "/usr/include/x86_64-linux-gnu"]


def write_depfile(translation_units, sources, output, depfile):
    write_dependencies(output, depfile,
                       {include.include.name for translation_unit in translation_units
                        for include in translation_unit.get_includes()}
                       | set(sources)
                       | {directory for directory in OPTIONAL_HEADER_DIRECTORIES
                          if os.path.isdir(directory)})


def write_dependencies(output, depfile, inputs):
    """A Makefile rule: `output` depends on every path of `inputs`."""
    inputs = sorted({os.path.realpath(path) for path in inputs})
    with open(depfile, "w") as stream:
        stream.write("%s: %s\n" % (output.replace(" ", "\\ "),
                                   " ".join(path.replace(" ", "\\ ") for path in inputs)))


def parse(source, arguments):
    translation_unit = ci.Index.create().parse(source, args=arguments)
    errors = [diagnostic for diagnostic in translation_unit.diagnostics
              if diagnostic.severity >= ci.Diagnostic.Error]
    if errors:
        sys.exit("generate_library_prototypes: %s" % "\n".join(str(error) for error in errors))
    return translation_unit


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    source, cxx_source, output = sys.argv[1], sys.argv[2], sys.argv[3]
    ci.Config.set_library_file(LIBCLANG)
    translation_unit = parse(source, PARSE_ARGUMENTS)
    entries = collect(translation_unit)
    accesses = parameter_accesses(translation_unit)
    writes = {}
    for name, entry in entries.items():
        known = known_writes(entry, accesses.get(name, {}))
        if known is not None:
            writes[name] = known
    cxx_unit = parse(cxx_source, cxx_prototypes.PARSE_ARGUMENTS)
    collector = cxx_prototypes.Collector(LIBCLANG, pretty_printer(cxx_unit), abi_type,
                                         takes_code)
    cxx_prototypes.collect(cxx_unit, collector)
    instantiations = cxx_instantiations.collect(collector, cxx_unit, cxx_source,
                                                cxx_prototypes.PARSE_ARGUMENTS,
                                                os.path.dirname(os.path.abspath(output)))
    for name, entry in collector.entries.items():
        entries.setdefault(name, entry)
    write_table(entries, writes, output)
    if len(sys.argv) == 5:
        units = [translation_unit, cxx_unit] + ([instantiations] if instantiations else [])
        extra = cxx_instantiations.libraries() if instantiations else []
        write_depfile(units, [source, cxx_source] + extra, output, sys.argv[4])


if __name__ == "__main__":
    main()
