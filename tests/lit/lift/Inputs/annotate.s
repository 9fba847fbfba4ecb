# Machine code for `hoist lift --annotate` (tests/lit/lift/annotate.test): instructions that
# leave no IR of their own (`mov rbx, rdi` at -O0), a block whose first instructions leave
# none, and the nop padding an aligned function starts after.
        .intel_syntax noprefix
        .text
        .globl helper
        .type helper, @function
helper:
        mov rax, rdi
        add rax, 1
        ret
        .size helper, .-helper

        .p2align 4, 0x90
        .globl annotated
        .type annotated, @function
annotated:
        push rbx
        mov rbx, rdi
        test rdi, rdi
        jz .Lzero
        call helper
        pop rbx
        ret
        int3                    # padding as compilers leave it between blocks
        nop
.Lzero:
        mov rcx, rbx
        mov eax, 7
        pop rbx
        ret
        .size annotated, .-annotated
        .section .note.GNU-stack,"",@progbits
