# sed 4.9 at gcc-12 -O2 (tests/lit/cfg/frame-part.test), by hand: the first piece of
# .text.unlikely, aligned by chance, is a part entered by `jmp` from the middle of its parent,
# whose frame is still on the stack; an aligned function that never returns, tail-called after
# its caller's epilogue, stays a function.
.intel_syntax noprefix
.text
.p2align 4
.type lex.cold,@function
lex.cold:                       # lex.cold: the first of .text.unlikely, aligned
  .cfi_startproc
  .cfi_def_cfa_offset 32
  .cfi_offset rbx, -16
  call abort@PLT
  .cfi_endproc
.type other.cold,@function
other.cold:                     # the next piece, back to back
  .cfi_startproc
  push rax
  .cfi_def_cfa_offset 16
  call abort@PLT
  .cfi_endproc

.p2align 4
.type fatal,@function
fatal:                          # never returns; tail-called by `checker`
  .cfi_startproc
  push rax
  .cfi_def_cfa_offset 16
  mov edi, 2
  call exit@PLT
  .cfi_endproc

.p2align 4
.globl main
.type main,@function
main:
  .cfi_startproc
  push rbx
  .cfi_def_cfa_offset 16
  mov ebx, edi
  call lex
  mov edi, ebx
  call other
  mov edi, ebx
  call checker
  xor eax, eax
  pop rbx
  .cfi_def_cfa_offset 8
  ret
  .cfi_endproc

.p2align 4
.type lex,@function
lex:                            # `jmp lex.cold` with rbx pushed and 16 bytes reserved
  .cfi_startproc
  push rbx
  .cfi_def_cfa_offset 16
  sub rsp, 16
  .cfi_def_cfa_offset 32
  mov ebx, edi
  cmp edi, 7
  ja 1f
  lea eax, [rbx+1]
  add rsp, 16
  .cfi_def_cfa_offset 16
  pop rbx
  .cfi_def_cfa_offset 8
  ret
1:
  .cfi_def_cfa_offset 32
  jmp lex.cold
  .cfi_endproc

.p2align 4
.type other,@function
other:                          # `jmp other.cold` from a function without a frame
  .cfi_startproc
  test edi, edi
  js 1f
  mov eax, edi
  ret
1:
  jmp other.cold
  .cfi_endproc

.p2align 4
.type checker,@function
checker:                        # `jmp fatal` after the epilogue: a tail call
  .cfi_startproc
  push rbx
  .cfi_def_cfa_offset 16
  mov ebx, edi
  call rand@PLT
  cmp eax, ebx
  pop rbx
  .cfi_def_cfa_offset 8
  je 1f
  ret
1:
  jmp fatal
  .cfi_endproc
.section .note.GNU-stack,"",@progbits
