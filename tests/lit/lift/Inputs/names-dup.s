# A second static function `dup` (tests/lit/lift/function-names.test).
        .intel_syntax noprefix
        .text
        .type dup, @function
dup:
        lea eax, [rdi + 5]
        ret
        .size dup, .-dup

        .globl other_dup
        .type other_dup, @function
other_dup:
        jmp dup
        .size other_dup, .-other_dup
        .section .note.GNU-stack,"",@progbits
