; simplify-mba on what all four protections leave of compare_sign's `(c > 0) - (c < 0)`
; (tests/brighten/corpus.c, clang-19 -O0) after InstCombine, with c > 0 replaced by c's low
; bit p (so that the value is no function of c's ranges alone, StepFunction.cpp): the MBA of
; `p - s` over p and s = zext(c < 0), with s written two ways: `lshr c, 31`, and -2*s as
; `and (ashr c, 30), -2`. Over the sign bit (`ashr c, 30` under the mask is (0 - s) << 1),
; the leaves are s and p, one unknown bit each (known bits): the four inputs are enumerated,
; no proof. (32 instructions after brightening; the unprotected lift 6.)
; RUN: hoist-opt %s -passes=simplify-mba,instcombine,simplify-mba,instcombine | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

declare i32 @strcmp(ptr, ptr)

; CHECK-LABEL: @compare_sign(
; CHECK-NEXT: %c = tail call i32 @strcmp(
; CHECK-NEXT: [[MINUS_S:%.*]] = ashr i32 %c, 31
; CHECK-NEXT: [[P:%.*]] = and i32 %c, 1
; CHECK-NEXT: add nsw i32 [[MINUS_S]], [[P]]
; CHECK-NEXT: ret i32
define i32 @compare_sign(ptr %a, ptr %b) {
  %c = tail call i32 @strcmp(ptr %a, ptr %b)
  %4 = lshr i32 %c, 31
  %5 = ashr i32 %c, 30
  %6 = and i32 %5, -2
  %7 = add nsw i32 %4, -1
  %8 = add nsw i32 %7, %6
  %9 = trunc i32 %c to i1
  %10 = zext i1 %9 to i32
  %11 = xor i32 %8, %10
  %12 = and i32 %11, 1
  %13 = xor i32 %12, -1
  %14 = shl nsw i32 %13, 1
  %15 = xor i32 %4, -1
  %16 = and i32 %10, %15
  %17 = shl nuw nsw i32 %16, 1
  %18 = add nsw i32 %11, %17
  %19 = or i32 %18, 1
  %20 = xor i32 %19, -1
  %21 = add i32 %14, %20
  %22 = mul nuw nsw i32 %12, 6
  %23 = add i32 %21, %22
  %24 = trunc i32 %11 to i1
  %25 = select i1 %24, i32 0, i32 6
  %26 = and i32 %18, -2
  %27 = add nsw i32 %18, 1
  %28 = add nsw i32 %27, %26
  %29 = mul i32 %28, 3
  %30 = add i32 %23, %25
  %31 = shl nsw i32 %19, 2
  %32 = sub i32 %30, %31
  %33 = add i32 %32, %29
  ret i32 %33
}

; The same with the mask -3: the and reads bit 0 of `ashr c, 30`, which is bit 30 of c, not
; its sign. No sign bit there, so the shift stays (and so does the MBA).
; CHECK-LABEL: @not_only_sign(
; CHECK: ashr i32 %c, 30
; CHECK: and i32 %{{.*}}, -3
define i32 @not_only_sign(ptr %a, ptr %b) {
  %c = tail call i32 @strcmp(ptr %a, ptr %b)
  %4 = lshr i32 %c, 31
  %5 = ashr i32 %c, 30
  %6 = and i32 %5, -3
  %7 = add nsw i32 %4, -1
  %8 = add nsw i32 %7, %6
  %9 = trunc i32 %c to i1
  %10 = zext i1 %9 to i32
  %11 = xor i32 %8, %10
  %12 = and i32 %11, 1
  %13 = xor i32 %12, -1
  %14 = shl nsw i32 %13, 1
  %15 = xor i32 %4, -1
  %16 = and i32 %10, %15
  %17 = shl nuw nsw i32 %16, 1
  %18 = add nsw i32 %11, %17
  %19 = or i32 %18, 1
  %20 = xor i32 %19, -1
  %21 = add i32 %14, %20
  %22 = mul nuw nsw i32 %12, 6
  %23 = add i32 %21, %22
  %24 = trunc i32 %11 to i1
  %25 = select i1 %24, i32 0, i32 6
  %26 = and i32 %18, -2
  %27 = add nsw i32 %18, 1
  %28 = add nsw i32 %27, %26
  %29 = mul i32 %28, 3
  %30 = add i32 %23, %25
  %31 = shl nsw i32 %19, 2
  %32 = sub i32 %30, %31
  %33 = add i32 %32, %29
  ret i32 %33
}
