#!/usr/bin/env python3
"""Writes the assembly of a synthetic x86-64 shared object of about N instructions.

Each function is the same small shape that compilers emit (prologue, arithmetic, a compare and
branch, loads and stores through the stack, a call of the previous function, epilogue): 20
instructions, so the binary scales by function count alone and time per instruction can be
compared across sizes. Usage: make_synthetic.py INSTRUCTIONS OUT.s
"""
import sys

INSTRUCTIONS_PER_FUNCTION = 20


def function(index):
    name = f"synth_{index}"
    callee = f"synth_{index - 1}" if index > 0 else None
    body = [
        "push rbp",
        "mov rbp, rsp",
        "sub rsp, 16",
        f"lea eax, [rdi + {index % 97 + 1}]",
        "mov dword ptr [rbp - 4], eax",
        "imul eax, esi",
        "xor edx, edx",
        "cmp eax, edi",
        f"jle .L{index}_small",
        "add eax, dword ptr [rbp - 4]",
        "shl edx, 3",
        f".L{index}_small:",
        "sub eax, edx",
        "mov edi, eax",
        "and esi, 255",
        f"call {callee}" if callee else "nop",
        "add eax, dword ptr [rbp - 4]",
        "mov dword ptr [rbp - 8], eax",
        "mov eax, dword ptr [rbp - 8]",
        "leave",
        "ret",
    ]
    lines = [f".globl {name}", f".type {name}, @function", f"{name}:"]
    lines += [line if line.endswith(":") else "  " + line for line in body]
    lines.append(f".size {name}, .-{name}")
    return "\n".join(lines)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    functions = max(1, int(sys.argv[1]) // INSTRUCTIONS_PER_FUNCTION)
    with open(sys.argv[2], "w") as out:
        out.write(".intel_syntax noprefix\n.text\n")
        for index in range(functions):
            out.write(function(index) + "\n")
        out.write('.section .note.GNU-stack,"",@progbits\n')


if __name__ == "__main__":
    main()
