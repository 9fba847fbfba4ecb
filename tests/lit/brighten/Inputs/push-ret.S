# A function that leaves through push/ret into code that is not its caller: brightening must
# decline it (issue 26), not turn it into a lone trap.
        .intel_syntax noprefix
        .text
        .globl pushret
        .type pushret, @function
pushret:
        lea rax, [rip + elsewhere]
        push rax
        ret
elsewhere:
        lea eax, [rdi + 42]
        ret

        .globl main
        .type main, @function
main:
        mov edi, 1
        call pushret
        ret
        .section .note.GNU-stack,"",@progbits
