# A function whose first instruction is five bytes long: 0x401001..0x401004 are inside it.
# Its .eh_frame entry gives its extent once the symbols are stripped.
  .intel_syntax noprefix
  .text
  .globl set_answer
  .type set_answer, @function
set_answer:
  .cfi_startproc
  mov eax, 0x2a
  ret
  .cfi_endproc
  .size set_answer, .-set_answer
