# A function laid out right after a call of a noreturn function pointer, which only that
# pointer's initial value points to, as gcc-12 -O1 (which aligns nothing) lays out gnulib's
# obstack in sed 4.9 (docs/CFG.md "Debian packages"), by hand: without unwind tables the caller's
# code runs on into `print_and_abort`, which must still be found, and the call must end the
# caller.
.intel_syntax noprefix
.text
.globl main
.type main,@function
main:
  push rax
  mov edi, 1
  call obstack_begin
  xor eax, eax
  pop rcx
  ret
.size main, .-main

.type obstack_begin,@function
obstack_begin:
  test edi, edi
  je .Lfail
  mov eax, 1
  ret
.Lfail:
  call [rip+obstack_alloc_failed_handler]
.size obstack_begin, .-obstack_begin

.type print_and_abort,@function
print_and_abort:
  sub rsp, 8
  mov edi, 1
  call exit@PLT
.size print_and_abort, .-print_and_abort

.data
.p2align 3
obstack_alloc_failed_handler:
  .quad print_and_abort
.section .note.GNU-stack,"",@progbits
