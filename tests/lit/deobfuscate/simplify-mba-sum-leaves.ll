; simplify-mba on what the MBA protection leaves of fact_rec's vectorized trip count
; (tests/brighten/corpus.c, clang-19 -O2): (n - 1) & -8 as a linear MBA with constants over
; s = n - 1, which the MBA encoding writes `2n + ~n` (the ~n is shared, so the sum is no
; shorter alone). Over the DAG's own leaf n the bitwise operators see a sum: no form is found
; there. With the sums under bitwise operators as leaves it is linear with constants, exact
; without a proof; tried only after n alone failed, since over n an MBA often simplifies
; further and the sums would stay (count_calls and count_twice under MBA at -O0).
; RUN: hoist-opt %s -passes=simplify-mba,instcombine | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

; CHECK-LABEL: @trip_count(
; CHECK-NOT: mul
; CHECK: %count = and i32 %s, -8
; CHECK-NEXT: %r = and i32 %count, %n
; CHECK-NEXT: ret i32 %r
define i32 @trip_count(i32 %n) {
  %not = xor i32 %n, -1
  %twice = shl nuw i32 %n, 1
  %s = add i32 %twice, %not
  %low = and i32 %s, 7
  %low5 = mul nuw nsw i32 %low, 5
  %flip = xor i32 %s, 7
  %flip7 = mul i32 %flip, 7
  %s2 = shl i32 %s, 1
  %high2 = and i32 %s2, -1073741810
  %mid = and i32 %s, 536870904
  %midk = mul i32 %mid, 536870906
  %t1 = add i32 %midk, -28
  %t2 = add i32 %t1, %high2
  %t3 = add i32 %t2, %low5
  %t4 = add i32 %t3, %flip7
  %count = add i32 %t4, -21
  ; ~n's other use, as in fact_rec (the remainder's MBA).
  %rest = and i32 %count, %not
  %r = xor i32 %count, %rest
  ret i32 %r
}

; Negative: a product of two bitwise functions of the sum is no linear MBA over it (and not
; equal to a shorter form over n): it stays.
; CHECK-LABEL: @product_of_sum(
; CHECK: and i8
; CHECK: or i8
; CHECK: mul i8
define i8 @product_of_sum(i8 %n) {
  %s = add i8 %n, 1
  %low = and i8 %s, 7
  %high = or i8 %s, 7
  %p = mul i8 %low, %high
  %r = add i8 %p, %s
  ret i8 %r
}
