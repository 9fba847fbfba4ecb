# Shapes of findutils 4.9.0 built by clang-16 -O2 (tests/lit/cfg/filler-jump.test), by hand,
# for a copy without unwind tables.
.intel_syntax noprefix
.text
.p2align 4
.globl main
.type main,@function
main:
  push rax
  lea rdi, [rip+message]
  call width
  mov edi, 3
  call looper
  xor eax, eax
  pop rcx
  ret

.p2align 4
.type width,@function
width:                          # gnu_mbswidth: a tail call over padding to the next function
  push rbx
  mov rbx, rdi
  call strlen@PLT
  mov rdi, rbx
  mov rsi, rax
  pop rbx
  jmp counted_width
  .byte 0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00   # data16 cs nop

.p2align 4
.type counted_width,@function
counted_width:                  # mbsnwidth: nothing calls it
  push rbx
  mov rbx, rsi
  call strlen@PLT
  add rax, rbx
  pop rbx
  ret

.p2align 4
.type looper,@function
looper:                         # a jmp over padding to a loop head its own branch reaches too
  xor eax, eax
  jmp 1f
.p2align 4
1:
  add eax, edi
  dec edi
  jnz 1b
  ret

.section .rodata
message:
  .asciz "width"
.section .note.GNU-stack,"",@progbits
