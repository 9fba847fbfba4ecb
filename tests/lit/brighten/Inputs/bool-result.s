# A bool returned in R14's low byte with the caller's bits 8..31 of R14 above it (gcc -O2:
# `sete %r14b; mov %r14d, %eax`, diff's fn_14180), read by callers that test AL alone, by one
# that stores all of EAX, and by whoever calls through its address (bool-result.test).
        .text
        .macro  starts_with_space name
        .type   \name, @function
\name:
        pushq   %r14
        cmpb    $32, (%rdi)
        sete    %r14b
        movl    %r14d, %eax
        popq    %r14
        ret
        .size   \name, .-\name
        .endm

        starts_with_space space_for_tests
        starts_with_space space_for_store
        starts_with_space space_for_pointer

# int count_spaces(const char **v, int n): the strings that start with a space.
        .globl  count_spaces
        .type   count_spaces, @function
count_spaces:
        pushq   %rbx
        pushq   %rbp
        pushq   %r12
        movq    %rdi, %rbx
        movl    %esi, %ebp
        xorl    %r12d, %r12d
0:      testl   %ebp, %ebp
        je      2f
        movq    (%rbx), %rdi
        call    space_for_tests
        testb   %al, %al
        je      1f
        addl    $1, %r12d
# Padding with a memory operand through RAX (xz's `cs nopw 0x0(%rax,%rax,1)` inside a loop),
# which reads nothing, then EAX cleared as gcc clears it before a variadic call (gzip's
# yes-or-no prompt): a write, not a read of the result's upper bits.
1:      nopw    0x0(%rax,%rax,1)
        xorl    %eax, %eax
        addq    $8, %rbx
        subl    $1, %ebp
        jmp     0b
2:      movl    %r12d, %eax
        popq    %r12
        popq    %rbp
        popq    %rbx
        ret
        .size   count_spaces, .-count_spaces

# void store_space(const char *s, int *out): all of EAX stored.
        .globl  store_space
        .type   store_space, @function
store_space:
        pushq   %rbx
        movq    %rsi, %rbx
        call    space_for_store
        movl    %eax, (%rbx)
        popq    %rbx
        ret
        .size   store_space, .-store_space

# bool (*space_pointer(const char *s, int *out))(const char *): *out = the third copy's
# answer, read as AL; returns the copy's address, so its callers are not all in sight.
        .globl  space_pointer
        .type   space_pointer, @function
space_pointer:
        pushq   %rbx
        movq    %rsi, %rbx
        call    space_for_pointer
        movzbl  %al, %eax
        movl    %eax, (%rbx)
        leaq    space_for_pointer(%rip), %rax
        popq    %rbx
        ret
        .size   space_pointer, .-space_pointer
        .section .note.GNU-stack,"",@progbits
