; LLVM 19's x86 selection narrows the division to i32 (bits 32..63 of %merged are known zero),
; selects the i32 `or` as a word load into the low part of %a's register (bits 32..63 stay)
; and widens it back to i64 for the reciprocal multiply as nothing (its def32 pattern). The
; lifted form of `mov ax, [m]; xor edx, edx; div ecx` with ECX 127 reduces to this.
target triple = "x86_64-unknown-linux-gnu"

define i64 @word_into_low_part_divided(i64 %a, ptr %p) {
  %word = load i16, ptr %p, align 8
  %word64 = zext i16 %word to i64
  %upper = and i64 %a, 4294901760
  %merged = or disjoint i64 %upper, %word64
  %quotient = udiv i64 %merged, 127
  ret i64 %quotient
}
