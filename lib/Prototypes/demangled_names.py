"""Splits a demangled C++ function symbol into the parts a declaration is named by.

llvm-cxxfilt prints `RESULT NAME(PARAMETERS) QUALIFIERS`, with the result only for a
specialization of a function template (the Itanium ABI mangles a template's result, not a
plain function's). cxx_instantiations.py writes C++ that names the function from these parts
and lets clang resolve it; clang's own mangling of what it found then decides whether it was
the symbol, so a wrong split here loses an entry and never gives a wrong one.
"""

import re
from typing import NamedTuple, Optional

# Operator names with brackets or spaces in them, replaced by a placeholder while the brackets
# are counted (`operator<<<std::char_traits<char>>` is `operator<<` with one template argument).
OPERATORS = ["<<=", ">>=", "<=>", "<<", ">>", "<=", ">=", "->*", "->", "<", ">", "()", "[]"]
OPERATOR = re.compile(r"operator(%s)" % "|".join(re.escape(text) for text in OPERATORS))
PLACEHOLDER = re.compile(r"operator@(\d+)")
ABI_TAG = re.compile(r"\[abi:\w+\]")
QUALIFIERS = (" const", " volatile", " &&", " &")
NOT_FUNCTIONS = ("thunk to ", "vtable for ", "VTT for ", "typeinfo", "construction vtable",
                 "guard variable", "TLS ", "reference temporary", "transaction clone")


class Signature(NamedTuple):
    result: Optional[str]  # spelled only for a function template's specialization
    scope: str             # the class or namespace, "" at global scope
    name: str              # with its template arguments, if any
    parameters: str
    qualifiers: str        # of a method: const, &, &&

    @property
    def plain_name(self):
        """The name without template arguments: what a constructor shares with its class."""
        return split_top_level(self.name, "<")[0] if not self.name.startswith("operator") \
            else self.name

    def is_constructor(self):
        return bool(self.scope) and self.plain_name == last_component(self.scope)

    def is_destructor(self):
        return self.name.startswith("~")


def restore(text):
    """Puts the operator names back; a template argument list after one gets a space first
    (`operator<< <...>`), which C++ needs and the demangler leaves out."""
    return PLACEHOLDER.sub(lambda match: "operator%s " % OPERATORS[int(match.group(1))], text)


def depth_change(character):
    return {"<": 1, "(": 1, "[": 1, ">": -1, ")": -1, "]": -1}.get(character, 0)


def split_top_level(text, separator):
    """text split at each `separator` outside brackets (<>, (), [])."""
    parts, depth, start, index = [], 0, 0, 0
    while index < len(text):
        if depth == 0 and text.startswith(separator, index):
            parts.append(text[start:index])
            index += len(separator)
            start = index
            continue
        depth += depth_change(text[index])
        index += 1
    parts.append(text[start:])
    return parts


def last_component(scope):
    return split_top_level(split_top_level(scope, "::")[-1], "<")[0]


def split(demangled) -> Optional[Signature]:
    """The parts of a function symbol's demangled name, or None for data, thunks and
    anything else not a plain call target."""
    if any(marker in demangled for marker in NOT_FUNCTIONS):
        return None
    # An ABI tag names no declaration: `_M_message[abi:cxx11]` is declared `_M_message`.
    text = OPERATOR.sub(lambda match: "operator@%d" % OPERATORS.index(match.group(1)),
                        ABI_TAG.sub("", demangled))
    # A conversion operator's name has a space in it: keep it one word while splitting.
    text = re.sub(r"\boperator (?!new\b|delete\b)", "operator~", text)
    qualifiers = []
    while text.endswith(QUALIFIERS):
        suffix = next(suffix for suffix in QUALIFIERS if text.endswith(suffix))
        qualifiers.insert(0, suffix.strip())
        text = text[:-len(suffix)]
    if not text.endswith(")"):
        return None
    depth, index = 0, len(text) - 1
    while index >= 0:
        depth -= {")": 1, "(": -1}.get(text[index], 0)
        if depth == 0:
            break
        index -= 1
    if index <= 0:
        return None
    words = split_top_level(text[:index], " ")
    result, name = " ".join(words[:-1]) or None, words[-1]
    if "operator~" in name:  # a conversion: the type after it may have a scope of its own
        scope, _, member = name.partition("::operator~")
        scope, member = (scope, "operator~" + member) if member else ("", scope)
    else:
        scope_parts = split_top_level(name, "::")
        scope, member = "::".join(scope_parts[:-1]), scope_parts[-1]
    unmark = lambda part: restore(part).replace("operator~", "operator ")
    return Signature(unmark(result) if result else None, unmark(scope), unmark(member),
                     unmark(text[index + 1:-1]), " ".join(qualifiers))
