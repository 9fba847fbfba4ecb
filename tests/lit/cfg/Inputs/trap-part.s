# A shape of Debian's bash (gcc -O2, tests/lit/cfg/trap-part.test), by hand, for a copy
# without unwind tables: gcc's isolated erroneous path, a NULL dereference turned into a trap,
# moved to .text.unlikely and aligned by chance.
.intel_syntax noprefix
.text
.p2align 4
.type lookup.cold,@function
lookup.cold:                    # eval_expr_val.cold: entered by a jmp from lookup
  movzx eax, byte ptr ds:0
  ud2

.p2align 4
.globl main
.type main,@function
main:
  sub rsp, 8
  mov edi, 1
  call lookup
  xor eax, eax
  add rsp, 8
  ret

.p2align 4
.type lookup,@function
lookup:
  push rbx
  mov ebx, edi
  test edi, edi
  je 1f
  lea eax, [rbx+1]
  pop rbx
  ret
1:
  pop rbx
  jmp lookup.cold
.section .note.GNU-stack,"",@progbits
