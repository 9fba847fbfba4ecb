// An immediate moved into a register equal to an address another instruction names
// (number-in-register.test). VALUE is counter's address in the second build.
#ifndef VALUE
#define VALUE 0
#endif
        .text
        .globl  number_and_word
        .type   number_and_word, @function
// long number_and_word(long *out): *out = VALUE, returns the word at counter.
number_and_word:
        movl    $VALUE, %ecx
        movzwl  counter(%rip), %eax
        movq    %rcx, (%rdi)
        ret
        .size   number_and_word, .-number_and_word

        .data
        .globl  counter
        .type   counter, @object
counter:
        .word   0x1234
        .size   counter, 2
        .section .note.GNU-stack,"",@progbits
