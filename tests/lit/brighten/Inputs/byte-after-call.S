# A byte merged into RAX after a call of a function that returns nothing: the bits above it
# are whatever the callee left, the byte is defined (clang-13 -O1's csmith main reads a
# bitfield with `mov g(%rip), %al; shl $2, %al; sar $2, %al` right after such a call).
# int low_bits(const signed char *p): note(), then *p's low 6 bits, sign-extended.
    .text
    .globl note
    .type note, @function
note:
    addl    $1, calls(%rip)
    ret
    .size note, .-note
    .globl low_bits
    .type low_bits, @function
low_bits:
    push    %rbx
    mov     %rdi, %rbx
    call    note
    mov     (%rbx), %al
    shl     $2, %al
    sar     $2, %al
    movsbl  %al, %eax
    pop     %rbx
    ret
    .size low_bits, .-low_bits
    .bss
    .globl calls
calls:
    .long 0
    .section .note.GNU-stack,"",@progbits
