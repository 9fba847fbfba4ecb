# gnulib's c_ispunct in diffutils 3.8 at clang-13 -O0 (tests/lit/cfg/unreached-table.test), by
# hand: a position-dependent program whose unused function has an absolute jump table in
# .rodata, whose entries are words that look like code addresses; and a function that only a
# word in .data points to, laid out with no alignment right after a ret.
.intel_syntax noprefix
.text
.p2align 4
.globl main
.type main,@function
main:
  push rax
  mov rax, qword ptr [rip+hook]
  call rax
  xor eax, eax
  pop rcx
  ret

.p2align 4
.type is_punct,@function
is_punct:                       # c_ispunct: nothing calls it or points to it
  push rbp
  mov rbp, rsp
  mov dword ptr [rbp-8], edi
  mov eax, dword ptr [rbp-8]
  add eax, -33
  mov ecx, eax
  mov qword ptr [rbp-16], rcx
  sub eax, 5
  ja .Lno
  mov rax, qword ptr [rbp-16]
  mov rax, qword ptr [punct_table+rax*8]
  jmp rax
.Lyes:
  mov byte ptr [rbp-1], 1
  jmp .Lout
.Lno:
  mov byte ptr [rbp-1], 0
.Lout:
  mov al, byte ptr [rbp-1]
  and al, 1
  movzx eax, al
  pop rbp
  ret
.type callback,@function
callback:                       # only the word `hook` points here: not aligned, no frame
  lea eax, [rdi+1]
  ret

.section .rodata
.p2align 3
punct_table:                    # '!' to '&': no case for '#' and '$'
  .quad .Lyes, .Lyes, .Lno, .Lno, .Lyes, .Lyes

.data
.p2align 3
hook:
  .quad callback
.section .note.GNU-stack,"",@progbits
