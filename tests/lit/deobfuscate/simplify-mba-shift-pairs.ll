; simplify-mba on what all four protections leave of count_twice (count_calls(k) +
; count_calls(k >> 2), each adding (k & 3) + 1 to a counter; tests/brighten/corpus.c, clang-19
; -O2, as lifted with k an i32): the second call's k2 & 3 is an MBA over k2 = `lshr k, 2` and
; `and (lshr k, 1), 0x3ffffff8`, which reads only what is k2 shifted left by one. Written so
; (the leaves one), the MBA simplifies; the affine arithmetic left above the simplified pieces
; (the return value, 4 * (t + u + 1) + 3 * ~u with t the stored counter) is t + u + 1.
; (28 instructions after brightening; the unprotected lift 13.)
; REQUIRES: z3
; RUN: hoist-opt %s -passes=simplify-mba,instcombine,simplify-mba,instcombine,simplify-mba,instcombine,early-cse | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

@image.bss = global [64 x i8] zeroinitializer

; CHECK-LABEL: @count_twice(
; CHECK-NEXT: %c = load i32
; CHECK-NEXT: [[K:%.*]] = and i32 %k, 3
; CHECK-NEXT: [[K2:%.*]] = lshr i32 %k, 2
; CHECK-NEXT: [[K23:%.*]] = and i32 [[K2]], 3
; CHECK-NEXT: add i32 [[K23]], %c
; CHECK-NEXT: add i32 %{{.*}}, [[K]]
; CHECK-NEXT: [[STORED:%.*]] = add i32 %{{.*}}, 2
; CHECK-NEXT: store i32 [[STORED]]
; CHECK-NOT: mul
; CHECK-NOT: xor
; CHECK: ret i32
define i32 @count_twice(i32 %k) {
  %c = load i32, ptr getelementptr inbounds (i8, ptr @image.bss, i64 16), align 16
  %3 = and i32 %k, 3
  %4 = add i32 %c, %3
  %5 = add i32 %4, 1
  %6 = xor i32 %4, -1
  %7 = lshr i32 %k, 2
  %8 = lshr i32 %k, 1
  %9 = and i32 %8, 1073741816
  %10 = mul i32 %9, 536870911
  %11 = add nuw nsw i32 %7, 1073741820
  %12 = add i32 %11, %10
  %13 = and i32 %12, %7
  %14 = add nuw nsw i32 %13, 1
  %15 = add i32 %5, %13
  %16 = shl i32 %15, 1
  %17 = sub nuw nsw i32 -2, %13
  %18 = and i32 %17, %6
  %19 = and i32 %4, %14
  %20 = sub i32 %18, %19
  %21 = add i32 %20, 2
  %22 = add i32 %21, %16
  store i32 %22, ptr getelementptr inbounds (i8, ptr @image.bss, i64 16), align 16
  %23 = add i32 %22, %5
  %24 = shl i32 %23, 2
  %25 = sub i32 %6, %22
  %26 = mul i32 %25, 3
  %27 = add i32 %24, %26
  ret i32 %27
}

; The same as lifted with k an i8 (brightening narrows the argument): the leaves are
; `zext (lshr k, 2)` and `zext (and (lshr k, 1), 56)`, the second the first shifted left by one
; and masked.
; CHECK-LABEL: @count_twice_narrow(
; CHECK-NOT: lshr i8 %k, 1
; CHECK-NOT: mul
; CHECK: store i32
; CHECK-NOT: mul
; CHECK: ret i32
define i32 @count_twice_narrow(i8 %k)  {
  %2 = and i8 %k, 3
  %c = load i32, ptr getelementptr inbounds (i8, ptr @image.bss, i64 16), align 16
  %4 = add nuw nsw i8 %2, 5
  %5 = zext nneg i8 %4 to i32
  %6 = add i32 %c, %5
  %7 = add i32 %6, -4
  %8 = sub i32 4, %6
  %9 = lshr i8 %k, 2
  %10 = zext nneg i8 %9 to i32
  %11 = lshr i8 %k, 1
  %12 = and i8 %11, 56
  %13 = zext nneg i8 %12 to i32
  %14 = add nuw nsw i32 %10, 60
  %15 = sub nuw nsw i32 %14, %13
  %16 = and i32 %15, %10
  %17 = add nuw nsw i32 %16, 1
  %18 = add i32 %6, 123
  %19 = add i32 %7, %16
  %20 = shl i32 %19, 1
  %21 = sub nuw nsw i32 -2, %16
  %22 = and i32 %8, %21
  %23 = and i32 %18, %17
  %24 = sub i32 %22, %23
  %25 = add i32 %24, 2
  %26 = add i32 %25, %20
  store i32 %26, ptr getelementptr inbounds (i8, ptr @image.bss, i64 16), align 16
  %27 = add i32 %26, %7
  %28 = shl i32 %27, 2
  %29 = sub i32 %8, %26
  %30 = mul i32 %29, 3
  %31 = add i32 %28, %30
  ret i32 %31
}
