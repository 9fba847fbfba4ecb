"""The C++ half of the library prototypes: libstdc++'s and the C++ runtime's functions under
their mangled names (generate_library_prototypes.py merges them into the one table).

libclang parses CxxLibraryHeaders.h in C++ mode and names each non-template function, method,
constructor and destructor by its Itanium symbol(s); cxx_instantiations.py adds the members of
the template specializations libstdc++ instantiates explicitly, classified here too. Integers,
enums, floating point, pointers and references (a reference is passed as a pointer) have a
class fixed by the types alone. A class by value needs to know whether it is trivial for the
purposes of calls (cxx_instantiations.py asks clang): one that is not is passed by invisible
reference (a pointer) and returned through a hidden pointer (StructInMemory); one that is
travels as a C struct. Where that is not known (the non-template declarations) the prototype is left out. A
method takes `this` as its first, pointer, parameter; constructors and destructors return
nothing, and the base-object ones of a class with a virtual base take the VTT after `this`
(Itanium C++ ABI on x86-64).
"""

import ctypes
import re

import clang.cindex as ci

TK = ci.TypeKind
CK = ci.CursorKind

PARSE_ARGUMENTS = ["-x", "c++", "-std=gnu++17", "-target", "x86_64-pc-linux-gnu",
                   "-D_GNU_SOURCE", "-O2"]

FUNCTION_KINDS = (CK.FUNCTION_DECL, CK.CXX_METHOD, CK.CONSTRUCTOR, CK.DESTRUCTOR,
                  CK.CONVERSION_FUNCTION)
METHOD_KINDS = (CK.CXX_METHOD, CK.CONVERSION_FUNCTION)
SCOPE_KINDS = (CK.NAMESPACE, CK.LINKAGE_SPEC, CK.UNEXPOSED_DECL)
CLASS_KINDS = (CK.CLASS_DECL, CK.STRUCT_DECL)
THIS = ("Pointer", 8, "None", "None", False)
VTT = ("Pointer", 8, "None", "None", True)


class Unsupported(Exception):
    pass


def cxx_type(type_, pretty, abi_type, parameter=False, trivial_for_calls=None):
    """The C classes of abi_type, with references as pointers; a class by value as
    `trivial_for_calls` says (None: not known); a member pointer or anything else C lacks is Unsupported."""
    canonical = type_.get_canonical()
    if canonical.kind in (TK.LVALUEREFERENCE, TK.RVALUEREFERENCE):
        return ("Pointer", 8, "None", "None", canonical.get_pointee().is_const_qualified())
    if canonical.kind == TK.RECORD:
        return record_type(canonical, pretty, abi_type, parameter, trivial_for_calls)
    if canonical.kind in (TK.MEMBERPOINTER, TK.NULLPTR, TK.DEPENDENT, TK.UNEXPOSED,
                          TK.AUTO, TK.ELABORATED):
        raise Unsupported(type_.spelling)
    try:
        classes = abi_type(type_, pretty, parameter=parameter)
    except Exception as error:
        raise Unsupported(type_.spelling) from error
    if classes[1] < 0:   # a layout libclang cannot give: a dependent or incomplete type
        raise Unsupported(type_.spelling)
    return classes


def record_type(canonical, pretty, abi_type, parameter, trivial_for_calls):
    """A class by value (Itanium C++ ABI 3.1.2). Not trivial for the purposes of calls (a
    non-trivial or no usable copy or move constructor, or a non-trivial destructor): by
    invisible reference as an argument, through a hidden pointer in rdi as a result, whatever
    its size. Trivial: as a C struct, when its fields
    are all its data (a base class's fields, which libclang does not list, would start the
    first field past 0; an empty class takes no register at all, which no class says)."""
    size = canonical.get_size()
    if trivial_for_calls is None or size <= 0:
        raise Unsupported(canonical.spelling)
    if not trivial_for_calls:
        return ("Pointer", 8, "None", "None", False) if parameter else \
            ("StructInMemory", size, "None", "None", False)
    offsets = [field.get_field_offsetof() for field in canonical.get_fields()]
    if not offsets or min(offsets) != 0:
        raise Unsupported(canonical.spelling)
    try:
        return abi_type(canonical, pretty, parameter=parameter)
    except Exception as error:
        raise Unsupported(canonical.spelling) from error


