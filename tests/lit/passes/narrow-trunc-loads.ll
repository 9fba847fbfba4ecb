; narrow-trunc-loads: trunc (load iN p) becomes a narrower load of p when nothing else uses
; the wide value; x86-64 is little-endian, so the low bytes are at p itself.
; RUN: hoist-opt %s -passes=narrow-trunc-loads | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

define i32 @low_half(ptr %p) {
  %wide = load i64, ptr %p, align 1, !hoist.pc !0
  %low = trunc i64 %wide to i32
  ret i32 %low
}
; CHECK-LABEL: @low_half(
; CHECK-NEXT: %wide.narrow = load i32, ptr %p, align 1, !hoist.pc !0
; CHECK-NEXT: ret i32 %wide.narrow

; The wide value is used elsewhere: both loads would be wasted work.
define i64 @other_user(ptr %p) {
  %wide = load i64, ptr %p, align 1
  %low = trunc i64 %wide to i8
  %ext = zext i8 %low to i64
  %sum = add i64 %wide, %ext
  ret i64 %sum
}
; CHECK-LABEL: @other_user(
; CHECK-NEXT: %wide = load i64, ptr %p
; CHECK-NEXT: %low = trunc i64 %wide to i8

; A volatile load keeps its width.
define i16 @volatile(ptr %p) {
  %wide = load volatile i32, ptr %p
  %low = trunc i32 %wide to i16
  ret i16 %low
}
; CHECK-LABEL: @volatile(
; CHECK-NEXT: load volatile i32

; An i1 is not a whole byte: its load would read the other seven bits as padding.
define i1 @bit(ptr %p) {
  %wide = load i8, ptr %p
  %low = trunc i8 %wide to i1
  ret i1 %low
}
; CHECK-LABEL: @bit(
; CHECK-NEXT: load i8

!0 = !{i64 4096}
