# A shape of grep 3.8 built by clang-19 -O2 (tests/lit/cfg/cond-tail-call.test), by hand: a
# conditional tail call to a function that nothing else calls, laid out after its caller.
.intel_syntax noprefix
.text
.p2align 4
.globl main
.type main,@function
main:
  .cfi_startproc
  push rax
  .cfi_def_cfa_offset 16
  call cleanup
  mov edi, 1
  call between
  pop rcx
  .cfi_def_cfa_offset 8
  ret
  .cfi_endproc

.p2align 4
.type cleanup,@function
cleanup:                        # clean_up_stdout: `je close_stdout`, else return
  .cfi_startproc
  cmp dword ptr [rip+flag], 0
  je closer
  ret
  .cfi_endproc

.p2align 4
.type between,@function
between:                        # a function between the two
  .cfi_startproc
  lea eax, [rdi+1]
  ret
  .cfi_endproc

.p2align 4
.type closer,@function
closer:                         # close_stdout: a function with a frame of its own
  .cfi_startproc
  push rbx
  .cfi_def_cfa_offset 16
  .cfi_offset rbx, -16
  mov ebx, 1
  lea rdi, [rip+message]
  call puts@PLT
  mov eax, ebx
  pop rbx
  .cfi_def_cfa_offset 8
  ret
  .cfi_endproc

.section .rodata
message:
  .asciz "closed"
.data
flag:
  .long 0
.section .note.GNU-stack,"",@progbits
