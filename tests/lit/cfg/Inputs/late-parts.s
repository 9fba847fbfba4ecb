# Shapes of diffutils 3.8 built by gcc-12 -O2 (tests/lit/cfg/late-parts.test), by hand, for a
# copy without unwind tables.
.intel_syntax noprefix
.text
.p2align 4
.type iconv_part,@function
iconv_part:                     # mem_cd_iconv.cold: aligned, first, found as a gap before
  call abort@PLT                # the function that jumps to it is known
.p2align 4
.type case_part,@function
case_part:                      # diff_2_files.cold: a case label of its parent's switch
  call abort@PLT                # (aligned: that alone is no evidence)

.p2align 4
.globl main
.type main,@function
main:
  sub rsp, 8
  call switcher
  call tail_caller
  xor eax, eax
  add rsp, 8
  ret

.p2align 4
.type switcher,@function
switcher:                       # diff_2_files: `ja` and a case label into its part
  cmp edi, 3
  ja case_part
  lea rdx, [rip+table]
  movsxd rax, dword ptr [rdx+rdi*4]
  add rax, rdx
  jmp rax
1: mov eax, 10
  ret
2: mov eax, 11
  ret
3: mov eax, 12
  ret

.p2align 4
.type lonely,@function
lonely:                         # nothing calls it: found in a gap, after iconv_part
  sub rsp, 8
  mov edi, 7
  call iconv_user
  add rsp, 8
  ret

.p2align 4
.type iconv_user,@function
iconv_user:                     # mem_cd_iconv: jne to its part
  test edi, edi
  jne iconv_part
  mov eax, 1
  ret

.p2align 4
.type tail_caller,@function
tail_caller:                    # areadlink: jmp over a start found only later
  mov edi, 1
  jmp far_callee
.p2align 4
.type late_start,@function
late_start:                     # strcaseeq: only far_callee calls it
  mov eax, edi
  ret
.p2align 4
.type far_callee,@function
far_callee:                     # careadlinkat: only tail_caller jumps to it
  call late_start
  add eax, 1
  ret

.section .rodata
.p2align 2
table:
  .long case_part-table, 1b-table, 2b-table, 3b-table
.section .note.GNU-stack,"",@progbits
