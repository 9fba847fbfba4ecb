# Symbols that lifted functions take as names, and those they cannot take as they are
# (tests/lit/lift/function-names.test).
        .intel_syntax noprefix
        .text
        .globl main
        .type main, @function
main:                           # the C runtime's entry: main.<hex>
        call plain
        call dup
        call other_dup
        call fn_1
        call "odd name"
        ret
        .size main, .-main

        .globl plain
        .type plain, @function
plain:                          # plain
        lea eax, [rdi + 1]
        ret
        .size plain, .-plain

        .type dup, @function
dup:                            # also the name of a function of names-dup.s: dup.<hex>
        lea eax, [rdi + 2]
        ret
        .size dup, .-dup

        .globl fn_1
        .type fn_1, @function
fn_1:                           # Hoist's own prefix: fn_1.<hex>
        lea eax, [rdi + 3]
        ret
        .size fn_1, .-fn_1

        .globl "odd name"
        .type "odd name", @function
"odd name":                     # not an identifier: fn_<hex>
        lea eax, [rdi + 4]
        ret
        .size "odd name", .-"odd name"
        .section .note.GNU-stack,"",@progbits