class _String(ctypes.Structure):
    """CXString as libclang lays it out, without the bindings' own class, which disposes of
    the string when collected (the set below is disposed of whole)."""
    _fields_ = [("data", ctypes.c_void_p), ("flags", ctypes.c_uint)]


class _StringSet(ctypes.Structure):
    _fields_ = [("strings", ctypes.POINTER(_String)), ("count", ctypes.c_uint)]


def _manglings(library_file):
    """clang_Cursor_getCXXManglings, which the Python bindings of LLVM 19 do not wrap; through
    a handle of its own, so that the bindings' declarations of the same functions stay."""
    lib = ctypes.CDLL(library_file)
    lib.clang_Cursor_getCXXManglings.restype = ctypes.POINTER(_StringSet)
    lib.clang_Cursor_getCXXManglings.argtypes = [ci.Cursor]
    lib.clang_disposeStringSet.argtypes = [ctypes.POINTER(_StringSet)]
    lib.clang_getCString.restype = ctypes.c_char_p
    lib.clang_getCString.argtypes = [_String]

    def manglings(cursor):
        strings = lib.clang_Cursor_getCXXManglings(cursor)
        if not strings:
            return []
        names = [lib.clang_getCString(strings.contents.strings[index]).decode()
                 for index in range(strings.contents.count)]
        lib.clang_disposeStringSet(strings)
        return names
    return manglings


def symbols(cursor, manglings):
    """Every symbol a declaration defines: constructors and destructors have several
    (complete, base, deleting)."""
    if cursor.kind in (CK.CONSTRUCTOR, CK.DESTRUCTOR):
        return [name.lstrip("\x01") for name in manglings(cursor)]
    name = cursor.mangled_name or cursor.spelling
    return [name.lstrip("\x01")]


# The base-object constructor or destructor in a symbol: C2 or D2 right before the end of the
# nested name (E) or the constructor template's arguments (I).
BASE_OBJECT_STRUCTOR = re.compile(r"[CD]2[EI]")


def _specialized_template(library):
    """clang_getSpecializedCursorTemplate (None for a class no template specializes), and
    clang_isVirtualBase, which the bindings of LLVM 19 do not wrap."""
    library.clang_isVirtualBase.restype = ctypes.c_uint
    library.clang_isVirtualBase.argtypes = [ci.Cursor]
    return library.clang_getSpecializedCursorTemplate


def has_virtual_base(class_cursor, specialized_template, depth=0):
    """Whether a class has a virtual base, directly or through its bases. The bases of a
    template's specialization are read from the template, whose cursor lists them."""
    declaration = specialized_template(class_cursor) or class_cursor
    definition = declaration.get_definition() or declaration
    for child in definition.get_children():
        if child.kind != CK.CXX_BASE_SPECIFIER:
            continue
        if ci.conf.lib.clang_isVirtualBase(child):
            return True
        base = child.type.get_declaration()
        if depth < 16 and base.kind != CK.NO_DECL_FOUND and \
                has_virtual_base(base, specialized_template, depth + 1):
            return True
    return False


def structor_parameters(name, cursor, parameters, specialized_template):
    """A base-object constructor or destructor of a class with a virtual base takes the VTT
    after `this` (Itanium C++ ABI 5.1.4, "Constructor and destructor variants")."""
    if cursor.kind in (CK.CONSTRUCTOR, CK.DESTRUCTOR) and BASE_OBJECT_STRUCTOR.search(name) \
            and has_virtual_base(cursor.semantic_parent, specialized_template):
        return parameters[:1] + [VTT] + parameters[1:]
    return parameters


