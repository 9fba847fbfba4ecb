; simplify-mba: linear MBA by its signature vector, non-linear MBA when Z3 proves the
; candidate. Each function computes a plain operator in an obfuscated form.
; RUN: hoist-opt %s -passes=simplify-mba | FileCheck %s
; RUN: hoist-opt %s -passes=instcombine | FileCheck %s --check-prefix=INSTCOMBINE
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

; The issue's example: (x ^ y) + 2 * (x & y) is x + y.
define i64 @add_by_xor_and(i64 %x, i64 %y) {
  %xor = xor i64 %x, %y
  %and = and i64 %x, %y
  %twice = shl i64 %and, 1
  %sum = add i64 %xor, %twice
  ret i64 %sum
}
; CHECK-LABEL: @add_by_xor_and(
; CHECK-NEXT: %sum = add i64 %x, %y
; CHECK-NEXT: ret i64 %sum
; InstCombine leaves this one alone.
; INSTCOMBINE-LABEL: @add_by_xor_and(
; INSTCOMBINE: xor i64 %x, %y

; Random coefficients and identities that sum to zero, as the test obfuscator writes them:
; 3*(x|y) - 2*(x&~y) - 3*(~x&y) - (x&y) + 2*(x^y) - 2*(~(x|y)) - 2 ... is x - y here.
define i32 @sub_linear(i32 %x, i32 %y) {
  %or = or i32 %x, %y
  %noty = xor i32 %y, -1
  %notx = xor i32 %x, -1
  %xandny = and i32 %x, %noty
  %nxandy = and i32 %notx, %y
  %and = and i32 %x, %y
  %a = mul i32 %or, 3
  %b = mul i32 %xandny, -2
  %c = mul i32 %nxandy, -4
  %d = mul i32 %and, -3
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %c
  %s3 = add i32 %s2, %d
  ret i32 %s3
}
; 3*(x|y) = 3*(x&~y) + 3*(~x&y) + 3*(x&y); minus the rest: (x&~y) - (~x&y) = x - y.
; CHECK-LABEL: @sub_linear(
; CHECK-NEXT: %s3 = sub i32 %x, %y
; CHECK-NEXT: ret i32 %s3

; A bitwise result: (x | y) - (x & y) + (x ^ y) - (x ^ y) ... is x ^ y; the signature has
; two values, so the answer is a single bitwise function.
define i16 @xor_two_valued(i16 %x, i16 %y) {
  %or = or i16 %x, %y
  %and = and i16 %x, %y
  %notx = xor i16 %x, -1
  %t = and i16 %notx, %y
  %d = sub i16 %or, %and
  %e = add i16 %d, %t
  %f = sub i16 %e, %t
  ret i16 %f
}
; CHECK-LABEL: @xor_two_valued(
; CHECK-NEXT: %f = xor i16 %x, %y
; CHECK-NEXT: ret i16 %f

; Three variables: x + y + z through (x^y) + 2(x&y), then the same with z.
define i64 @three_variables(i64 %x, i64 %y, i64 %z) {
  %xor = xor i64 %x, %y
  %and = and i64 %x, %y
  %and2 = mul i64 %and, 2
  %xy = add i64 %xor, %and2
  %xor2 = xor i64 %xy, %z
  %and3 = and i64 %xy, %z
  %and4 = mul i64 %and3, 2
  %sum = add i64 %xor2, %and4
  ret i64 %sum
}
; CHECK-LABEL: @three_variables(
; CHECK-NEXT: [[XY:%.*]] = add i64 %x, %y
; CHECK-NEXT: %sum = add i64 [[XY]], %z
; CHECK-NEXT: ret i64 %sum

; A constant term: ~x + 1 + (x & y) - (x & y) ... is -x.
define i32 @negation(i32 %x, i32 %y) {
  %notx = xor i32 %x, -1
  %and = and i32 %x, %y
  %a = add i32 %notx, 1
  %b = add i32 %a, %and
  %c = sub i32 %b, %and
  ret i32 %c
}
; CHECK-LABEL: @negation(
; CHECK-NEXT: %c = sub i32 0, %x
; CHECK-NEXT: ret i32 %c

; Polynomial: (x&y)*(x|y) + (x&~y)*(~x&y) is x*y, proved by the degree-two signature (Z3
; does not prove it at 16 bits in 20 s).
define i32 @product(i32 %x, i32 %y) {
  %and = and i32 %x, %y
  %or = or i32 %x, %y
  %noty = xor i32 %y, -1
  %notx = xor i32 %x, -1
  %a = and i32 %x, %noty
  %b = and i32 %notx, %y
  %p = mul i32 %and, %or
  %q = mul i32 %a, %b
  %r = add i32 %p, %q
  ret i32 %r
}
; CHECK-LABEL: @product(
; CHECK-NEXT: %r = mul i32 %x, %y
; CHECK-NEXT: ret i32 %r

; Non-linear: a zero identity times a variable, ((x|y) - (x&y) - (x^y)) * y, added to x ^ y.
define i64 @zero_times_variable(i64 %x, i64 %y) {
  %or = or i64 %x, %y
  %and = and i64 %x, %y
  %xor = xor i64 %x, %y
  %z1 = sub i64 %or, %and
  %zero = sub i64 %z1, %xor
  %scaled = mul i64 %zero, %y
  %r = add i64 %xor, %scaled
  ret i64 %r
}
; CHECK-LABEL: @zero_times_variable(
; CHECK-NEXT: %r = xor i64 %x, %y
; CHECK-NEXT: ret i64 %r

; (x&y)*(x|y) alone agrees with x*y on {0,1} but not elsewhere (x = 2, y = 1): refuted.
define i32 @half_product(i32 %x, i32 %y) {
  %and = and i32 %x, %y
  %or = or i32 %x, %y
  %p = mul i32 %and, %or
  ret i32 %p
}
; CHECK-LABEL: @half_product(
; CHECK-NEXT: %and = and i32 %x, %y
; CHECK-NEXT: %or = or i32 %x, %y
; CHECK-NEXT: %p = mul i32 %and, %or

; Not MBA: a plain sum stays as it is, and so does an expression whose candidate is wrong
; (x & 5 is not uniform over the bits; the tests refute the signature's guess).
define i32 @left_alone(i32 %x, i32 %y) {
  %m = and i32 %x, 5
  %s = add i32 %m, %y
  ret i32 %s
}
; CHECK-LABEL: @left_alone(
; CHECK-NEXT: %m = and i32 %x, 5
; CHECK-NEXT: %s = add i32 %m, %y
