# Calls of imports through their GOT slots (issue 10, lit brighten/import-slots-elf.test), as
# `gcc -fno-plt` and clang emit them: one through the slot, and one through a register loaded
# from the slot before a loop, called in it.
        .text
        .globl  greet
        .type   greet, @function
# int greet(const char *s): puts(s)
greet:
        subq    $8, %rsp
        call    *puts@GOTPCREL(%rip)
        addq    $8, %rsp
        ret
        .size   greet, .-greet

        .globl  write_times
        .type   write_times, @function
# long write_times(const char *s, long n): writes s to stdout n times, returns the bytes written
write_times:
        pushq   %r14
        pushq   %r13
        pushq   %r12
        pushq   %rbx
        pushq   %rbp
        movq    %rdi, %rbx
        movq    %rsi, %rbp
        xorl    %r14d, %r14d
        testq   %rsi, %rsi
        jle     .Ldone
        movq    strlen@GOTPCREL(%rip), %r12
        movq    write@GOTPCREL(%rip), %r13
.Lloop:
        movq    %rbx, %rdi
        call    *%r12
        movq    %rax, %rdx
        movq    %rbx, %rsi
        movl    $1, %edi
        call    *%r13
        addq    %rax, %r14
        subq    $1, %rbp
        jne     .Lloop
.Ldone:
        movq    %r14, %rax
        popq    %rbp
        popq    %rbx
        popq    %r12
        popq    %r13
        popq    %r14
        ret
        .size   write_times, .-write_times

        .globl  main
        .type   main, @function
main:
        xorl    %eax, %eax
        ret
        .size   main, .-main
        .section .note.GNU-stack,"",@progbits
