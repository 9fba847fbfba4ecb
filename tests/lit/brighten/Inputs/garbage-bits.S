# Registers whose entry values reach only bits nobody reads, as compilers leave them.
        .text
# clang -O2's `bool f(int)`: setne writes AL alone, the caller's upper 56 bits of RAX stay
# beside the bool, which callers read as AL.
        .globl  not_95
        .type   not_95, @function
not_95:
        cmpl    $95, %edi
        setne   %al
        ret
        .size   not_95, .-not_95

# gcc -O2 keeps a flag in the low byte of a callee-saved register it saved: setne merges
# into r15's upper bits, which only the restore brings back.
        .globl  flag_sum
        .type   flag_sum, @function
flag_sum:
        pushq   %r15
        cmpl    $1, %edi
        setne   %r15b
        movzbl  %r15b, %eax
        addl    %esi, %eax
        popq    %r15
        ret
        .size   flag_sum, .-flag_sum

# A callee-saved register's value computed with: not an argument.
        .globl  uses_rbx
        .type   uses_rbx, @function
uses_rbx:
        leaq    (%rbx,%rdi), %rax
        ret
        .size   uses_rbx, .-uses_rbx

# gcc -Os keeps a short in R10's low word, whose upper 48 bits are the caller's: only the
# word is stored and returned sign-extended.
        .globl  scratch_word
        .type   scratch_word, @function
scratch_word:
        movw    (%rdi), %r10w
        addw    $1, %r10w
        movw    %r10w, (%rsi)
        movswl  %r10w, %eax
        ret
        .size   scratch_word, .-scratch_word

# R11's entry value stored whole, and RBX's stored anywhere but the function's own frame
# (setjmp does, into its buffer): read.
        .globl  stores_r11
        .type   stores_r11, @function
stores_r11:
        movq    %r11, (%rsi)
        ret
        .size   stores_r11, .-stores_r11

        .globl  stores_rbx
        .type   stores_rbx, @function
stores_rbx:
        movq    %rbx, (%rsi)
        ret
        .size   stores_rbx, .-stores_rbx

# RAX's entry value computed with: not garbage beside a byte, so not an argument either.
        .globl  adds_to_rax
        .type   adds_to_rax, @function
adds_to_rax:
        leaq    1(%rax), %rax
        ret
        .size   adds_to_rax, .-adds_to_rax

# AL tested: a variadic function's vector-register count, a branch on the caller's RAX.
        .globl  tests_al
        .type   tests_al, @function
tests_al:
        xorl    %edx, %edx
        testb   %al, %al
        je      1f
        movl    $1, %edx
1:      movl    %edx, %eax
        ret
        .size   tests_al, .-tests_al

        .globl  main
        .type   main, @function
main:
        xorl    %eax, %eax
        ret
        .size   main, .-main
        .section .note.GNU-stack,"",@progbits
