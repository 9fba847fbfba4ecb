; fold-opaque-predicates: branches (and selects) on conditions that always have the same value
; go one way; the other edge is removed. The predicates are the test obfuscator's.
; RUN: hoist-opt %s -passes=fold-opaque-predicates | FileCheck %s
; RUN: hoist-opt %s -passes=instcombine,simplifycfg | FileCheck %s --check-prefix=LLVM
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

declare void @real(i32)
declare void @bogus(i32)

; x*(x+1) is even: low bit 0 whatever x is (k = 1).
define void @parity(i32 %x) {
  %x1 = add i32 %x, 1
  %m = mul i32 %x, %x1
  %low = and i32 %m, 1
  %even = icmp eq i32 %low, 0
  br i1 %even, label %body, label %fake
body:
  call void @real(i32 %x)
  ret void
fake:
  call void @bogus(i32 %x)
  ret void
}
; CHECK-LABEL: @parity(
; CHECK-NEXT: br label %body
; CHECK: fake:
; CHECK-NEXT: call void @bogus
; LLVM does not know it:
; LLVM-LABEL: @parity(
; LLVM: call void @bogus

; 7y^2 - 1 is never a square: modulo 8 it is 3, 6 or 7, squares are 0, 1 or 4 (k = 3).
define i32 @never_square(i64 %x, i64 %y) {
  %yy = mul i64 %y, %y
  %y7 = mul i64 %yy, 7
  %l = sub i64 %y7, 1
  %xx = mul i64 %x, %x
  %same = icmp eq i64 %l, %xx
  br i1 %same, label %fake, label %body
body:
  ret i32 1
fake:
  ret i32 2
}
; CHECK-LABEL: @never_square(
; CHECK-NEXT: br label %body
; LLVM-LABEL: @never_square(
; LLVM: icmp eq i64

; An odd square is 1 modulo 8; InstCombine's shape of it (trunc to i1 of x*(x+1)) as well.
define i32 @odd_square(i32 %x) {
  %odd = or i32 %x, 1
  %sq = mul i32 %odd, %odd
  %low = and i32 %sq, 7
  %one = icmp ne i32 %low, 1
  %r = select i1 %one, i32 5, i32 9
  ret i32 %r
}
; CHECK-LABEL: @odd_square(
; CHECK-NEXT: ret i32 9

define i32 @bit_zero(i64 %x) {
  %x1 = add i64 %x, 1
  %m = mul i64 %x1, %x
  %b = trunc i64 %m to i1
  br i1 %b, label %fake, label %body
body:
  ret i32 1
fake:
  ret i32 2
}
; CHECK-LABEL: @bit_zero(
; CHECK-NEXT: br label %body

; Ranges: (x & 255) is below 256.
define i32 @range(i32 %x) {
  %small = and i32 %x, 255
  %below = icmp ult i32 %small, 300
  br i1 %below, label %body, label %fake
body:
  ret i32 1
fake:
  ret i32 2
}
; CHECK-LABEL: @range(
; CHECK-NEXT: br label %body

; Real conditions stay: x*(x+2) is odd for odd x.
define i32 @not_opaque(i32 %x) {
  %x2 = add i32 %x, 2
  %m = mul i32 %x, %x2
  %low = and i32 %m, 1
  %even = icmp eq i32 %low, 0
  br i1 %even, label %body, label %other
body:
  ret i32 1
other:
  ret i32 2
}
; CHECK-LABEL: @not_opaque(
; CHECK: br i1 %even, label %body, label %other
