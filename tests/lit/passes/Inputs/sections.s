# A read-only and a writable quadword at fixed addresses (linked by fold-image-loads.test).
        .section .rodata,"a"
        .quad 0x1122334455667788
        .data
        .quad 0x0102030405060708
        .text
        .globl _start
_start: ret
