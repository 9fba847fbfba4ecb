; simplify-mba on what all four protections leave of six (a - b + c - d + e - f,
; tests/brighten/corpus.c, clang-19 -O2): over S = a + c + e and T = b + d + f, the MBA of
; S - T sees -T and T + 2^62 - 1, which are complements only in their low 62 bits; the or
; that reads the second is shifted left by 2, so nothing reads its other bits (LLVM's
; DemandedBits). Joined as ~(-T), the MBA is linear over S, T and -T: exact, no proof; then
; the affine rest. (16 instructions after brightening; the unprotected lift 6.)
; RUN: hoist-opt %s -passes=simplify-mba,instcombine,simplify-mba,instcombine | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

; CHECK-LABEL: @six(
; CHECK-NEXT: add i64 %c, %a
; CHECK-NEXT: add i64 %{{.*}}, %e
; CHECK-NEXT: add i64 %d, %b
; CHECK-NEXT: add i64 %{{.*}}, %f
; CHECK-NEXT: sub i64
; CHECK-NEXT: ret i64
define i64 @six(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f) {
  %7 = add i64 %c, %a
  %8 = add i64 %7, %e
  %9 = add i64 %d, %b
  %10 = add i64 %9, %f
  %11 = sub i64 0, %10
  %12 = add i64 %10, 4611686018427387903
  %13 = mul i64 %10, 3
  %14 = and i64 %8, %11
  %15 = shl i64 %14, 2
  %16 = add i64 %8, -4
  %17 = add i64 %16, %13
  %18 = add i64 %17, %15
  %19 = or i64 %12, %8
  %20 = shl i64 %19, 2
  %21 = sub i64 %18, %20
  ret i64 %21
}

; The same with the or read whole (no shift): not complements there, kept.
; CHECK-LABEL: @read_whole(
; CHECK: add i64 %t, 4611686018427387903
define i64 @read_whole(i64 %s, i64 %t) {
  %11 = sub i64 0, %t
  %12 = add i64 %t, 4611686018427387903
  %14 = and i64 %s, %11
  %19 = or i64 %12, %s
  %21 = sub i64 %14, %19
  ret i64 %21
}
