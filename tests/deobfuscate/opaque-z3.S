# Opaque predicates on symbolic values for `hoist lift --deobfuscate` (docs/DEOBFUSCATE.md,
# "Branches"): the possible-value sets of a condition cannot decide them (its inputs are
# arguments), but Z3 proves each one-sided, so the concolic lift keeps only the side taken.
# System V, long f(long x, long y); the side never taken returns a marker 0xdead<n> that the
# test looks for (tests/lit/deobfuscate/opaque-z3.test).
        .intel_syntax noprefix
        .text

# x*(x+1) is even: bit 0 of the product is never set.
        .globl opq_parity
        .type opq_parity, @function
opq_parity:
        lea rcx, [rdi + 1]
        mov rax, rdi
        imul rax, rcx
        test al, 1
        jnz 1f
        lea rax, [rdi + rsi]
        ret
1:      mov eax, 0xdead1
        ret

# x*x mod 4 is 0 or 1, never 2 or 3.
        .globl opq_square
        .type opq_square, @function
opq_square:
        mov rax, rdi
        imul rax, rdi
        and eax, 3
        cmp eax, 2
        jae 1f
        mov rax, rdi
        sub rax, rsi
        ret
1:      mov eax, 0xdead2
        ret

# 7*y*y - 1 is never a square (modulo 8 it is 3, 6 or 7; squares are 0, 1 or 4).
        .globl opq_seven
        .type opq_seven, @function
opq_seven:
        mov eax, esi
        imul eax, esi
        imul eax, eax, 7
        sub eax, 1
        mov ecx, edi
        imul ecx, edi
        cmp eax, ecx
        je 1f
        mov rax, rdi
        xor rax, rsi
        ret
1:      mov eax, 0xdead3
        ret

# A genuine branch on x: both sides stay (tests refute it; no proof is tried).
        .globl opq_real
        .type opq_real, @function
opq_real:
        test dil, 1
        jnz 1f
        mov rax, rsi
        ret
1:      mov eax, 0xdead4
        ret

# An opaque predicate too large for a proof (more instructions than the budget of one
# condition): it stays, and the lift says which budget stopped it.
        .globl opq_large
        .type opq_large, @function
opq_large:
        mov rax, rdi
        .rept 70
        imul rax, rdi
        add rax, rsi
        .endr
        mov rcx, rax
        lea rdx, [rax + 1]
        imul rcx, rdx
        test cl, 1
        jnz 1f
        mov rax, rdi
        ret
1:      mov eax, 0xdead5
        ret
