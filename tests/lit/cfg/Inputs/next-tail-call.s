# Shapes of findutils 4.9.0 built by clang-13 -O2 (tests/lit/cfg/next-tail-call.test), by
# hand, for a copy without unwind tables. Each jmp ends right at a 16-byte boundary, so the
# assembler puts no padding between it and its target.
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
  call framed
  xor eax, eax
  pop rcx
  ret

.p2align 4
.type width,@function
width:                          # gnu_mbswidth: a tail call after its epilogue, no padding
  push rbp
  push rbx
  push rax
  mov ebp, esi
  mov rbx, rdi
  call strlen@PLT
  mov rdi, rbx
  mov rsi, rax
  movsxd rdx, ebp
  xor ecx, ecx
  add rsp, 8
  pop rbx
  pop rbp
  jmp counted_width

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
.type framed,@function
framed:                         # -O0 code: a jmp to its own next block, inside its frame
  push rbp
  mov rbp, rsp
  mov dword ptr [rbp-4], edi
  mov eax, dword ptr [rbp-4]
  add eax, 0x1234567
  sub eax, 0x1234567
  mov ecx, 0x1234567
  mov edx, 0x1234567
  jmp .Lnext
.Lnext:
  add eax, 1
  pop rbp
  ret

.section .rodata
message:
  .asciz "width"
.section .note.GNU-stack,"",@progbits
