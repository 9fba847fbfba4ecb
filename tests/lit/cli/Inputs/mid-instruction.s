# A function whose first instruction is five bytes long: 0x401001..0x401004 are inside it.
  .intel_syntax noprefix
  .text
  .globl set_answer
  .type set_answer, @function
set_answer:
  mov eax, 0x2a
  ret
  .size set_answer, .-set_answer
