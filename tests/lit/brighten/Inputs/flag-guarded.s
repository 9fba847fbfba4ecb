# Callee-saved registers gcc -O2 leaves unset where a flag says they hold nothing yet
# (flag-guarded.test). From
#   void set_last(const char *name, const char **out) {
#     const char *last; int found = 0;
#     *out = name;
#     for (const char *p = name; *p; p++) { putchar(*p); if (*p == '/') { found = 1; last = p + 1; } }
#     if (found) *out = last;
#   }
#   int parse_pairs(const char *s, long *pairs) {   /* "1,2,3,4": pairs of numbers */
#     long first; int odd = 1, n = 0; char *end;
#     for (;;) {
#       long v = strtol(s, &end, 10);
#       if (!odd) { pairs[n++] = first; pairs[n++] = v; } else first = v;
#       odd ^= 1;
#       if (*end != ',') return *end == 0 ? n : -1;
#       s = end + 1;
#     }
#   }
        .text
# R14 (`last`) is set only with EBP (`found`): set_last stores it only where EBP is not zero
# (`skip` je), as gcc compiled it; stores_unset, with the test turned round (`skip` jne), where
# EBP is zero, unset if no '/' came.
        .macro  last name, skip
        .globl  \name
        .type   \name, @function
\name:
        pushq   %r14
        movq    %rdi, (%rsi)
        pushq   %r13
        movq    %rsi, %r13
        pushq   %r12
        pushq   %rbp
        pushq   %rbx
        movq    %rdi, %rbx
        movsbl  (%rdi), %edi
        testb   %dil, %dil
        je      1f
        xorl    %ebp, %ebp
        movl    $1, %r12d
0:      call    putchar@PLT
        addq    $1, %rbx
        movzbl  -1(%rbx), %eax
        movsbl  (%rbx), %edi
        cmpb    $47, %al
        cmove   %rbx, %r14
        cmove   %r12d, %ebp
        testb   %dil, %dil
        jne     0b
        testl   %ebp, %ebp
        \skip   1f
        movq    %r14, 0(%r13)
1:      popq    %rbx
        popq    %rbp
        popq    %r12
        popq    %r13
        popq    %r14
        ret
        .size   \name, .-\name
        .endm

        last    set_last, je
        last    stores_unset, jne

# R12 (`first`) is set on the turns R14 (`odd`) is 1 and stored on those it is 0; R14
# alternates from `start`: from 1 (parse_pairs) as gcc compiled it, from 0 (pairs_wrong_turn)
# the first turn stores R12 unset.
        .macro  pairs name, start
        .globl  \name
        .type   \name, @function
\name:
        pushq   %r14
        movl    $\start, %r14d
        pushq   %r13
        pushq   %r12
        pushq   %rbp
        movq    %rsi, %rbp
        pushq   %rbx
        xorl    %ebx, %ebx
        subq    $16, %rsp
        leaq    8(%rsp), %r13
        jmp     2f
0:      movq    8(%rsp), %rdi
        movslq  %ebx, %rdx
        xorl    $1, %r14d
        addl    $2, %ebx
        movq    %r12, 0(%rbp,%rdx,8)
        movq    %rax, 8(%rbp,%rdx,8)
        movzbl  (%rdi), %eax
        cmpb    $44, %al
        jne     3f
1:      addq    $1, %rdi
2:      movl    $10, %edx
        movq    %r13, %rsi
        call    strtol@PLT
        testl   %r14d, %r14d
        je      0b
        movq    8(%rsp), %rdi
        movq    %rax, %r12
        xorl    $1, %r14d
        movzbl  (%rdi), %eax
        cmpb    $44, %al
        je      1b
3:      testb   %al, %al
        movl    $-1, %eax
        cmovne  %eax, %ebx
        addq    $16, %rsp
        movl    %ebx, %eax
        popq    %rbx
        popq    %rbp
        popq    %r12
        popq    %r13
        popq    %r14
        ret
        .size   \name, .-\name
        .endm

        pairs   parse_pairs, 1
        pairs   pairs_wrong_turn, 0
        .section .note.GNU-stack,"",@progbits
