# A jump table whose bounds check and jump each load the index from memory, with a store into
# the function's own frame between them (tar's `cmpb $0x56, 0x9c(%rdi); ja` ... `movzbl
# 0x9c(%rdi), %eax; jmp *table(,%rax,4)`): the frame's address is handed to a callee later, so
# LLVM's alias analysis cannot tell the store from the index's memory.
# int classify(const unsigned char *code, int x)
    .text
    .globl classify
    .type classify, @function
classify:
    push    %rbx
    sub     $16, %rsp
    mov     %esi, %ebx
    cmpb    $3, (%rdi)
    ja      .Lother
    movl    $7, 12(%rsp)
    movzbl  (%rdi), %eax
    lea     .Ltable(%rip), %rdx
    movslq  (%rdx,%rax,4), %rax
    add     %rdx, %rax
    jmp     *%rax
.Lcase0:
    lea     12(%rsp), %rdi
    call    bump
    mov     12(%rsp), %eax
    add     %ebx, %eax
    jmp     .Ldone
.Lcase1:
    lea     (%rbx,%rbx,2), %eax
    jmp     .Ldone
.Lcase2:
    mov     %ebx, %eax
    neg     %eax
    jmp     .Ldone
.Lcase3:
    mov     %ebx, %eax
    xor     $0x55, %eax
    jmp     .Ldone
.Lother:
    mov     $-1, %eax
.Ldone:
    add     $16, %rsp
    pop     %rbx
    ret
    .size classify, .-classify
    .section .rodata
    .p2align 2
.Ltable:
    .long .Lcase0-.Ltable, .Lcase1-.Ltable, .Lcase2-.Ltable, .Lcase3-.Ltable
    .section .note.GNU-stack,"",@progbits
