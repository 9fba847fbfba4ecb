; simplify-mba on what all four protections together leave of `six` (a - b + c - d + e - f,
; tests/brighten/corpus.c) at clang-19 -O0 after InstCombine: the MBA sees the sum s = ~b + a
; shifted (`(s << 3) & -16`, InstCombine's 8*s), complemented (`b - a` is ~s, then `~s << 2`)
; and by its low bit (`select (trunc s to i1), 10, 0`), among six leaves. The sum under its
; shifts and complements is one leaf; bitwise operators that see leaves shifted by one
; amount still make a sum of per-position functions, which the per-bit form gives exactly:
; no proof (this test runs without Z3). Then the affine rest, with any number of leaves.
; (26 instructions after brightening; the unprotected lift 6.)
; RUN: hoist-opt %s -passes=simplify-mba,instcombine,simplify-mba,instcombine | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

define i64 @six(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f) {
  %nb = xor i64 %b, -1
  %s = add i64 %nb, %a
  %x1 = xor i64 %s, -2
  %ns = sub i64 %b, %a
  %ns4 = shl i64 %ns, 2
  %o1 = or i64 %ns4, 4
  %s8 = shl i64 %s, 3
  %a1 = and i64 %s8, -16
  %x2 = xor i64 %a1, -16
  %a2 = and i64 %s, -2
  %m1 = mul i64 %a2, 6
  %bit1 = trunc i64 %ns to i1
  %sel1 = select i1 %bit1, i64 10, i64 0
  %bit2 = trunc i64 %s to i1
  %sel2 = select i1 %bit2, i64 10, i64 0
  %t1 = add i64 %c, 5
  %t2 = add i64 %t1, %x1
  %t3 = add i64 %o1, %d
  %t4 = sub i64 %t2, %t3
  %t5 = add i64 %t4, %m1
  %t6 = add i64 %t5, %sel1
  %t7 = add i64 %t6, %sel2
  %t8 = add i64 %t7, %e
  %t9 = add i64 %t8, %x2
  %r = sub i64 %t9, %f
  ret i64 %r
}
; CHECK-LABEL: @six(
; CHECK-NOT: xor
; CHECK-NOT: shl
; CHECK-NOT: select
; CHECK: [[AC:%.*]] = add i64 {{%a, %c|%c, %a}}
; CHECK-NEXT: [[ACE:%.*]] = add i64 [[AC]], %e
; CHECK-NEXT: [[BD:%.*]] = add i64 %b, %d
; CHECK-NEXT: [[BDF:%.*]] = add i64 [[BD]], %f
; CHECK-NEXT: %r = sub i64 [[ACE]], [[BDF]]
; CHECK-NEXT: ret i64 %r

; Leaves shifted by different amounts under one bitwise operator (bit j of 2x & x depends on
; x's bits j and j - 1): not a per-position sum, so the per-bit form (here x, from single
; bits) is no exact candidate, and it is wrong (x = 3 gives 5): the expression stays.
define i64 @mixed_shifts(i64 %x) {
  %x2 = shl i64 %x, 1
  %both = and i64 %x2, %x
  %r = add i64 %both, %x
  ret i64 %r
}
; CHECK-LABEL: @mixed_shifts(
; CHECK: %both = and i64 %x2, %x
; CHECK-NEXT: %r = add i64 %both, %x
