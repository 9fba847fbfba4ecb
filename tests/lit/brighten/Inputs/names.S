# A brightened function takes the plain name; a declined caller keeps calling its lifted copy,
# which stays as `<name>.lifted` (tests/lit/brighten/names.test).
        .intel_syntax noprefix
        .text
        .globl leaf
        .type leaf, @function
leaf:
        lea eax, [rdi + 1]
        ret
        .size leaf, .-leaf

        .globl declined
        .type declined, @function
declined:
        call leaf
        lea rax, [rip + elsewhere]
        push rax
        ret
elsewhere:
        ret
        .size declined, .-declined

        .globl main
        .type main, @function
main:
        xor eax, eax
        ret
        .size main, .-main
        .section .note.GNU-stack,"",@progbits
