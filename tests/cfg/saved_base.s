# A switch in a loop whose table base is set once before the loop (`lea r11, [rip+T]`) and
# kept in a callee-saved register across a call in the loop (`mov r14, r11; call; mov r11,
# r14`), as clang-14 -O1 lays out sed 4.9's `lex` (docs/CFG.md "Debian packages"), by hand. At
# the loop head the base comes from the lea on the way in and from the copy back on the loop's
# way around, a copy of a copy of itself: it is the lea's constant on every path. The loop's
# way around that skips a negative token is there before the switch's cases are found, as in
# `lex`, so the copy reaches the head in the first round too. A second table follows the
# first, in the same function.
.intel_syntax noprefix
.text
.globl tokens
.type tokens, @function
tokens:
  push r14
  push rbx
  push rax
  xor ebx, ebx
  lea r11, [rip + .Ltable]
.Lhead:
  mov r14, r11
  call next_token
  mov r11, r14
  test eax, eax
  js .Lhead
  cmp eax, 9
  jne .Lcheck
  mov eax, 1
.Lcheck:
  cmp eax, 4
  ja .Ldone
  mov eax, eax
  movsxd rax, dword ptr [r11 + rax*4]
  add rax, r11
  jmp rax
.Lcase0:
  add ebx, 1
  jmp .Lhead
.Lcase1:
  imul ebx, ebx, 3
  jmp .Lhead
.Lcase2:
  xor ebx, 5
  jmp .Lhead
.Lcase3:
  sub ebx, 2
  jmp .Lhead
.Lcase4:
  add ebx, 7
  jmp .Lhead
.Ldone:
  cmp ebx, 2
  ja .Lout
  mov ecx, ebx
  lea rdx, [rip + .Ltable2]
  movsxd rax, dword ptr [rdx + rcx*4]
  add rax, rdx
  jmp rax
.Lfinal0:
  add ebx, 100
.Lfinal1:
  add ebx, 200
.Lfinal2:
  add ebx, 300
.Lout:
  mov eax, ebx
  add rsp, 8
  pop rbx
  pop r14
  ret
.size tokens, . - tokens

# The next token: 0 to 5, from a counter (a call that clobbers r11, as any call may).
.globl next_token
.type next_token, @function
next_token:
  mov eax, dword ptr [rip + counter]
  lea ecx, [rax + 1]
  mov dword ptr [rip + counter], ecx
  xor r11d, r11d
  ret
.size next_token, . - next_token

.globl main
.type main, @function
main:
  sub rsp, 8
  call tokens
  add rsp, 8
  ret
.size main, . - main

.data
counter:
  .long 0

.section .rodata
.p2align 2
.Ltable:
  .long .Lcase0 - .Ltable
  .long .Lcase1 - .Ltable
  .long .Lcase2 - .Ltable
  .long .Lcase3 - .Ltable
  .long .Lcase4 - .Ltable
.Ltable2:
  .long .Lfinal0 - .Ltable2
  .long .Lfinal1 - .Ltable2
  .long .Lfinal2 - .Ltable2
.section .note.GNU-stack,"",@progbits
