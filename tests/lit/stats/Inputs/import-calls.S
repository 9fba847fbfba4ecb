# Calls to imports in every form `hoist stats` counts: through the PLT stub (call and tail
# jmp), through the GOT slot, and one through a register (not counted: its target is not
# known without running it). strlen is declared by <string.h>; __strverscmp by no header.
# Linked without start files, so that these are the binary's only calls.
        .text
        .globl  _start
        .type   _start, @function
_start:
        pushq   %rbx
        call    strlen@PLT
        call    *strlen@GOTPCREL(%rip)
        call    __strverscmp@PLT
        movq    __strverscmp@GOTPCREL(%rip), %rbx
        call    *%rbx
        popq    %rbx
        jmp     strlen@PLT
        .size   _start, .-_start
        .section .note.GNU-stack,"",@progbits
