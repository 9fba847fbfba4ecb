; simplify-mba on a comparison of two MBA halves: all four protections on rotl64 (clang-19
; -O0) test `r & 63 == 0` as `(r & -64) * (2^26 - 1) - 1 == ~r`, and the side taken when
; they differ computes their difference again. Neither half is worth rewriting alone (the
; other user keeps it); as `icmp eq (A - B), 0`, with every A - B the comparison dominates
; reading that one difference, the difference owns both halves and is r & 63 (a linear MBA
; with constants: exact, no proof).
; RUN: hoist-opt %s -passes=simplify-mba,instcombine | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

define i32 @compare_halves(i32 %r) {
entry:
  %not = xor i32 %r, -1
  %high = and i32 %r, -64
  %scaled = mul i32 %high, 67108863
  %half = add i32 %scaled, -1
  %same = icmp eq i32 %half, %not
  br i1 %same, label %done, label %differ
differ:
  %difference = sub i32 %half, %not
  br label %done
done:
  %result = phi i32 [ %difference, %differ ], [ 0, %entry ]
  ret i32 %result
}
; CHECK-LABEL: @compare_halves(
; CHECK-NEXT: entry:
; CHECK-NEXT: [[LOW:%.*]] = and i32 %r, 63
; CHECK-NEXT: %same = icmp eq i32 [[LOW]], 0
; CHECK-NOT: mul
; CHECK-NOT: xor
; CHECK: phi i32 [ [[LOW]], %differ ], [ 0, %entry ]

; Halves whose difference is no simpler stay compared as they are.
define i1 @plain_compare(i32 %x, i32 %y) {
  %a = mul i32 %x, %y
  %b = xor i32 %x, %y
  %same = icmp eq i32 %a, %b
  ret i1 %same
}
; CHECK-LABEL: @plain_compare(
; CHECK-NEXT: %a = mul i32 %x, %y
; CHECK-NEXT: %b = xor i32 %x, %y
; CHECK-NEXT: %same = icmp eq i32 %a, %b
