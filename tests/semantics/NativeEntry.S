# Runs one instruction on the real CPU from a given state (see NativeRunner.h).
#
# hoist_native_enter(NativeFrame *frame) saves the host's callee-saved registers and stack,
# loads the flags (popfq while still on the host stack) and then every GPR with mov, which leaves
# the flags alone, and jumps to the code. Exit stubs in the code page store rax and their own
# address, then jump to hoist_native_exit, which stores the general-purpose registers, returns
# to the host stack at once and only then saves the vector and x87 state and reads the flags
# with pushfq.
#
# Between the form's last instruction and the switch back to the host stack only integer movs
# and jumps run. Reason: a form leaves any value in RSP, and with a non-canonical RSP an AMD
# family 26 processor under this project's hypervisor raises spurious #UD (SIGILL) on x87, SSE
# and AVX instructions that follow each other (`fninit; ldmxcsr; vzeroupper` about once in
# 25,000 runs; never with a canonical RSP, never on integer instructions: docs/TESTING.md, "The
# native runner"). Everything from hoist_native_enter to hoist_native_end is the harness's own
# code: a fault in it is a harness error (NativeRunner.cpp), never a result.
#
# The SIMD and x87 state goes in with one xrstor of a standard-format image (x87, MXCSR, XMM,
# the YMM upper halves; components in their initial configuration are initialized rather
# than loaded, so that the CPU tracks them as such), which also initializes AVX-512's opmask
# and ZMM state: whatever the host left there, every form starts from the same state. It
# comes out with vmovdqu (the whole YMM registers) and fxsave; then the host gets a clean x87
# and MXCSR back.
        .intel_syntax noprefix
        .text

        .globl hoist_native_enter
        .type hoist_native_enter, @function
hoist_native_enter:
        push rbx
        push rbp
        push r12
        push r13
        push r14
        push r15
        mov [rip + hoist_native_frame], rdi
        mov [rdi + 288], rsp
        mov rax, [rdi + 136]
        mov [rip + hoist_native_code], rax
        mov eax, 0xe7                   # x87, SSE, AVX and AVX-512's three components
        xor edx, edx
        xrstor [rdi + 1344]
        push qword ptr [rdi + 128]
        popfq
        mov rax, rdi
        mov rcx, [rax + 8]
        mov rdx, [rax + 16]
        mov rbx, [rax + 24]
        mov rsp, [rax + 32]
        mov rbp, [rax + 40]
        mov rsi, [rax + 48]
        mov rdi, [rax + 56]
        mov r8, [rax + 64]
        mov r9, [rax + 72]
        mov r10, [rax + 80]
        mov r11, [rax + 88]
        mov r12, [rax + 96]
        mov r13, [rax + 104]
        mov r14, [rax + 112]
        mov r15, [rax + 120]
        mov rax, [rax]
        jmp qword ptr [rip + hoist_native_code]

        .globl hoist_native_exit
        .type hoist_native_exit, @function
hoist_native_exit:
        mov rax, [rip + hoist_native_frame]
        mov [rax + 152], rcx
        mov [rax + 160], rdx
        mov [rax + 168], rbx
        mov [rax + 176], rsp
        mov [rax + 184], rbp
        mov [rax + 192], rsi
        mov [rax + 200], rdi
        mov [rax + 208], r8
        mov [rax + 216], r9
        mov [rax + 224], r10
        mov [rax + 232], r11
        mov [rax + 240], r12
        mov [rax + 248], r13
        mov [rax + 256], r14
        mov [rax + 264], r15
        mov rcx, [rip + hoist_native_saved_rax]
        mov [rax + 144], rcx
        mov rcx, [rip + hoist_native_exit_rip]
        mov [rax + 280], rcx
        mov rsp, [rax + 288]
        vmovdqu [rax + 320], ymm0
        vmovdqu [rax + 352], ymm1
        vmovdqu [rax + 384], ymm2
        vmovdqu [rax + 416], ymm3
        vmovdqu [rax + 448], ymm4
        vmovdqu [rax + 480], ymm5
        vmovdqu [rax + 512], ymm6
        vmovdqu [rax + 544], ymm7
        vmovdqu [rax + 576], ymm8
        vmovdqu [rax + 608], ymm9
        vmovdqu [rax + 640], ymm10
        vmovdqu [rax + 672], ymm11
        vmovdqu [rax + 704], ymm12
        vmovdqu [rax + 736], ymm13
        vmovdqu [rax + 768], ymm14
        vmovdqu [rax + 800], ymm15
        fxsave [rax + 832]
        fninit
        ldmxcsr [rip + hoist_native_host_mxcsr]
        vzeroupper
        pushfq
        pop rcx
        mov [rax + 272], rcx
        cld
        pop r15
        pop r14
        pop r13
        pop r12
        pop rbp
        pop rbx
        ret
        .globl hoist_native_end
hoist_native_end:

        .data
        .globl hoist_native_saved_rax
        .globl hoist_native_exit_rip
        .balign 8
hoist_native_frame:     .quad 0
hoist_native_code:      .quad 0
hoist_native_saved_rax: .quad 0
hoist_native_exit_rip:  .quad 0
hoist_native_host_mxcsr: .long 0x1f80

        .section .note.GNU-stack,"",@progbits
