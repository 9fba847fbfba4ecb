# clang-19 -O2's loop over a state (diffutils' get_funky_string), by hand: the table base is
# set before the loop, and the entry jumps into the loop past its range check with the state
# 0, so the first round knows only that constant (tests/lit/cfg/entry-below-check.test).
.intel_syntax noprefix
.text
.globl machine
.type machine,@function
machine:
  push rbp
  xor ebp, ebp
  lea r10, [rip+table]          # the base, far from the jmp
  jmp body                      # into the loop, below its check
head:
  cmp ebp, 5                    # the bound: 5 entries
  jae out
body:
  mov ecx, ebp
  movsxd rcx, dword ptr [r10+rcx*4]
  add rcx, r10
  jmp rcx
s0: mov ebp, 1
  jmp head
s1: mov ebp, 2
  jmp head
s2: mov ebp, 3
  jmp head
s3: mov ebp, 4
  jmp head
s4: mov ebp, 7                  # a state past the table: the loop ends
  jmp head
out:
  mov eax, ebp
  pop rbp
  ret
.section .rodata
.p2align 2
table:
  .long s0-table, s1-table, s2-table, s3-table, s4-table
other:                          # another table right after, into the same function
  .long out-table, out-table, out-table, out-table
.section .note.GNU-stack,"",@progbits
