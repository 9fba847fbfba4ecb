# A switch at a loop head that every way in enters with a constant index, some of the constants
# past the range check (`cmp eax, 4; ja`): the table has 5 entries, although 9 reaches the
# index. A second table follows the first in .rodata, in the same function, so a matcher that
# sized the first by the constants (or by where its entries stop landing in the function)
# would read into it. Hand-written (gas, Intel syntax); check_cfg.py builds it with gcc like
# the C sources, and its truth comes from the same relocations and symbols.
.intel_syntax noprefix
.text
.globl states
.type states, @function
states:
  xor eax, eax
  xor ecx, ecx
.Lhead:
  cmp eax, 4
  ja .Ldone
  mov eax, eax
  lea rdx, [rip + .Ltable]
  movsxd rax, dword ptr [rdx + rax*4]
  add rax, rdx
  jmp rax
.Lstate0:
  add ecx, 1
  mov eax, 2
  jmp .Lhead
.Lstate1:
  imul ecx, ecx, 3
  mov eax, 4
  jmp .Lhead
.Lstate2:
  xor ecx, 5
  mov eax, 3
  jmp .Lhead
.Lstate3:
  sub ecx, 2
  mov eax, 9
  cmp ecx, edi
  jg .Lhead
  mov eax, 1
  jmp .Lhead
.Lstate4:
  add ecx, 7
  xor eax, eax
  cmp ecx, 1000
  jl .Lhead
  mov eax, 7
  jmp .Lhead
.Ldone:
  cmp esi, 3
  ja .Lout
  mov esi, esi
  lea rdx, [rip + .Ltable2]
  movsxd rax, dword ptr [rdx + rsi*4]
  add rax, rdx
  jmp rax
.Lfinal0:
  add ecx, 100
.Lfinal1:
  add ecx, 200
.Lfinal2:
  add ecx, 300
.Lfinal3:
  add ecx, 400
.Lout:
  mov eax, ecx
  ret
.size states, . - states

.globl main
.type main, @function
main:
  sub rsp, 8
  mov esi, edi
  mov edi, 50
  call states
  add rsp, 8
  ret
.size main, . - main

.section .rodata
.p2align 2
.Ltable:
  .long .Lstate0 - .Ltable
  .long .Lstate1 - .Ltable
  .long .Lstate2 - .Ltable
  .long .Lstate3 - .Ltable
  .long .Lstate4 - .Ltable
.Ltable2:
  .long .Lfinal0 - .Ltable2
  .long .Lfinal1 - .Ltable2
  .long .Lfinal2 - .Ltable2
  .long .Lfinal3 - .Ltable2
.section .note.GNU-stack,"",@progbits
