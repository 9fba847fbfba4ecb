# diffutils 3.8's cmp at clang-19 -O2 (tests/lit/cfg/stored-values.test), by hand: switches
# over static globals without a range check. The program stores only constants to `mode`
# (clang-19 knew its values and left the check out); `level` is also stored from a register
# and `flags` has its address taken, so nothing bounds a switch over either.
.intel_syntax noprefix
.text
.p2align 4
.globl main
.type main,@function
main:
  .cfi_startproc
  push rbx
  .cfi_def_cfa_offset 16
  mov ebx, edi
  call choose
  mov edi, ebx
  call report
  mov edi, ebx
  call by_level
  mov edi, ebx
  call by_flags
  pop rbx
  .cfi_def_cfa_offset 8
  ret
  .cfi_endproc

.p2align 4
.type choose,@function
choose:                         # specify_comparison_type: constants only
  .cfi_startproc
  cmp edi, 1
  jne 1f
  mov dword ptr [rip+mode], 1
  ret
1:
  cmp edi, 2
  jne 2f
  mov dword ptr [rip+mode], 3
  ret
2:
  mov dword ptr [rip+mode], 2
  mov [rip+level], edi
  lea rax, [rip+flags]
  mov [rip+flags_pointer], rax
  ret
  .cfi_endproc

.p2align 4
.type report,@function
report:                         # cmp: switch (comparison_type), mode in {0, 1, 2, 3}
  .cfi_startproc
  mov eax, dword ptr [rip+mode]
  lea rcx, [rip+.Lmode_table]
  movsxd rax, dword ptr [rcx+rax*4]
  add rax, rcx
  jmp rax
.Lmode0:
  mov eax, 10
  ret
.Lmode1:
  mov eax, 11
  ret
.Lmode2:
  mov eax, 12
  ret
.Lmode3:
  mov eax, 13
  ret
  .cfi_endproc

.p2align 4
.type by_level,@function
by_level:                       # level is stored from a register too
  .cfi_startproc
  mov eax, dword ptr [rip+level]
  lea rcx, [rip+.Llevel_table]
  movsxd rax, dword ptr [rcx+rax*4]
  add rax, rcx
  jmp rax
.Llevel0:
  mov eax, 20
  ret
.Llevel1:
  mov eax, 21
  ret
  .cfi_endproc

.p2align 4
.type by_flags,@function
by_flags:                       # flags has its address taken
  .cfi_startproc
  mov eax, dword ptr [rip+flags]
  lea rcx, [rip+.Lflags_table]
  movsxd rax, dword ptr [rcx+rax*4]
  add rax, rcx
  jmp rax
.Lflags0:
  mov eax, 30
  ret
.Lflags1:
  mov eax, 31
  ret
  .cfi_endproc

.section .rodata
.p2align 2
.Lmode_table:
  .long .Lmode0-.Lmode_table
  .long .Lmode1-.Lmode_table
  .long .Lmode2-.Lmode_table
  .long .Lmode3-.Lmode_table
.Llevel_table:
  .long .Llevel0-.Llevel_table
  .long .Llevel1-.Llevel_table
.Lflags_table:
  .long .Lflags0-.Lflags_table
  .long .Lflags1-.Lflags_table

.bss
.p2align 2
mode: .long 0
level: .long 0
flags: .long 0
.p2align 3
flags_pointer: .quad 0
.section .note.GNU-stack,"",@progbits
