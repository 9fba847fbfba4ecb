# Two callers of an import without a known prototype (lit brighten/import-slots-inferred.test)
# that set up different numbers of argument registers: __ffs(5) and __ffs(1, 2, 3).
        .text
        .globl  one_arg
        .type   one_arg, @function
one_arg:
        subq    $8, %rsp
        movl    $5, %edi
        call    *__ffs@GOTPCREL(%rip)
        addq    $8, %rsp
        ret
        .globl  three_args
        .type   three_args, @function
three_args:
        subq    $8, %rsp
        movl    $1, %edi
        movl    $2, %esi
        movl    $3, %edx
        call    *__ffs@GOTPCREL(%rip)
        addq    $8, %rsp
        ret
        .globl  main
main:   xorl    %eax, %eax
        ret
        .section .note.GNU-stack,"",@progbits
