# Ten functions calling each other round a cycle (long-cycle.test): step1 to step9 hand RDI
# on to the next and its result back; step10 counts RDI down to zero, calling step1 again.
# From
#   long step10(long n) { return n == 0 ? 0 : step1(n - 1) + 1; }
#   long step1(long n) { return step2(n); }  ...  long step9(long n) { return step10(n); }
# Each round of signature inference shows one more function reading RDI and returning RAX:
# ten rounds until none changes.
        .text
        .globl  step1
        .type   step1, @function
step1:
        subq    $8, %rsp
        call    step2
        addq    $8, %rsp
        ret
        .size   step1, .-step1
        .globl  step2
        .type   step2, @function
step2:
        subq    $8, %rsp
        call    step3
        addq    $8, %rsp
        ret
        .size   step2, .-step2
        .globl  step3
        .type   step3, @function
step3:
        subq    $8, %rsp
        call    step4
        addq    $8, %rsp
        ret
        .size   step3, .-step3
        .globl  step4
        .type   step4, @function
step4:
        subq    $8, %rsp
        call    step5
        addq    $8, %rsp
        ret
        .size   step4, .-step4
        .globl  step5
        .type   step5, @function
step5:
        subq    $8, %rsp
        call    step6
        addq    $8, %rsp
        ret
        .size   step5, .-step5
        .globl  step6
        .type   step6, @function
step6:
        subq    $8, %rsp
        call    step7
        addq    $8, %rsp
        ret
        .size   step6, .-step6
        .globl  step7
        .type   step7, @function
step7:
        subq    $8, %rsp
        call    step8
        addq    $8, %rsp
        ret
        .size   step7, .-step7
        .globl  step8
        .type   step8, @function
step8:
        subq    $8, %rsp
        call    step9
        addq    $8, %rsp
        ret
        .size   step8, .-step8
        .globl  step9
        .type   step9, @function
step9:
        subq    $8, %rsp
        call    step10
        addq    $8, %rsp
        ret
        .size   step9, .-step9
        .globl  step10
        .type   step10, @function
step10:
        xorl    %eax, %eax
        testq   %rdi, %rdi
        je      1f
        subq    $8, %rsp
        subq    $1, %rdi
        call    step1
        addq    $8, %rsp
        addq    $1, %rax
1:      ret
        .size   step10, .-step10
        .section .note.GNU-stack,"",@progbits
