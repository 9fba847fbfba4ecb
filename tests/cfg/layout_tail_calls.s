# Tail calls that only the layout shows, as clang-19 -Os lays out findutils 4.9.0's find
# (docs/CFG.md "Debian packages"), by hand: nothing is aligned, only jmps reach the tail-called
# functions, and there are no unwind entries for them in either copy check_cfg.py makes. Each
# function here must be found, and the two that only look like tail calls must stay code.
.intel_syntax noprefix
.text
.globl main
.type main,@function
main:
  push rax
  mov edi, 3
  call find_parser
  mov edi, 4
  call own_last_block
  mov edi, 5
  call framed_last_block
  lea rax, [rip+parse_table]
  mov edi, 6
  call [rax+8]
  xor eax, eax
  pop rcx
  ret
.size main, .-main

# find_parser: `return found_parser (...)` after the epilogue, over its own `return NULL`
# block, to found_parser laid out right after it.
.type find_parser,@function
find_parser:
  push rbx
  mov ebx, edi
  test edi, edi
  je .Lnull
  lea esi, [rbx+1]
  mov edi, ebx
  pop rbx
  jmp found_parser
.Lnull:
  xor eax, eax
  pop rbx
  ret
.size find_parser, .-find_parser

.type found_parser,@function
found_parser:                   # nothing else calls it
  push rbx
  mov ebx, esi
  call abs@PLT
  add eax, ebx
  pop rbx
  ret
.size found_parser, .-found_parser

# parse_amin, parse_cmin and parse_mmin, found only through the relocated pointers of
# parse_table (a PIE), each tail-call do_parse_xmin, which nothing else reaches: parse_amin's
# jmp goes over the other two and parse_newer, whose pointers are weighed after parse_amin is explored.
.type parse_amin,@function
parse_amin:
  mov esi, 1
  jmp do_parse_xmin
.size parse_amin, .-parse_amin

.type parse_cmin,@function
parse_cmin:
  mov esi, 2
  jmp do_parse_xmin
.size parse_cmin, .-parse_cmin

.type parse_mmin,@function
parse_mmin:
  mov esi, 3
  jmp do_parse_xmin
.size parse_mmin, .-parse_mmin

.type parse_newer,@function
parse_newer:                    # between them and do_parse_xmin, also found through the table
  lea eax, [rdi+1]
  ret
.size parse_newer, .-parse_newer

.type do_parse_xmin,@function
do_parse_xmin:
  lea eax, [rdi+rsi]
  ret
.size do_parse_xmin, .-do_parse_xmin

# A function without a frame jumps over a block to its own last block: its code.
.type own_last_block,@function
own_last_block:
  test edi, edi
  je .Lzero
  add edi, 1
  jmp .Lown
.Lzero:
  xor eax, eax
  ret
.Lown:
  lea eax, [rdi+rdi]
  ret
.size own_last_block, .-own_last_block

# A jmp inside the frame to the function's own last block: its code.
.type framed_last_block,@function
framed_last_block:
  push rbx
  mov ebx, edi
  test edi, edi
  je .Lfzero
  jmp .Lfown
.Lfzero:
  xor eax, eax
  pop rbx
  ret
.Lfown:
  lea eax, [rbx+rbx]
  pop rbx
  ret
.size framed_last_block, .-framed_last_block
.section .data.rel.ro,"aw"
.p2align 3
parse_table:
  .quad parse_amin
  .quad parse_cmin
  .quad parse_mmin
  .quad parse_newer
.section .note.GNU-stack,"",@progbits
