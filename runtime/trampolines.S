/* The two crossings between lifted and native code (System V x86-64). Frame offsets are those
 * of HoistNativeFrame in Runtime.h (checked there by static asserts in calls.c). */
        .text

/* void hoist_native_call(HoistNativeFrame *frame, uint64_t function, const uint64_t *stack):
 * calls `function` with the frame's argument registers and the 32 stack words at `stack`,
 * and stores rax, rdx, xmm0, xmm1 and a long double result in st(0) back into the frame. */
        .globl hoist_native_call
        .type hoist_native_call, @function
hoist_native_call:
        push %rbp
        mov %rsp, %rbp
        push %rbx
        push %r12
        mov %rdi, %rbx
        mov %rsi, %r12
        sub $256, %rsp
        /* 32 words, unrolled: cheaper than rep movsq for this size, and this runs per call. */
        .irp offset, 0, 32, 64, 96, 128, 160, 192, 224
        movdqu \offset(%rdx), %xmm0
        movdqu \offset+16(%rdx), %xmm1
        movdqu %xmm0, \offset(%rsp)
        movdqu %xmm1, \offset+16(%rsp)
        .endr
        movdqu 64(%rbx), %xmm0
        movdqu 80(%rbx), %xmm1
        movdqu 96(%rbx), %xmm2
        movdqu 112(%rbx), %xmm3
        movdqu 128(%rbx), %xmm4
        movdqu 144(%rbx), %xmm5
        movdqu 160(%rbx), %xmm6
        movdqu 176(%rbx), %xmm7
        mov 0(%rbx), %rdi
        mov 8(%rbx), %rsi
        mov 16(%rbx), %rdx
        mov 24(%rbx), %rcx
        mov 32(%rbx), %r8
        mov 40(%rbx), %r9
        mov 48(%rbx), %rax
        call *%r12
        mov %rax, 48(%rbx)
        mov %rdx, 56(%rbx)
        movdqu %xmm0, 64(%rbx)
        movdqu %xmm1, 80(%rbx)
        /* A long double result is in st(0): the x87 stack, empty at the call, is not now. */
        movq $0, 208(%rbx)
        fnstsw 0(%rsp)
        movzwl 0(%rsp), %ecx
        shr $11, %ecx
        and $7, %ecx
        jz 1f
        fstpt 192(%rbx)
        movq $1, 208(%rbx)
1:
        lea -16(%rbp), %rsp
        pop %r12
        pop %rbx
        pop %rbp
        ret
        .size hoist_native_call, .-hoist_native_call

/* Entered from a patched function entry (through its stub) by native code that calls the
 * original function: r11 holds the HoistFunction. Saves the argument registers in a
 * HoistNativeFrame on the native stack, runs the lifted function, returns its results. */
        .globl hoist_callback_entry
        .type hoist_callback_entry, @function
hoist_callback_entry:
        push %rbp
        mov %rsp, %rbp
        sub $192, %rsp
        mov %rdi, 0(%rsp)
        mov %rsi, 8(%rsp)
        mov %rdx, 16(%rsp)
        mov %rcx, 24(%rsp)
        mov %r8, 32(%rsp)
        mov %r9, 40(%rsp)
        mov %rax, 48(%rsp)
        movdqu %xmm0, 64(%rsp)
        movdqu %xmm1, 80(%rsp)
        movdqu %xmm2, 96(%rsp)
        movdqu %xmm3, 112(%rsp)
        movdqu %xmm4, 128(%rsp)
        movdqu %xmm5, 144(%rsp)
        movdqu %xmm6, 160(%rsp)
        movdqu %xmm7, 176(%rsp)
        mov %r11, %rdi
        mov %rsp, %rsi
        lea 16(%rbp), %rdx
        call hoist_enter_from_native@PLT
        mov 48(%rsp), %rax
        mov 56(%rsp), %rdx
        movdqu 64(%rsp), %xmm0
        movdqu 80(%rsp), %xmm1
        leave
        ret
        .size hoist_callback_entry, .-hoist_callback_entry

        .section .note.GNU-stack,"",@progbits
