"""The exported C++ functions the cursors of CxxLibraryHeaders.h do not give: above all the
members of the class and function template specializations libstdc++ instantiates explicitly
(`extern template class basic_string<char>;`, the stream inserters), and functions with a
class by value, under the symbols the C++ libraries (libstdc++.so.6, libjsoncpp) export.

libclang's cursors do not reach the members of an explicit instantiation, but they do reach
what an expression names. So the exported symbols are demangled (llvm-cxxfilt) and each
becomes a function that calls it with arguments of exactly its parameter types (a method on
`*self`, a constructor by placement new, a destructor by a destructor call). clang resolves
the calls; the entry is the declaration clang found, typed by clang, and keyed by clang's own
mangling of it, kept only where that is an exported symbol. A name the demangled text got
wrong resolves to nothing or to another symbol, never to a wrong entry.

Each snippet also declares `char hoist_trivial_N[1 + mask]`, whose size says which of the
result and parameter types are trivial for the purposes of calls: a class that is not is
returned through a hidden pointer and passed by invisible reference (Itanium C++ ABI 3.1.2
and 3.1.3), one that is travels as a C struct would. Trivial for calls is not trivially
copyable: std::pair, with its own assignment operators, is the one but not the other.
"""

import os
import subprocess

import clang.cindex as ci

import demangled_names

CK = ci.CursorKind
# The C++ libraries whose exports get entries; CxxLibraryHeaders.h includes their headers.
LIBRARIES = ["/usr/lib/x86_64-linux-gnu/libstdc++.so.6",
             "/usr/lib/x86_64-linux-gnu/libjsoncpp.so.25"]
NM = "/usr/lib/llvm-19/bin/llvm-nm"
CXXFILT = "/usr/lib/llvm-19/bin/llvm-cxxfilt"
FUNCTION_KINDS = (CK.FUNCTION_DECL, CK.CXX_METHOD, CK.CONSTRUCTOR, CK.DESTRUCTOR,
                  CK.CONVERSION_FUNCTION)

PRELUDE = """template <class T> using hoist_id = T;
// Itanium C++ ABI 3.1.2: a trivial destructor, and each copy and move constructor trivial
// or deleted, not all of them deleted (access does not count: -fno-access-control).
template <class T> constexpr bool hoist_trivial_for_calls() {
  if constexpr (__is_class(T) || __is_union(T))
    return __is_trivially_destructible(T) &&
           (__is_constructible(T, const T &) || __is_constructible(T, T &&)) &&
           (!__is_constructible(T, const T &) || __is_trivially_constructible(T, const T &)) &&
           (!__is_constructible(T, T &&) || __is_trivially_constructible(T, T &&));
  return false;
}
template <class... T> constexpr unsigned long hoist_mask() {
  unsigned long mask = 0, bit = 1;
  ((mask |= hoist_trivial_for_calls<T>() ? bit : 0, bit <<= 1), ...);
  return mask;
}
"""


def libraries():
    """The LIBRARIES installed here."""
    return [library for library in LIBRARIES if os.path.exists(library)]


def exported_functions(library):
    """{symbol: demangled} of the C++ functions the library defines, without versions."""
    listing = subprocess.run([NM, "-D", "--defined-only", library], check=True,
                             capture_output=True, text=True).stdout
    symbols = sorted({fields[2].split("@")[0] for fields in
                      (line.split() for line in listing.splitlines())
                      if len(fields) == 3 and fields[1] in "TWi" and fields[2].startswith("_Z")})
    demangled = subprocess.run([CXXFILT], input="\n".join(symbols), check=True,
                               capture_output=True, text=True).stdout.splitlines()
    return dict(zip(symbols, demangled))


def parameter_list(signature):
    """The parameter types a demangled signature spells, each a C++ type-id."""
    return [] if not signature.parameters else \
        demangled_names.split_top_level(signature.parameters, ", ")


def forwarded(parameters):
    """`T a0, U a1` and the expressions passing them on as the types they are."""
    names = ", ".join("hoist_id<%s> a%d" % (type_, number)
                      for number, type_ in enumerate(parameters))
    values = ", ".join("static_cast<hoist_id<%s> &&>(a%d)" % (type_, number)
                       for number, type_ in enumerate(parameters))
    return names, values


