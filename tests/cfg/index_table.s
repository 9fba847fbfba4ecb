# A jump table behind a byte index table, in the shape MSVC emits and no compiler here does:
#   movzx eax, byte [rdx+rax+IDX]; mov ecx, [rdx+rax*4+T]; add rcx, rdx; jmp rcx
# with rdx a base address (here the function's own address). Hand-written, so its truth is
# known: check_cfg.py reads the global labels below from the unstripped copy and expects one
# table at `indexed_jmp` whose targets, index by index, are the cases that `indexed_bytes`
# names (0 -> indexed_case0, ...). Built for ELF (gcc) and PE (mingw) alike.
.intel_syntax noprefix
.text
.globl indexed, indexed_jmp, indexed_case0, indexed_case1, indexed_case2, indexed_bytes
.globl main
indexed:
  cmp ecx, 5
  ja indexed_default
  mov eax, ecx
  lea rdx, [rip + indexed]
  movzx eax, byte ptr [rdx + rax + (indexed_bytes - indexed)]
  mov ecx, dword ptr [rdx + rax*4 + (indexed_targets - indexed)]
  add rcx, rdx
indexed_jmp:
  jmp rcx
indexed_case0:
  mov eax, 10
  ret
indexed_case1:
  mov eax, 20
  ret
indexed_case2:
  mov eax, 30
  ret
indexed_default:
  xor eax, eax
  ret

main:
  sub rsp, 40
  mov ecx, edi
  call indexed
  add rsp, 40
  ret

# The tables follow the code in .text (as MSVC may place them): the entries are differences
# of labels of one section.
.p2align 2
indexed_bytes:
  .byte 0, 1, 0, 2, 1, 2
.p2align 2
indexed_targets:
  .long indexed_case0 - indexed, indexed_case1 - indexed, indexed_case2 - indexed
