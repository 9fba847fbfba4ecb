# Obfuscation-style samples for `hoist lift --deobfuscate` (docs/DEOBFUSCATE.md). Each
# obf_<name> computes what plain_<name> computes, System V, long f(long a, long b), through
# one trick that hides its control flow from a static lifter.
        .intel_syntax noprefix
        .text

# push/ret: the continuation is pushed and "returned" to, twice. It clears rcx before its
# return: brightening declines a function that leaves a code address in a register
# (docs/DEOBFUSCATE.md, "Limits").
        .globl obf_pushret, plain_pushret
        .type obf_pushret, @function
        .type plain_pushret, @function
obf_pushret:
        lea rax, [rip + 1f]
        push rax
        ret
        .byte 0x0f, 0x0b, 0xe8          # junk after the ret
1:      lea rax, [rdi + rsi*2]
        lea rcx, [rip + 2f]
        push rcx
        ret
2:      imul rax, rsi
        xor ecx, ecx                     # no code address left in a register (see below)
        ret
plain_pushret:
        lea rax, [rdi + rsi*2]
        imul rax, rsi
        ret

# call/pop: the return address is popped and used to compute a jump.
        .globl obf_callpop, plain_callpop
        .type obf_callpop, @function
        .type plain_callpop, @function
obf_callpop:
        call 1f
1:      pop rcx
        add rcx, 2f - 1b
        jmp rcx
        .byte 0xff, 0xff, 0xe9          # junk
2:      mov rax, rdi
        xor rax, rsi
        sub rax, 12345
        ret
plain_callpop:
        mov rax, rdi
        xor rax, rsi
        sub rax, 12345
        ret

# Overlapping instructions: `eb ff c0` jumps into its own second byte, read as `inc eax`.
        .globl obf_overlap, plain_overlap
        .type obf_overlap, @function
        .type plain_overlap, @function
obf_overlap:
        mov eax, edi
        .byte 0xeb, 0xff, 0xc0          # jmp -1; inc eax
        add eax, esi
        cdqe
        ret
plain_overlap:
        lea eax, [rdi + rsi + 1]
        cdqe
        ret

# Opaque predicates on concrete values, the dead side junk; a computed jump through a table.
        .globl obf_opaque, plain_opaque
        .type obf_opaque, @function
        .type plain_opaque, @function
obf_opaque:
        mov ecx, 7
        imul ecx, ecx
        test ecx, 1                      # 49 is odd: never zero
        jz 3f
        mov rax, rdi
        shl rax, 3
        mov edx, 2
        lea r8, [rip + table]
        movsxd rdx, dword ptr [r8 + rdx*4]
        add rdx, r8
        jmp rdx                          # always the third entry
3:      .byte 0xc7, 0xff, 0x0f, 0x0b
4:      add rax, rsi
        ret
5:      sub rax, rsi
        ret
plain_opaque:
        mov rax, rdi
        shl rax, 3
        sub rax, rsi
        ret

# A call that is inlined: the helper reads its arguments from registers and the stack.
        .globl obf_inline, plain_inline
        .type obf_inline, @function
        .type plain_inline, @function
        .type helper, @function
helper:
        mov rax, [rsp + 8]
        imul rax, rdi
        ret
obf_inline:
        push rsi
        call helper
        add rsp, 8
        add rax, rdi
        ret
plain_inline:
        mov rax, rsi
        imul rax, rdi
        add rax, rdi
        ret

# A return address rewritten on the stack: the callee returns past a junk byte.
        .globl obf_retaddr, plain_retaddr
        .type obf_retaddr, @function
        .type plain_retaddr, @function
        .type skip, @function
skip:
        add qword ptr [rsp], 1
        ret
obf_retaddr:
        mov rax, rdi
        call skip
        .byte 0xe8
        and rax, rsi
        not rax
        ret
plain_retaddr:
        mov rax, rdi
        and rax, rsi
        not rax
        ret

        .section .rodata
        .p2align 2
table:  .long 3b - table, 4b - table, 5b - table, 4b - table
        .section .note.GNU-stack, "", @progbits
