# A store that a linear sweep does not decode (writable-data.test): hidden_store jumps into
# the immediate of a movabs, where `mov byte ptr [flag], 1` hides. Called twice, it returns 7
# (flag still the file's 0) and then 9: the lift must keep both.
        .text
        .globl hidden_store
        .type hidden_store, @function
hidden_store:
        movzbl flag(%rip), %eax
        testb %al, %al
        jne 2f
        jmp 1f+2
1:      .byte 0x48, 0xb8, 0xc6, 0x04, 0x25
        .long flag
        .byte 0x01
        mov $7, %eax
        ret
2:      mov $9, %eax
        ret
        .size hidden_store, .-hidden_store

        .globl main
        .type main, @function
main:
        xor %eax, %eax
        ret
        .size main, .-main

        .data
        .globl flag
        .type flag, @object
flag:   .byte 0
        .size flag, 1
        .section .note.GNU-stack, "", @progbits
