# A callee-saved register set only where a pointer argument is not null, and stored through
# that pointer after the pointer is reloaded from the frame to test it again (ls's
# quote-and-count function, reloaded-flag.test). From
#   size_t count_upper(const char *s, size_t *count) {
#     size_t length = strlen(s), upper;
#     if (count) { upper = 0; for (const char *p = s; *p; p++) upper += *p >= 'A' && *p <= 'Z'; }
#     puts(s);
#     if (count) *count = upper;
#     show_length(&length);
#     return length;
#   }
# with `count` spilled at 8(%rsp) and tested there twice. slot_passed hands the slot's address
# to a function between the two tests, slot_overwritten stores another pointer there: the
# second test may then see a pointer where the first saw null, and RBX reaches the store.
        .text
        .macro  reloaded name, first, second=
        .globl  \name
        .type   \name, @function
\name:
        pushq   %rbx
        pushq   %rbp
        subq    $24, %rsp
        movq    %rdi, %rbp
        movq    %rsi, 8(%rsp)
        call    strlen@PLT
        movq    %rax, 16(%rsp)
        cmpq    $0, 8(%rsp)
        je      1f
        xorl    %ebx, %ebx
        movq    %rbp, %rdx
0:      movzbl  (%rdx), %eax
        testb   %al, %al
        je      1f
        subl    $65, %eax
        cmpb    $26, %al
        adcq    $0, %rbx
        addq    $1, %rdx
        jmp     0b
1:      \first
        \second
        cmpq    $0, 8(%rsp)
        je      2f
        movq    8(%rsp), %rax
        movq    %rbx, (%rax)
2:      leaq    16(%rsp), %rdi
        call    show_length@PLT
        movq    16(%rsp), %rax
        addq    $24, %rsp
        popq    %rbp
        popq    %rbx
        ret
        .size   \name, .-\name
        .endm

        reloaded count_upper, "movq %rbp, %rdi", "call puts@PLT"
        reloaded slot_passed, "leaq 8(%rsp), %rdi", "call point_somewhere@PLT"
        reloaded slot_overwritten, "movq %rbp, 8(%rsp)"
        .section .note.GNU-stack,"",@progbits
