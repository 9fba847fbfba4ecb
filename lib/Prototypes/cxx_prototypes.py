"""The C++ half of the library prototypes: libstdc++'s and the C++ runtime's functions under
their mangled names (generate_library_prototypes.py merges them into the one table).

libclang parses CxxLibraryHeaders.h in C++ mode and names each non-template function, method,
constructor and destructor by its Itanium symbol(s). Only prototypes whose every type has a
class fixed by the types alone are kept: integers, enums, floating point, pointers and
references (a reference is passed as a pointer). A class by value is left out: whether it
travels in registers or by invisible reference depends on it being trivially copyable, which
this script does not decide. A method takes `this` as its first, pointer, parameter;
constructors and destructors return nothing (Itanium C++ ABI on x86-64).
"""

import ctypes

import clang.cindex as ci

TK = ci.TypeKind
CK = ci.CursorKind

PARSE_ARGUMENTS = ["-x", "c++", "-std=gnu++17", "-target", "x86_64-pc-linux-gnu",
                   "-D_GNU_SOURCE", "-O2"]

FUNCTION_KINDS = (CK.FUNCTION_DECL, CK.CXX_METHOD, CK.CONSTRUCTOR, CK.DESTRUCTOR)
SCOPE_KINDS = (CK.NAMESPACE, CK.LINKAGE_SPEC, CK.UNEXPOSED_DECL)
CLASS_KINDS = (CK.CLASS_DECL, CK.STRUCT_DECL)
THIS = ("Pointer", 8, "None", "None", False)


class Unsupported(Exception):
    pass


def cxx_type(type_, pretty, abi_type, parameter=False):
    """The C classes of abi_type, with references as pointers; a class by value, a member
    pointer or anything else C lacks is Unsupported."""
    canonical = type_.get_canonical()
    if canonical.kind in (TK.LVALUEREFERENCE, TK.RVALUEREFERENCE):
        return ("Pointer", 8, "None", "None", canonical.get_pointee().is_const_qualified())
    if canonical.kind in (TK.RECORD, TK.MEMBERPOINTER, TK.NULLPTR, TK.DEPENDENT, TK.UNEXPOSED,
                          TK.AUTO, TK.ELABORATED):
        raise Unsupported(type_.spelling)
    try:
        classes = abi_type(type_, pretty, parameter=parameter)
    except Exception as error:
        raise Unsupported(type_.spelling) from error
    if classes[1] < 0:   # a layout libclang cannot give: a dependent or incomplete type
        raise Unsupported(type_.spelling)
    return classes


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


def prototype(cursor, pretty, abi_type, takes_code):
    function_type = cursor.type
    if function_type.kind != TK.FUNCTIONPROTO:
        raise Unsupported(cursor.spelling)
    parameters = []
    is_method = cursor.kind in (CK.CONSTRUCTOR, CK.DESTRUCTOR) or (
        cursor.kind == CK.CXX_METHOD and not cursor.is_static_method())
    if is_method:
        parameters.append(THIS)
    parameters += [cxx_type(argument, pretty, abi_type, parameter=True)
                   for argument in function_type.argument_types()]
    if cursor.kind in (CK.CONSTRUCTOR, CK.DESTRUCTOR):
        result = ("Void", 0, "None", "None", False)
    else:
        result = cxx_type(function_type.get_result(), pretty, abi_type)
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


def collect(translation_unit, library_file, pretty, abi_type, takes_code):
    """{symbol: ("Function", result, parameters, flags, True)} for translation_unit."""
    entries = {}
    manglings = _manglings(library_file)

    def visit(scope):
        for cursor in scope.get_children():
            if cursor.kind in SCOPE_KINDS:
                visit(cursor)
            elif cursor.kind in CLASS_KINDS and cursor.is_definition():
                visit(cursor)
            elif cursor.kind in FUNCTION_KINDS:
                if cursor.is_deleted_method() if cursor.kind == CK.CXX_METHOD else False:
                    continue
                try:
                    result, parameters, flags = prototype(cursor, pretty, abi_type, takes_code)
                except Unsupported:
                    continue
                for name in symbols(cursor, manglings):
                    previous = entries.get(name)
                    merged = flags | (previous[3] if previous else set())
                    entries[name] = ("Function", result, parameters, merged, True)

    visit(translation_unit.cursor)
    return entries
