; simplify-mba on what the obfuscator's MBA becomes after InstCombine at -O0 lifts (each
; function is a residue of the deobfuscation corpus, tests/deobfuscate/run-corpus.sh):
; more leaves than the signature takes until sums become leaves, `or disjoint` for an add,
; constants under bitwise operators, and selects on a truncated bit.
; RUN: hoist-opt %s -passes=simplify-mba,instcombine | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

; a+c - (b+d) + e, then MBA-encoded with f: six leaves below the bitwise operators, two
; (the sum s and f) once s is a leaf. 2*((s&~f) + (s|f) + ~(s&f)) + 3*((s&f) - (~s&f) - s) + 2
; is s - f.
define i64 @six_leaves(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f) {
  %ac = add i64 %a, %c
  %bd = add i64 %b, %d
  %diff = sub i64 %ac, %bd
  %s = add i64 %diff, %e
  %and = and i64 %s, %f
  %nand = xor i64 %and, -1
  %or = or i64 %s, %f
  %nf = xor i64 %f, -1
  %sandnf = and i64 %s, %nf
  %ns = xor i64 %s, -1
  %nsandf = and i64 %ns, %f
  %t1 = add i64 %sandnf, %or
  %t2 = add i64 %t1, %nand
  %t3 = shl i64 %t2, 1
  %t4 = add i64 %nsandf, %s
  %t5 = sub i64 %and, %t4
  %t6 = mul i64 %t5, 3
  %t7 = add i64 %t3, 2
  %r = add i64 %t7, %t6
  ret i64 %r
}
; CHECK-LABEL: @six_leaves(
; CHECK-NOT: and
; CHECK-NOT: xor
; CHECK: %r = sub i64
; CHECK-NEXT: ret i64 %r

; x & 63 as a linear MBA over x and the constant 63 (whose bits InstCombine spread over 192
; and -64 through the zero extension): exact by the per-bit form, no proof.
define i32 @mask_constant(i8 %n) {
  %x = zext i8 %n to i32
  %a = and i32 %x, 63
  %na = xor i32 %a, -1
  %o = or i32 %x, 63
  %h = and i32 %x, 192
  %ho = or i32 %x, -64
  %t1 = add nsw i32 %ho, 2
  %t2 = sub nsw i32 %t1, %h
  %t3 = add nsw i32 %t2, %na
  %t4 = add nsw i32 %t3, %o
  %t5 = mul nsw i32 %t4, 3
  %r = add nsw i32 %t5, %a
  ret i32 %r
}
; CHECK-LABEL: @mask_constant(
; CHECK-NEXT: [[LOW:%.*]] = and i8 %n, 63
; CHECK-NEXT: [[R:%.*]] = zext nneg i8 [[LOW]] to i32
; CHECK-NEXT: ret i32 [[R]]

; x & 7 (a table index), with `or disjoint` where an add was and shifts of x under the
; bitwise operators: the per-bit candidate, proved by Z3.
define i32 @disjoint_or(i32 %x) {
  %nx = xor i32 %x, -1
  %a = or i32 %nx, 7
  %b = mul i32 %a, -4
  %c = or disjoint i32 %b, 18
  %x8 = shl i32 %x, 3
  %d = and i32 %x8, -64
  %e = xor i32 %d, -64
  %x4 = shl i32 %x, 2
  %f = and i32 %x4, -32
  %g = and i32 %nx, 7
  %h = mul nuw nsw i32 %g, 6
  %i = and i32 %x, 7
  %j = mul nuw nsw i32 %i, 7
  %k = add i32 %c, %f
  %l = add i32 %k, %h
  %m = add i32 %l, %j
  %r = add i32 %m, %e
  ret i32 %r
}
; CHECK-LABEL: @disjoint_or(
; CHECK-NEXT: %r = and i32 %x, 7
; CHECK-NEXT: ret i32 %r

; (x & 0x7fffffff) - 1 (x - 1 for the loop's positive x), with a select on x's low bit
; (InstCombine's (x & 1) * -2): a non-linear form whose per-bit candidate Z3 proves.
define i32 @bit_select(i32 %x) {
  %a = shl i32 %x, 2
  %b = xor i32 %a, -8
  %c = shl nuw i32 %x, 1
  %d = or i32 %c, -4
  %e = and i32 %x, 2147483646
  %f = mul i32 %e, 5
  %g = or i32 %x, -2
  %bit = trunc i32 %x to i1
  %h = select i1 %bit, i32 -2, i32 0
  %i = add nsw i32 %g, 5
  %j = add i32 %i, %b
  %k = sub i32 %j, %d
  %l = add i32 %k, %f
  %r = add i32 %l, %h
  ret i32 %r
}
; CHECK-LABEL: @bit_select(
; CHECK-NEXT: [[LOW:%.*]] = and i32 %x, 2147483647
; CHECK-NEXT: %r = add nsw i32 [[LOW]], -1
; CHECK-NEXT: ret i32 %r

; s = a - b, and ~s written by InstCombine as 1 - (s + 2): two sums under the bitwise
; operators that are complements as affine functions of a and b, joined into s and ~s; then
; -3*(s^c) + 2*(s&c) + 4*((~s&c) + (s&~c)) - d is s + c - d.
define i64 @complemented_sum(i64 %a, i64 %b, i64 %c, i64 %d) {
  %p = add i64 %a, 2
  %q = sub i64 %p, %b
  %s = add i64 %q, -2
  %x = xor i64 %s, %c
  %x3 = mul i64 %x, -3
  %nc = xor i64 %c, -1
  %sandnc = and i64 %s, %nc
  %ns = sub i64 1, %q
  %nsandc = and i64 %ns, %c
  %sandc = and i64 %s, %c
  %t1 = shl i64 %sandc, 1
  %t2 = add i64 %nsandc, %sandnc
  %t3 = shl i64 %t2, 2
  %t4 = sub i64 %x3, %d
  %t5 = add i64 %t4, %t1
  %r = add i64 %t5, %t3
  ret i64 %r
}
; CHECK-LABEL: @complemented_sum(
; CHECK: %s = add i64 %q, -2
; CHECK-NEXT: [[SC:%.*]] = add i64 %s, %c
; CHECK-NEXT: %r = sub i64 [[SC]], %d
; CHECK-NEXT: ret i64 %r

; (s ^ e) + 2*(s & e) - f with s a sum of four arguments: the candidate s + e - f costs two
; instructions, not the sum's own three besides.
define i64 @sum_leaf_cost(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f) {
  %ac = add i64 %a, %c
  %bd = add i64 %b, %d
  %s = sub i64 %ac, %bd
  %and = and i64 %s, %e
  %twice = shl i64 %and, 1
  %xor = xor i64 %s, %e
  %t = sub i64 %xor, %f
  %r = add i64 %t, %twice
  ret i64 %r
}
; CHECK-LABEL: @sum_leaf_cost(
; CHECK-NOT: and
; CHECK-NOT: xor
; CHECK: ret i64

; What an MBA leaves once its bitwise parts became sums (add3 under the obfuscator's MBA):
; arithmetic alone, affine in a, b and c, rewritten as its coefficients. InstCombine keeps
; the five instructions.
; RUN: hoist-opt %s -passes=simplify-mba | FileCheck %s --check-prefix=AFFINE
; RUN: hoist-opt %s -passes=instcombine | FileCheck %s --check-prefix=AFFINE-LLVM
define i32 @affine_rest(i32 %a, i32 %b, i32 %c) {
  %ab = add i32 %b, %a
  %c5 = mul i32 %c, 5
  %c4 = shl i32 %c, 2
  %t = sub i32 %ab, %c4
  %r = add i32 %t, %c5
  ret i32 %r
}
; AFFINE-LABEL: @affine_rest(
; AFFINE-NEXT: [[AB:%.*]] = add i32 %b, %a
; AFFINE-NEXT: %r = add i32 [[AB]], %c
; AFFINE-NEXT: ret i32 %r
; AFFINE-LLVM-LABEL: @affine_rest(
; AFFINE-LLVM: mul i32 %c, 5
