# Functions that nothing calls or points to, laid out as clang and gcc do at -Os, where no
# function is aligned (tests/lit/cfg/unaligned-gaps.test; findutils 4.9.0 at clang-13 -Os,
# docs/CFG.md "Debian packages"), by hand: a position-dependent program without unwind tables.
.intel_syntax noprefix
.text
.p2align 4
.globl main
.type main,@function
main:
  push rax
  call used
  call keeps_rbx
  call pops_twice
  call width
  cmp edi, 9
  jne .Lmain_out
  call fatal
main_dead:                      # a compiler that did not know fatal never returns put the rest
  mov eax, 1                    # of main after its call: dead code, which leaves with rsp 8
  pop rcx                       # bytes above where it starts; no function
  ret
.Lmain_out:
  xor eax, eax
  pop rcx
  ret
.type used,@function
used:                           # called: found by its call; from here on nothing is aligned
  lea eax, [rdi+rdi]
  ret
.type width,@function
width:                          # called; tail-calls `counted`, laid out right after it
  push rbx
  mov ebx, edi
  call used
  add eax, ebx
  mov edi, eax
  pop rbx
  jmp counted
.type counted,@function
counted:                        # find's found_parser: only the jmp before reaches it
  lea eax, [rdi+3]
  ret
.type type_flags,@function
type_flags:                     # gnulib's get_regex_type_flags: nothing calls it
  xor eax, eax
  cmp edi, 12
  ja .Lflags_out
  mov eax, edi
  shl rax, 4
  mov eax, dword ptr [rax+flag_words]
.Lflags_out:
  ret
.type fail,@function
fail:                           # nothing calls it; ends in abort, which never returns
  push rax
  call abort
.type formats,@function
formats:                        # find's insert_fprintf: nothing calls it, right after
  push rbx                      # `call abort`; its switch has an absolute table, whose
  mov ebx, edi                  # words look like code addresses
  cmp edi, 3
  ja .Lfmt_default
  mov eax, edi
  jmp qword ptr [format_table+rax*8]
.Lfmt0:
  lea eax, [rbx+1]
  pop rbx
  ret
.Lfmt1:
  lea eax, [rbx+rbx]
  pop rbx
  ret
.Lfmt2:
  mov edi, ebx
  call used
  add eax, ebx
  pop rbx
  ret
.Lfmt_default:
  xor eax, eax
  pop rbx
  ret
.type keeps_rbx,@function
keeps_rbx:                      # called
  push rbx
  mov ebx, edi
  call used
  add eax, ebx
  pop rbx
  ret
reads_rbx:                      # unreached code of keeps_rbx: it reads rbx, which the code
  mov eax, ebx                  # before it set; no function
  pop rbx
  ret
.type pops_twice,@function
pops_twice:                     # called
  push rbx
  push rbp
  mov ebx, edi
  call used
  pop rbp
  pop rbx
  ret
pops_only:                      # unreached code of pops_twice: it leaves with rsp 8 bytes
  pop rbx                       # above where it started; no function
  ret
.type fatal_once,@function
fatal_once:                     # only the word `hook` points here
  push rax
  call fatal
.type switchy,@function
switchy:                        # nothing calls it, and it follows a call of fatal, which the
  push rbp                      # compiler did not know never returns (it put main's code after
  mov rbp, rsp                  # its other call): it may be fatal_once's dead code, and its
  push rbx                      # ret, after `leave`, shows nothing. No gap rule accepts it, and
  push rax                      # the words of its table, labels that read rbx, are no functions
  mov ebx, edi
  cmp edi, 2
  ja .Lsw_default
  mov eax, edi
  jmp qword ptr [switch_table+rax*8]
.Lsw0:
  lea eax, [rbx+7]
  jmp .Lsw_out
.Lsw1:
  lea eax, [rbx+rbx*2]
  jmp .Lsw_out
.Lsw2:
  mov eax, ebx
  neg eax
  jmp .Lsw_out
.Lsw_default:
  xor eax, eax
.Lsw_out:
  mov rbx, qword ptr [rbp-8]
  leave
  ret
.type fatal,@function
fatal:
  push rax
  mov edi, 2
  call exit

.section .rodata
.p2align 3
format_table:
  .quad .Lfmt0, .Lfmt1, .Lfmt2, .Lfmt1
switch_table:
  .quad .Lsw0, .Lsw1, .Lsw2
flag_words:
  .zero 208

.data
.p2align 3
hook:
  .quad fatal_once
.section .note.GNU-stack,"",@progbits
