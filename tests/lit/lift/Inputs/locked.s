# Locked instructions, each once (tests/lit/lift/locked.test).
        .intel_syntax noprefix
        .text
        .globl locked
        .type locked, @function
locked:
        lock add qword ptr [rdi], rsi
        lock adc dword ptr [rdi+8], esi
        lock xadd qword ptr [rdi], rax
        xchg dword ptr [rdi+4], ecx
        lock cmpxchg qword ptr [rdi], rdx
        lock cmpxchg16b xmmword ptr [rdi+16]
        lock bts qword ptr [rdi], rsi
        lock neg word ptr [rdi+2]
        add qword ptr [rdi], rsi
        ret
