#!/usr/bin/env python3
"""Checks the C++ half of the library prototypes against the compiler, as
check_abi_against_clang.py checks the C half.

Picks a few hundred C++ entries (every n-th mangled name, and every one with a class by value
as result or parameter), demangles each, and writes a C++ file that calls it with distinct
constant arguments: a method on `reinterpret_cast<Scope *>(1)` with a qualified name (no
virtual dispatch), a constructor by placement new (its complete-object symbol), a destructor
by a qualified destructor call. libclang first resolves each call; only those resolved to the
entry's own symbol, without errors, are compiled, by clang++-19 -O2 -fno-inline (an inline
member is then still called, not expanded), and the registers each call sets up are compared
with the table's classes as in the C check. A by-value class the table passes by invisible
reference is not called: building the copy would be a call of its own before the one checked.

Usage: check_cxx_abi_against_clang.py TABLE.inc CxxLibraryHeaders.h PROTOTYPES_DIR WORKDIR
           [--mutate | --mutate-classes]

PROTOTYPES_DIR is lib/Prototypes, whose demangled_names.py and cxx_instantiations.py spell
the calls as the generator does. --mutate swaps two classes in the table first (as the C
check does), --mutate-classes gets the classes by value wrong (mutated_classes); either
succeeds only if calls then disagree.
"""

import os
import re
import subprocess
import sys

import clang.cindex as ci

import check_abi_against_clang as c_check

CXXFILT = "/usr/lib/llvm-19/bin/llvm-cxxfilt"
PARSE_ARGUMENTS = ["-x", "c++", "-std=gnu++17", "-target", "x86_64-pc-linux-gnu",
                   "-D_GNU_SOURCE", "-fno-access-control"]
COMPILER = ["clang++-19", "-O2", "-fno-inline", "-mllvm", "-funcspec-max-clones=0",
            "-c", "-w"] + PARSE_ARGUMENTS[2:]
SAMPLE_EVERY = 7
CLASS_RESULTS = ("StructInMemory", "StructInRegisters")
COMPLETE_CONSTRUCTOR = re.compile(r"C1[EI]")
COMPLETE_DESTRUCTOR = re.compile(r"D1Ev$")


def pick(table):
    names = sorted((name for name in table if name.startswith("_Z")
                    and not name.startswith("_ZL")
                    and "PrototypeFlag::Data" not in table[name]["flags"]
                    and "Variadic" not in table[name]["flags"]), key=str.encode)
    picked = names[::SAMPLE_EVERY]
    for name in names:
        classes = [table[name]["result"][0]] + [parameter[0]
                                                for parameter in table[name]["parameters"]]
        if any(abi_class in CLASS_RESULTS for abi_class in classes) and name not in picked:
            picked.append(name)
    return picked


def argument(type_, abi_class, number):
    """A constant of `type_`, distinct per position: an address for a pointer or reference,
    the object at an address for a class by value (trivially copied: loads, no call)."""
    referenced = "std::remove_reference_t<hoist_id<%s>>" % type_
    if type_.endswith("&&"):
        return "static_cast<hoist_id<%s>>(*reinterpret_cast<%s *>(%d))" % (
            type_, referenced, number)
    if type_.endswith("&"):
        return "*reinterpret_cast<%s *>(%d)" % (referenced, number)
    if type_.endswith("*") or "(*)" in type_:
        return "reinterpret_cast<hoist_id<%s>>(%d)" % (type_, number)
    if abi_class in ("Float", "Double", "LongDouble"):
        return "hoist_id<%s>(%d.5)" % (type_, number)
    if abi_class == "Integer":  # an integer or an enum (std::_Ios_Openmode)
        return "static_cast<hoist_id<%s>>(%d)" % (type_, number)
    return "*reinterpret_cast<hoist_id<%s> *>(%d)" % (type_, number)


def call_expression(signature, entry, namespaces, parameter_list):
    """The call of one entry, or None when it cannot be called without another call first."""
    parameters = parameter_list(signature)
    classes = [parameter[0] for parameter in entry["parameters"]]
    explicit = classes[len(classes) - len(parameters):] if parameters else []
    for type_, abi_class in zip(parameters, explicit):
        if abi_class == "Pointer" and not type_.endswith(("*", "&")) and "(*)" not in type_:
            return None  # a class passed by invisible reference: its copy is a call
    values = ", ".join(argument(type_, abi_class, number + 2)
                       for number, (type_, abi_class) in enumerate(zip(parameters, explicit)))
    if signature.is_destructor():
        return "reinterpret_cast<%s *>(1)->%s::%s()" % (
            signature.scope, signature.scope, signature.name)
    if signature.is_constructor():
        return "::new (reinterpret_cast<void *>(1)) %s(%s)" % (signature.scope, values)
    if signature.scope and signature.scope not in namespaces:
        const = " const" if "const" in signature.qualifiers.split() else ""
        return "reinterpret_cast<%s%s *>(1)->%s::%s(%s)" % (
            signature.scope, const, signature.scope, signature.name, values)
    return "%s::%s(%s)" % (signature.scope, signature.name, values)


