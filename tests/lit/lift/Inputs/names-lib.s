# A shared library that calls its own export through the PLT: `exported` is an import of the
# library too (tests/lit/lift/function-names.test).
        .intel_syntax noprefix
        .text
        .globl exported
        .type exported, @function
exported:
        lea eax, [rdi + 1]
        ret
        .size exported, .-exported

        .globl calls_exported
        .type calls_exported, @function
calls_exported:
        call exported@PLT
        ret
        .size calls_exported, .-calls_exported
        .section .note.GNU-stack,"",@progbits
