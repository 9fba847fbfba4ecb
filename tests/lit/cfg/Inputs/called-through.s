# Addresses taken in code and called through are function starts, even inside code another
# function runs into (tests/lit/cfg/called-through.test). No unwind tables, no alignment.
.intel_syntax noprefix
.text
.globl _start
.type _start,@function
_start:
  call main_like
  mov eax, 60
  xor edi, edi
  syscall
  hlt
.type main_like,@function
main_like:
  lea rax, [rip+by_register]
  call rax                      # taken in code, called through a register
  call [rip+slot]               # loaded from a read-only slot and called
  lea rax, [rip+taken_only]     # taken, never called: only a code reference
  call runs_into
  ret
.type runs_into,@function
runs_into:
  mov eax, 1
  add eax, 2                    # no ret: it runs into the code below
.type by_register,@function
by_register:
  add eax, 7
.type by_slot,@function
by_slot:
  add eax, 8
.type taken_only,@function
taken_only:
  add eax, 9
  ret
.section .rodata
slot: .quad by_slot