def write_program(path, headers, calls):
    lines = ['#include "%s"' % os.path.abspath(headers), "template <class T> using hoist_id = T;"]
    for index, (symbol, expression) in enumerate(calls):
        lines.append('extern "C" void call_%d() { %s; } // %s' % (index, expression, symbol))
    with open(path, "w") as stream:
        stream.write("\n".join(lines) + "\n")


def resolved(path, calls, cxx_prototypes):
    """The calls libclang resolves, without errors, to the symbol they were written for."""
    manglings = cxx_prototypes._manglings(c_check.LIBCLANG)
    unit = ci.Index.create().parse(path, args=PARSE_ARGUMENTS + ["-ferror-limit=0"])
    broken = set()
    for diagnostic in unit.diagnostics:
        if diagnostic.severity < ci.Diagnostic.Error:
            continue
        # An error inside a header names the line of ours that instantiated it in a note.
        for place in [diagnostic] + list(diagnostic.children):
            if place.location.file and place.location.file.name == path:
                broken.add(place.location.line)
    kept = []
    for cursor in unit.cursor.walk_preorder():
        if not cursor.spelling.startswith("call_") or cursor.kind != ci.CursorKind.FUNCTION_DECL:
            continue
        index = int(cursor.spelling[len("call_"):])
        if cursor.location.line in broken:
            continue
        symbol = calls[index][0]
        for child in cursor.walk_preorder():
            target = child.referenced if child.kind.is_expression() else None
            if target is not None and target.kind in cxx_prototypes.FUNCTION_KINDS and \
                    symbol in cxx_prototypes.symbols(target, manglings):
                kept.append(calls[index])
                break
    return kept


def mutated_classes(inc, workdir):
    """A copy of the table whose classes by value are wrong: a result through a hidden
    pointer becomes a pointer in rax, a struct in registers goes to memory."""
    text = open(inc).read().replace("AbiClass::StructInMemory", "AbiClass::Pointer")
    text = text.replace("AbiClass::StructInRegisters", "AbiClass::StructInMemory")
    os.makedirs(workdir, exist_ok=True)
    path = os.path.join(workdir, "MutatedPrototypes.inc")
    with open(path, "w") as stream:
        stream.write(text)
    return path


def main():
    inc, headers, prototypes_dir, workdir = sys.argv[1:5]
    mutate = "--mutate" in sys.argv[5:]
    if "--mutate-classes" in sys.argv[5:]:
        inc, mutate = mutated_classes(inc, workdir), True
    sys.path.insert(0, prototypes_dir)
    import cxx_instantiations
    import cxx_prototypes
    import demangled_names
    ci.Config.set_library_file(c_check.LIBCLANG)
    os.makedirs(workdir, exist_ok=True)
    table = c_check.read_table(inc, mutate=mutate)
    picked = pick(table)
    demangled = subprocess.run([CXXFILT], input="\n".join(picked), check=True,
                               capture_output=True, text=True).stdout.splitlines()
    headers_unit = ci.Index.create().parse(headers, args=PARSE_ARGUMENTS)
    namespaces = cxx_instantiations.namespaces_of(headers_unit)
    calls = []
    for name, text in zip(picked, demangled):
        signature = demangled_names.split(text)
        if signature is None or \
                (signature.is_constructor() and not COMPLETE_CONSTRUCTOR.search(name)) or \
                (signature.is_destructor() and not COMPLETE_DESTRUCTOR.search(name)):
            continue  # base-object and deleting structors: no expression calls them alone
        expression = call_expression(signature, table[name], namespaces,
                                     cxx_instantiations.parameter_list)
        if expression:
            calls.append((name, expression))
    source = os.path.join(workdir, "calls.cpp")
    write_program(source, headers, calls)
    calls = resolved(source, calls, cxx_prototypes)
    write_program(source, headers, calls)
    object_file = os.path.join(workdir, "calls.o")
    subprocess.run(COMPILER + ["-o", object_file, source], check=True)
    checked_names = [name for name, _ in calls]
    failures, unattributed = c_check.compare(table, checked_names,
                                             c_check.call_setups(object_file))
    print("checked %d calls of %d picked C++ functions (the rest cannot be called alone, or "
          "resolve to another symbol)" % (len(checked_names), len(picked)))
    c_check.finish(len(checked_names), failures, unattributed, mutate)


if __name__ == "__main__":
    main()
