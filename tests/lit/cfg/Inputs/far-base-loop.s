# clang-16 -O2's loop over a state (diffutils' get_funky_string), by hand: the table base is
# set before the loop, and every way into the loop head sets the state to a constant, so only
# the head's own compare bounds the table (tests/lit/cfg/far-base-loop.test).
.intel_syntax noprefix
.text
.globl machine
.type machine,@function
machine:
  push rbp
  xor ebp, ebp
  lea r10, [rip+table]          # the base, far from the jmp
  jmp head
next:
  cmp ebp, 5
  jae out
head:
  cmp ebp, 4                    # the bound: 5 entries
  ja trap
  mov ecx, ebp
  movsxd rcx, dword ptr [r10+rcx*4]
  add rcx, r10
  jmp rcx
s0: mov ebp, 1
  jmp next
s1: mov ebp, 2
  jmp next
s2: mov ebp, 3
  jmp next
s3: mov ebp, 4
  jmp next
s4: mov ebp, 7                  # a state past the table: the loop ends
  jmp next
out:
  mov eax, ebp
  pop rbp
  ret
trap:
  ud2
.section .rodata
.p2align 2
table:
  .long s0-table, s1-table, s2-table, s3-table, s4-table
other:                          # another table right after, into the same function
  .long out-table, out-table, out-table, out-table
.section .note.GNU-stack,"",@progbits
