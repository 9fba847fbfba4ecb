# Dead code right after a call of a function of the program that exits, 16-byte aligned by
# chance, as clang-19 -O0 lays out bzip2recover's `call readError; jmp L` (bzip2 1.0.8,
# docs/CFG.md "Debian packages"), by hand: without unwind tables the `jmp` at the aligned
# address is no function (it continues its caller's frame), nor is anything else here.
.intel_syntax noprefix
.text
.p2align 4
.globl main
.type main,@function
main:
  push rbp
  mov rbp, rsp
  cmp edi, 5
  je .Lmain_fail
  call checked
  pop rbp
  ret
.Lmain_fail:
  call fail
.size main, .-main

.type fail,@function
fail:
  push rbp
  mov rbp, rsp
  mov edi, 1
  call exit@PLT
.size fail, .-fail

.p2align 4
.type checked,@function
checked:                        # 27 bytes, then the call, which ends 32 bytes in
  push rbp
  mov rbp, rsp
  sub rsp, 16
  mov dword ptr [rbp-4], edi
  cmp dword ptr [rbp-4], 0
  jne .Lok
  mov eax, 0x1234567
  mov ecx, 0x1234567
  call fail
  jmp .Lok                      # dead, and 16-byte aligned
.Lok:
  mov eax, dword ptr [rbp-4]
  add rsp, 16
  pop rbp
  ret
.size checked, .-checked
.section .note.GNU-stack,"",@progbits