def prototype(cursor, pretty, abi_type, takes_code, trivial_for_calls=None):
    """(result, parameters, flags) of a function cursor. `trivial_for_calls` is a bit mask:
    bit 0 for the result, bit i for parameter i (counted from 1, without `this`), set when
    that type is trivial for the purposes of calls; None when not known."""
    function_type = cursor.type
    if function_type.kind != TK.FUNCTIONPROTO:
        raise Unsupported(cursor.spelling)

    def trivial(bit):
        return None if trivial_for_calls is None else bool(trivial_for_calls >> bit & 1)

    parameters = []
    is_method = cursor.kind in (CK.CONSTRUCTOR, CK.DESTRUCTOR, CK.CONVERSION_FUNCTION) or (
        cursor.kind == CK.CXX_METHOD and not cursor.is_static_method())
    if is_method:
        parameters.append(THIS)
    parameters += [cxx_type(argument, pretty, abi_type, parameter=True,
                            trivial_for_calls=trivial(index + 1))
                   for index, argument in enumerate(function_type.argument_types())]
    if cursor.kind in (CK.CONSTRUCTOR, CK.DESTRUCTOR):
        result = ("Void", 0, "None", "None", False)
    else:
        result = cxx_type(function_type.get_result(), pretty, abi_type,
                          trivial_for_calls=trivial(0))
    text = pretty(cursor)
    flags = set()
    if function_type.is_function_variadic():
        flags.add("Variadic")
    if "[[noreturn]]" in text or "__attribute__((noreturn))" in text \
            or "__attribute__((noreturn))" in function_type.spelling:
        flags.add("NoReturn")
    if "noexcept" in function_type.spelling or "throw()" in function_type.spelling \
            or "__attribute__((nothrow))" in text:
        flags.add("NoThrow")
    if "__attribute__((leaf))" in text:
        flags.add("Leaf")
    if takes_code(function_type.argument_types()):
        flags.add("TakesCode")
    return result, parameters, flags


class Collector:
    """Entries keyed by symbol, from function cursors, with what classifying them needs."""

    def __init__(self, library_file, pretty, abi_type, takes_code):
        self.entries = {}
        self.manglings = _manglings(library_file)
        self.specialized_template = _specialized_template(ci.conf.lib)
        self.pretty, self.abi_type, self.takes_code = pretty, abi_type, takes_code

    def add(self, cursor, trivial_for_calls=None, keep=lambda name: True):
        """Adds the entries of a function cursor under those of its symbols `keep` accepts;
        the names added."""
        if cursor.kind == CK.CXX_METHOD and cursor.is_deleted_method():
            return []
        if cursor.linkage == ci.LinkageKind.INTERNAL:
            return []  # a header's static function: each program has its own copy
        try:
            result, parameters, flags = prototype(cursor, self.pretty, self.abi_type,
                                                  self.takes_code, trivial_for_calls)
        except Unsupported:
            return []
        added = []
        for name in symbols(cursor, self.manglings):
            if not keep(name):
                continue
            previous = self.entries.get(name)
            merged = flags | (previous[3] if previous else set())
            self.entries[name] = ("Function", result, structor_parameters(
                name, cursor, parameters, self.specialized_template), merged, True)
            added.append(name)
        return added


def collect(translation_unit, collector):
    """Adds to collector every non-template function, method and structor of
    translation_unit."""
    def visit(scope):
        for cursor in scope.get_children():
            if cursor.kind in SCOPE_KINDS:
                visit(cursor)
            elif cursor.kind in CLASS_KINDS and cursor.is_definition():
                visit(cursor)
            elif cursor.kind in FUNCTION_KINDS:
                collector.add(cursor)

    visit(translation_unit.cursor)
    return collector.entries
