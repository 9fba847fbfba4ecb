; simplify-mba on what the MBA protection leaves of sum_array's vectorized trip count
; (tests/brighten/corpus.c, clang-19 -O2): an MBA over n's 64-bit zero extension z and zero
; extensions of pieces of n (`zext (n & 0x7ffffffc)`, `zext (3 * (n & 3))`, ...), which a DAG
; of the MBA kind takes for unrelated leaves (it does not look into a zext). zext distributes
; over and, or, xor and non-wrapping arithmetic, so each piece is the same piece of z: over
; the one leaf z the MBA is linear with constants, exact without a proof.
; (64 instructions after brightening; the unprotected lift 50.)
; RUN: hoist-opt %s -passes=simplify-mba,instcombine | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

; CHECK-LABEL: @trip_count(
; CHECK-NEXT: [[COUNT:%.*]] = and i32 %n, 2147483644
; CHECK-NEXT: [[WIDE:%.*]] = zext nneg i32 [[COUNT]] to i64
; CHECK-NEXT: ret i64 [[WIDE]]
define i64 @trip_count(i32 %n) {
  %z = zext i32 %n to i64
  %8 = and i32 %n, 2147483644
  %9 = zext nneg i32 %8 to i64
  %10 = and i32 %n, 3
  %11 = mul nuw nsw i32 %10, 3
  %12 = zext nneg i32 %11 to i64
  %13 = xor i32 %8, 2147483644
  %14 = zext nneg i32 %13 to i64
  %15 = and i64 %z, 3
  %16 = mul nsw i64 %15, -3
  %17 = and i64 %z, 2147483644
  %18 = mul nuw nsw i64 %17, 2147483644
  %19 = mul nsw i64 %9, -2147483639
  %20 = shl nuw nsw i64 %14, 2
  %21 = or disjoint i64 %12, -8589934576
  %22 = add nsw i64 %21, %16
  %23 = add nsw i64 %22, %18
  %24 = add nsw i64 %23, %19
  %25 = add nsw i64 %24, %20
  ret i64 %25
}

; The same with the multiplication allowed to wrap in 32 bits: zext does not distribute over
; it, so that piece stays a leaf of its own (the others are still rewritten over z).
; CHECK-LABEL: @wrapping_piece(
; CHECK: [[PIECE:%.*]] = mul {{.*}}i32
; CHECK-NEXT: zext {{.*}}i32 [[PIECE]] to i64
define i64 @wrapping_piece(i32 %n) {
  %z = zext i32 %n to i64
  %8 = and i32 %n, 2147483644
  %9 = zext nneg i32 %8 to i64
  %10 = and i32 %n, 3
  %11 = mul i32 %10, 3
  %12 = zext i32 %11 to i64
  %13 = xor i32 %8, 2147483644
  %14 = zext nneg i32 %13 to i64
  %15 = and i64 %z, 3
  %16 = mul nsw i64 %15, -3
  %17 = and i64 %z, 2147483644
  %18 = mul nuw nsw i64 %17, 2147483644
  %19 = mul nsw i64 %9, -2147483639
  %20 = shl nuw nsw i64 %14, 2
  %21 = or disjoint i64 %12, -8589934576
  %22 = add nsw i64 %21, %16
  %23 = add nsw i64 %22, %18
  %24 = add nsw i64 %23, %19
  %25 = add nsw i64 %24, %20
  ret i64 %25
}
