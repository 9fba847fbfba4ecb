# Shapes from grep 3.8 at gcc-12 -O2 (tests/lit/cfg/abort-parts.test), by hand: gcc's parts of
# paths to abort, laid out back to back before the hot code as in .text.unlikely, and a
# function that nothing calls right after one that jumps through a pointer from its argument.
.intel_syntax noprefix
.text
  int3                          # the pieces start unaligned, as all but gcc's first do
.type first.cold,@function
first.cold:                     # hash_get_first.cold: entered by a jmp, never returns
  .cfi_startproc
  push rax
  .cfi_def_cfa_offset 16
  call abort@PLT
  .cfi_endproc
.type main.cold,@function
main.cold:                      # main.cold: entered by a jb from main, over no other start
  .cfi_startproc
  call abort@PLT
  .cfi_endproc

.p2align 4
.globl main
.type main,@function
main:
  .cfi_startproc
  cmp edi, 5
  jb main.cold
  sub rsp, 8
  .cfi_def_cfa_offset 16
  call first
  lea rdi, [rip+object]
  call dispatch
  xor eax, eax
  add rsp, 8
  .cfi_def_cfa_offset 8
  ret
  .cfi_endproc

.p2align 4
.type first,@function
first:                          # hash_get_first: `jmp first.cold` like a tail call
  .cfi_startproc
  mov rax, [rdi]
  test rax, rax
  je 1f
  ret
1:
  jmp first.cold
  .cfi_endproc

.p2align 4
.type dispatch,@function
dispatch:                       # kwsexec: a jmp through a pointer in its argument, no table
  .cfi_startproc
  mov rax, [rdi+8]
  jmp rax
  .cfi_endproc

.p2align 4
.type unreferenced,@function
unreferenced:                   # kwsfree: nothing here calls it
  .cfi_startproc
  push rbx
  .cfi_def_cfa_offset 16
  mov rbx, rdi
  mov eax, 1
  pop rbx
  .cfi_def_cfa_offset 8
  ret
  .cfi_endproc

.data
object: .quad 0, 0
.section .note.GNU-stack,"",@progbits
