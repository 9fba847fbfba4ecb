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
  mov edi, 5
  call exits
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

.p2align 4
.type exits,@function
exits:                          # read_pattern_space (sed, clang-19 -O3): three exits tail-call
  push rbx                      # the next function, each with the frame gone, the last over
  mov rbx, rdi                  # padding
  test edi, edi
  js 1f
  cmp edi, 10
  ja 2f
  mov edi, 1
  pop rbx
  jmp shared_tail
1:
  neg edi
  pop rbx
  jmp shared_tail
2:
  mov rdi, rbx
  xor esi, esi
  pop rbx
  jmp shared_tail

.p2align 4
.type shared_tail,@function
shared_tail:                    # last_file_with_data_p: nothing calls it
  push rbx
  lea ebx, [rdi + rdi]
  mov eax, ebx
  pop rbx
  ret

.section .rodata
message:
  .asciz "width"
.section .note.GNU-stack,"",@progbits
