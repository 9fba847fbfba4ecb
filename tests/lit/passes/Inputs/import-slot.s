# A PE whose import slot lies in read-only .rdata, as lld-link and MSVC lay it out, next to
# a constant (linked by fold-image-loads.test).
        .intel_syntax noprefix
        .text
        .globl mainCRTStartup
mainCRTStartup:
        call qword ptr [rip + __imp_ExitProcess]
        .section .rdata,"dr"
        .quad 0x1122334455667788
