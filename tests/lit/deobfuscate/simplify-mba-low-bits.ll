; simplify-mba on an MBA of which only the low bits are kept: the obfuscator's MBA of
; `64 - r`, a rotation's shift amount, becomes ((4r ^ 60) + 3r + 4) & 63 after InstCombine
; (reduced from the corpus function rotl64, MBA-protected at clang-19 -O0: 18 instructions
; after brightening, the unprotected lift 6). No polynomial over all 32 bits equals the sum,
; but modulo 64 it is -r: the polynomial fitted at r = 0 and 1, with its coefficients as
; signed 6-bit numbers (63 is -1), masked to the low 6 bits. Not linear, so Z3 proves it.
; REQUIRES: z3
; RUN: hoist-opt %s -passes=simplify-mba,instcombine | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

define i64 @rotate_left(i64 %x, i8 %r) {
  %r6 = and i8 %r, 63
  %wide = zext nneg i8 %r6 to i32
  %wide64 = zext nneg i8 %r6 to i64
  %left = shl i64 %x, %wide64
  %times4 = shl nuw nsw i32 %wide, 2
  %flipped = xor i32 %times4, 60
  %times3 = mul nuw nsw i32 %wide, 3
  %plus4 = add nuw nsw i32 %times3, 4
  %sum = add nuw nsw i32 %plus4, %flipped
  %amount = and i32 %sum, 63
  %amount64 = zext nneg i32 %amount to i64
  %right = lshr i64 %x, %amount64
  %rotated = or i64 %right, %left
  ret i64 %rotated
}
; With the amount (0 - r) & 63, InstCombine sees the rotation:
; CHECK-LABEL: @rotate_left(
; CHECK-NOT: xor
; CHECK-NOT: mul
; CHECK: %rotated = call i64 @llvm.fshl.i64(i64 %x, i64 %x, i64
; CHECK-NEXT: ret i64 %rotated

; A square modulo 64 is no polynomial of degree one: the candidate fitted at 0 and 1 (r & 63)
; fails the tests and the expression stays.
define i32 @square_low_bits(i32 %r) {
  %square = mul i32 %r, %r
  %low = and i32 %square, 63
  ret i32 %low
}
; CHECK-LABEL: @square_low_bits(
; CHECK: %square = mul i32 %r, %r
; CHECK-NEXT: %low = and i32 %square, 63

; InstCombine's form of that amount once r & 63 is a value of its own: (x * 63) & 63. The
; candidate (0 - x) & 63 has as many instructions but no multiplication: taken, and the
; rotation shows.
define i64 @rotate_multiplied(i64 %x, i8 %r) {
  %r6 = and i8 %r, 63
  %left = zext nneg i8 %r6 to i64
  %shifted = shl i64 %x, %left
  %times63 = mul i8 %r, 63
  %amount = and i8 %times63, 63
  %amount64 = zext nneg i8 %amount to i64
  %right = lshr i64 %x, %amount64
  %rotated = or i64 %right, %shifted
  ret i64 %rotated
}
; CHECK-LABEL: @rotate_multiplied(
; CHECK-NOT: mul
; CHECK: %rotated = call i64 @llvm.fshl.i64(i64 %x, i64 %x, i64
; CHECK-NEXT: ret i64 %rotated