def snippet(index, signature, namespaces):
    """C++ that names the function `signature` spells inside `hoist_use_<index>`: a call with
    arguments of exactly its parameter types, which overload resolution matches to it (an
    address would not do: deduction from an overload set with a member template in it, as
    basic_string::find has, deduces nothing). A scope not among `namespaces` is a class,
    whose methods are called on an object (a static one as well)."""
    parameters = [type_ for type_ in parameter_list(signature) if type_ != "..."]
    names, values = forwarded(parameters)
    if signature.is_destructor():
        return "void hoist_use_%d(%s *self) { self->%s(); }\n" % (
            index, signature.scope, signature.name)
    if signature.is_constructor():
        call, result = "::new (where) %s(%s)" % (signature.scope, values), "void"
        names = ", ".join(["void *where"] + ([names] if names else []))
    else:
        if signature.scope and signature.scope not in namespaces:
            const = " const" if "const" in signature.qualifiers.split() else ""
            rvalue = "&&" in signature.qualifiers.split()
            names = ", ".join(["%s%s *self" % (signature.scope, const)] +
                              ([names] if names else []))
            object_ = "static_cast<%s%s &&>(*self)" % (signature.scope, const) if rvalue \
                else "(*self)"
            call = "%s.%s(%s)" % (object_, signature.name, values)
        else:
            call = "%s::%s(%s)" % (signature.scope, signature.name, values)
        result = "decltype(%s)" % call
    return ("void hoist_use_%d(%s) {\n"
            "  extern char hoist_trivial_%d[1 + hoist_mask<%s>()];\n"
            "  %s;\n}\n" % (index, names, index, ", ".join([result] + parameters), call))


def namespaces_of(translation_unit):
    """The qualified names of the named namespaces translation_unit declares."""
    names = set()

    def visit(scope, prefix):
        for cursor in scope.get_children():
            if cursor.kind == CK.NAMESPACE and cursor.spelling:
                name = prefix + cursor.spelling
                names.add(name)
                visit(cursor, name + "::")
            elif cursor.kind == CK.LINKAGE_SPEC:
                visit(cursor, prefix)

    visit(translation_unit.cursor, "")
    return names


def translation_unit_text(symbols, namespaces, headers):
    """The C++ naming each of `symbols` ({symbol: demangled}) after including `headers`, and
    the symbol of each snippet's index."""
    parts, order = ['#include "%s"\n' % headers, PRELUDE], []
    for symbol, demangled in sorted(symbols.items()):
        signature = demangled_names.split(demangled)
        if signature is None:
            continue
        parts.append(snippet(len(order), signature, namespaces))
        order.append(symbol)
    return "".join(parts), order


def resolve(translation_unit):
    """{snippet index: (the function cursors it names, trivial-for-calls mask or None)}."""
    found = {}
    for cursor in translation_unit.cursor.get_children():
        if cursor.kind != CK.FUNCTION_DECL or not cursor.spelling.startswith("hoist_use_"):
            continue
        functions, mask = [], None
        for child in cursor.walk_preorder():
            if child.kind == CK.VAR_DECL and child.spelling.startswith("hoist_trivial_"):
                size = child.type.get_size()
                mask = size - 1 if size > 0 else None
            referenced = child.referenced if child.kind.is_expression() else None
            if referenced is not None and referenced.kind in FUNCTION_KINDS:
                functions.append(referenced)
        found[int(cursor.spelling[len("hoist_use_"):])] = (functions, mask)
    return found


def collect(collector, headers_unit, headers, parse_arguments, workdir):
    """Adds the exported functions of the installed LIBRARIES to collector (a
    cxx_prototypes.Collector), but for symbols it holds already; headers_unit is the parse
    of `headers` (CxxLibraryHeaders.h), which tells namespaces from classes. The translation
    unit parsed, for the depfile (None without any of the libraries)."""
    exports = {}
    for library in libraries():
        exports.update(exported_functions(library))
    if not exports:
        return None
    text, order = translation_unit_text(
        {symbol: demangled for symbol, demangled in exports.items()
         if symbol not in collector.entries}, namespaces_of(headers_unit),
        os.path.abspath(headers))
    source = os.path.join(workdir, "CxxInstantiations.cpp")
    with open(source, "w") as stream:
        stream.write(text)
    # Access control would reject naming the private members (_M_create) that inline code
    # in programs calls; clang still resolves and types them.
    translation_unit = ci.Index.create().parse(
        source, args=parse_arguments + ["-fno-access-control", "-ferror-limit=0"])
    for index, (functions, mask) in sorted(resolve(translation_unit).items()):
        for function in functions:
            # The mask describes the types the snippet spelled: only for the symbol it named.
            named = order[index] in collector.manglings(function) or \
                order[index] == (function.mangled_name or "").lstrip("\x01")
            collector.add(function, mask if named else None,
                          keep=lambda name: name in exports and name not in collector.entries)
    return translation_unit
