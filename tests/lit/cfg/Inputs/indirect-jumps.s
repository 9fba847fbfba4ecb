# Indirect jmps the jump-table matcher does not resolve, for the value analysis: a pointer in
# .data.rel.ro (a RELATIVE relocation fills it in a PIE), one in writable .data, one in the
# GOT slot of an import.
.intel_syntax noprefix
.text
.globl _start
.type _start,@function
_start:
  call via_relro
  call via_writable
  call via_got
  ret
.type via_relro,@function
via_relro:
  mov rax, [rip+relro_slot]
  jmp rax
target:
  mov eax, 1
  ret
.type via_writable,@function
via_writable:
  mov rax, [rip+writable_slot]
  jmp rax
.type via_got,@function
via_got:
  mov rax, [rip+puts@GOTPCREL]
  jmp rax
.section .data.rel.ro,"aw"
relro_slot: .quad target
.data
writable_slot: .quad target
