; simplify-mba on what all four protections leave of compare_sign's `(c > 0) - (c < 0)`
; (tests/brighten/corpus.c) at clang-19 -O2 after InstCombine: no MBA left to simplify, only
; arithmetic over `select (c == 0), 0, 2`, `ashr c, 31`, `sext (c > 0)` and
; `and (ashr c, 30), -2` (ashr's bits read are copies of c's sign). The value depends on c
; only through comparisons with constants and its sign, so it is constant on c < 0, c == 0
; and c > 0: evaluated once on each, it is a chain of selects (exact, no proof).
; (12 instructions after brightening; the unprotected lift 6.)
; RUN: hoist-opt %s -passes=simplify-mba,instcombine | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

declare i32 @strcmp(ptr, ptr)

; CHECK-LABEL: @compare_sign(
; CHECK-NEXT: %c = tail call i32 @strcmp(
; CHECK-NEXT: icmp sgt i32 %c, 0
; CHECK-NEXT: zext i1
; CHECK-NEXT: icmp sgt i32 %c, -1
; CHECK-NEXT: select i1
; CHECK-NEXT: ret i32
define i32 @compare_sign(ptr %a, ptr %b) {
  %c = tail call i32 @strcmp(ptr %a, ptr %b)
  %4 = ashr i32 %c, 31
  %5 = icmp eq i32 %c, 0
  %6 = icmp sgt i32 %c, 0
  %7 = sext i1 %6 to i32
  %8 = select i1 %5, i32 0, i32 2
  %9 = ashr i32 %c, 30
  %10 = and i32 %9, -2
  %11 = add nsw i32 %8, %4
  %12 = add nsw i32 %11, %7
  %13 = add nsw i32 %12, %10
  ret i32 %13
}

; The same with c itself added: not constant on any range, kept (the pieces under the add
; are not rewritten alone: a select would be a leaf to an MBA around them).
; CHECK-LABEL: @plus_c(
; CHECK-NEXT: icmp eq i32 %c, 0
; CHECK: add {{.*}}%c
define i32 @plus_c(i32 %c) {
  %4 = ashr i32 %c, 31
  %5 = icmp eq i32 %c, 0
  %6 = icmp sgt i32 %c, 0
  %7 = sext i1 %6 to i32
  %8 = select i1 %5, i32 0, i32 2
  %9 = ashr i32 %c, 30
  %10 = and i32 %9, -2
  %11 = add nsw i32 %8, %4
  %12 = add nsw i32 %11, %7
  %13 = add nsw i32 %12, %10
  %14 = add i32 %13, %c
  ret i32 %14
}
