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
# and MXCSR back. For an AVX-512 form (the frame's avx512 word set, only on hosts that have
# AVX-512) the 32 zmm and 8 opmask registers are loaded after the xrstor and saved at the
# exit with vmovdqu64 and kmovq; the exit reads the flags before the test that chooses this.
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
        cmp qword ptr [rdi + 8256], 0   # AVX-512 state (before popfq sets the flags)
        je 1f
        vmovdqu64 zmm0, [rdi + 4032]
        vmovdqu64 zmm1, [rdi + 4096]
        vmovdqu64 zmm2, [rdi + 4160]
        vmovdqu64 zmm3, [rdi + 4224]
        vmovdqu64 zmm4, [rdi + 4288]
        vmovdqu64 zmm5, [rdi + 4352]
        vmovdqu64 zmm6, [rdi + 4416]
        vmovdqu64 zmm7, [rdi + 4480]
        vmovdqu64 zmm8, [rdi + 4544]
        vmovdqu64 zmm9, [rdi + 4608]
        vmovdqu64 zmm10, [rdi + 4672]
        vmovdqu64 zmm11, [rdi + 4736]
        vmovdqu64 zmm12, [rdi + 4800]
        vmovdqu64 zmm13, [rdi + 4864]
        vmovdqu64 zmm14, [rdi + 4928]
        vmovdqu64 zmm15, [rdi + 4992]
        vmovdqu64 zmm16, [rdi + 5056]
        vmovdqu64 zmm17, [rdi + 5120]
        vmovdqu64 zmm18, [rdi + 5184]
        vmovdqu64 zmm19, [rdi + 5248]
        vmovdqu64 zmm20, [rdi + 5312]
        vmovdqu64 zmm21, [rdi + 5376]
        vmovdqu64 zmm22, [rdi + 5440]
        vmovdqu64 zmm23, [rdi + 5504]
        vmovdqu64 zmm24, [rdi + 5568]
        vmovdqu64 zmm25, [rdi + 5632]
        vmovdqu64 zmm26, [rdi + 5696]
        vmovdqu64 zmm27, [rdi + 5760]
        vmovdqu64 zmm28, [rdi + 5824]
        vmovdqu64 zmm29, [rdi + 5888]
        vmovdqu64 zmm30, [rdi + 5952]
        vmovdqu64 zmm31, [rdi + 6016]
        kmovq k0, [rdi + 6080]
        kmovq k1, [rdi + 6088]
        kmovq k2, [rdi + 6096]
        kmovq k3, [rdi + 6104]
        kmovq k4, [rdi + 6112]
        kmovq k5, [rdi + 6120]
        kmovq k6, [rdi + 6128]
        kmovq k7, [rdi + 6136]
1:
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
        pushfq                          # the flags first: the AVX-512 test below changes them
        pop rcx
        mov [rax + 272], rcx
        cmp qword ptr [rax + 8256], 0
        je 1f
        vmovdqu64 [rax + 6144], zmm0
        vmovdqu64 [rax + 6208], zmm1
        vmovdqu64 [rax + 6272], zmm2
        vmovdqu64 [rax + 6336], zmm3
        vmovdqu64 [rax + 6400], zmm4
        vmovdqu64 [rax + 6464], zmm5
        vmovdqu64 [rax + 6528], zmm6
        vmovdqu64 [rax + 6592], zmm7
        vmovdqu64 [rax + 6656], zmm8
        vmovdqu64 [rax + 6720], zmm9
        vmovdqu64 [rax + 6784], zmm10
        vmovdqu64 [rax + 6848], zmm11
        vmovdqu64 [rax + 6912], zmm12
        vmovdqu64 [rax + 6976], zmm13
        vmovdqu64 [rax + 7040], zmm14
        vmovdqu64 [rax + 7104], zmm15
        vmovdqu64 [rax + 7168], zmm16
        vmovdqu64 [rax + 7232], zmm17
        vmovdqu64 [rax + 7296], zmm18
        vmovdqu64 [rax + 7360], zmm19
        vmovdqu64 [rax + 7424], zmm20
        vmovdqu64 [rax + 7488], zmm21
        vmovdqu64 [rax + 7552], zmm22
        vmovdqu64 [rax + 7616], zmm23
        vmovdqu64 [rax + 7680], zmm24
        vmovdqu64 [rax + 7744], zmm25
        vmovdqu64 [rax + 7808], zmm26
        vmovdqu64 [rax + 7872], zmm27
        vmovdqu64 [rax + 7936], zmm28
        vmovdqu64 [rax + 8000], zmm29
        vmovdqu64 [rax + 8064], zmm30
        vmovdqu64 [rax + 8128], zmm31
        kmovq [rax + 8192], k0
        kmovq [rax + 8200], k1
        kmovq [rax + 8208], k2
        kmovq [rax + 8216], k3
        kmovq [rax + 8224], k4
        kmovq [rax + 8232], k5
        kmovq [rax + 8240], k6
        kmovq [rax + 8248], k7
1:
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
