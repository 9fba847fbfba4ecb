# A bounded jmp through a table of function pointers in .rodata (linked without PIE).
.intel_syntax noprefix
.text
.type via_table,@function
via_table:
  cmp edi, 1
  ja 1f
  mov eax, edi
  jmp [rax*8+handlers]
1: ret
.type h0,@function
h0: mov eax, 10
  ret
.type h1,@function
h1: mov eax, 11
  ret
.section .rodata
handlers: .quad h0, h1
