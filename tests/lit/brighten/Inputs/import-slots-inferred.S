# Calls of imports no header declares through their GOT slots (issue 10, lit
# brighten/import-slots-inferred.test): the prototype is inferred from the argument
# registers the caller sets up.
        .text
        .globl  compare_versions
        .type   compare_versions, @function
# int compare_versions(const char *a, const char *b): __strverscmp(b, a) through the GOT
compare_versions:
        subq    $8, %rsp
        movq    %rdi, %rax
        movq    %rsi, %rdi
        movq    %rax, %rsi
        call    *__strverscmp@GOTPCREL(%rip)
        addq    $8, %rsp
        ret
        .size   compare_versions, .-compare_versions

        .globl  first_set
        .type   first_set, @function
# int first_set(int x): __ffs(x + 1) through a register loaded from the slot
first_set:
        pushq   %rbx
        movq    __ffs@GOTPCREL(%rip), %rbx
        addl    $1, %edi
        call    *%rbx
        popq    %rbx
        ret
        .size   first_set, .-first_set

# The program only has to link: main returns 0.
        .globl  main
main:   xorl    %eax, %eax
        ret
        .section .note.GNU-stack,"",@progbits
