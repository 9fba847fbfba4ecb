; simplify-mba on what all four protections leave of count_calls (`counter += (k & 3) + 1`,
; tests/brighten/corpus.c, clang-19 -O2): c + 3k - 2*(((c + 7) & k) + ((0 - c) & k)) is
; c + k only because k = (k & 3) + 1 is below 8 (c + 7 and -c are complements in their low 3
; bits). LLVM's known bits of the leaf k restrict the inputs: tests draw k below 8 and Z3
; assumes it. Over all words the two differ, and nothing is rewritten.
; REQUIRES: z3
; RUN: hoist-opt %s -passes=simplify-mba,instcombine | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

@counter = global i32 0

; CHECK-LABEL: @count_calls(
; CHECK: %k = zext nneg i8 %k1 to i32
; CHECK-NEXT: %c = load i32, ptr @counter
; CHECK-NEXT: [[SUM:%.*]] = add i32 %c, %k
; CHECK-NEXT: store i32 [[SUM]], ptr @counter
; CHECK-NEXT: ret i32 [[SUM]]
define i32 @count_calls(i8 %arg) {
  %k3 = and i8 %arg, 3
  %k1 = add nuw nsw i8 %k3, 1
  %k = zext nneg i8 %k1 to i32
  %c = load i32, ptr @counter
  %6 = sub i32 0, %c
  %7 = add i32 %c, 7
  %8 = and i32 %7, %k
  %9 = mul nuw nsw i32 %k, 3
  %10 = and i32 %6, %k
  %11 = add nuw nsw i32 %8, %10
  %12 = add i32 %c, %9
  %13 = shl nuw nsw i32 %11, 1
  %14 = sub i32 %12, %13
  store i32 %14, ptr @counter
  ret i32 %14
}

; The same with k any word: not c + k, kept.
; CHECK-LABEL: @any_k(
; CHECK: and i32 %{{.*}}, %k
; CHECK: and i32 %{{.*}}, %k
define i32 @any_k(i32 %k, i32 %c) {
  %6 = sub i32 0, %c
  %7 = add i32 %c, 7
  %8 = and i32 %7, %k
  %9 = mul i32 %k, 3
  %10 = and i32 %6, %k
  %11 = add i32 %8, %10
  %12 = add i32 %c, %9
  %13 = shl i32 %11, 1
  %14 = sub i32 %12, %13
  ret i32 %14
}
