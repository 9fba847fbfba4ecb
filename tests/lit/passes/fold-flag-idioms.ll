; fold-flag-idioms: the flag formulas of lib/Arch/Flags.cpp after a subtraction become the
; comparison itself, in the lifter's own shape and in the shapes InstCombine leaves.
; RUN: hoist-opt %s -passes=fold-flag-idioms | FileCheck %s
; With InstCombine after it, ZF | (SF != OF) and !ZF & (SF == OF) become sle and sgt.
; RUN: hoist-opt %s -passes=fold-flag-idioms,instcombine | FileCheck %s --check-prefix=COMBINED
; InstCombine alone folds none of the signed conditions.
; RUN: hoist-opt %s -passes=instcombine | FileCheck %s --check-prefix=ALONE

; jl after `cmp a, b`, as the lifter builds it: SF != OF, with OF = sign((a ^ b) & (a ^ r)).
define i1 @less(i64 %a, i64 %b) {
  %r = sub i64 %a, %b
  %sf = icmp slt i64 %r, 0
  %x = xor i64 %a, %b
  %y = xor i64 %a, %r
  %o = and i64 %x, %y
  %of = icmp slt i64 %o, 0
  %lt = xor i1 %sf, %of
  ret i1 %lt
}
; CHECK-LABEL: @less(
; CHECK-NEXT: %lt1 = icmp slt i64 %a, %b
; CHECK-NEXT: ret i1 %lt1
; ALONE-LABEL: @less(
; ALONE: xor i64

; jge on a 32-bit compare: SF == OF.
define i1 @greater_or_equal(i32 %a, i32 %b) {
  %r = sub i32 %a, %b
  %sf = icmp slt i32 %r, 0
  %x = xor i32 %a, %b
  %y = xor i32 %a, %r
  %o = and i32 %x, %y
  %of = icmp slt i32 %o, 0
  %ge = icmp eq i1 %sf, %of
  ret i1 %ge
}
; CHECK-LABEL: @greater_or_equal(
; CHECK-NEXT: %ge1 = icmp sge i32 %a, %b
; CHECK-NEXT: ret i1 %ge1

; The shape InstCombine leaves for jl: ((r ^ a) & (b ^ a) ^ r) <s 0.
define i1 @less_combined(i64 %a, i64 %b) {
  %r = sub i64 %a, %b
  %1 = xor i64 %r, %a
  %2 = xor i64 %b, %a
  %3 = and i64 %1, %2
  %4 = xor i64 %3, %r
  %5 = icmp slt i64 %4, 0
  ret i1 %5
}
; CHECK-LABEL: @less_combined(
; CHECK-NEXT: %lt = icmp slt i64 %a, %b
; CHECK-NEXT: ret i1 %lt

; `cmp edi, 5; jge` after InstCombine: r = a + -5 and ~r written as 4 - a.
define i1 @greater_or_equal_constant(i32 %a) {
  %r = add i32 %a, -5
  %n = sub i32 4, %a
  %m = and i32 %n, %a
  %f = xor i32 %m, %r
  %ge = icmp sgt i32 %f, -1
  ret i1 %ge
}
; CHECK-LABEL: @greater_or_equal_constant(
; CHECK-NEXT: %ge1 = icmp sge i32 %a, 5
; CHECK-NEXT: ret i1 %ge1

; setl after InstCombine: the sign bit shifted down.
define i64 @setl(i64 %a, i64 %b) {
  %r = sub i64 %a, %b
  %1 = xor i64 %r, %a
  %2 = xor i64 %b, %a
  %3 = and i64 %1, %2
  %4 = xor i64 %3, %r
  %bit = lshr i64 %4, 63
  ret i64 %bit
}
; CHECK-LABEL: @setl(
; CHECK-NEXT: %lt = icmp slt i64 %a, %b
; CHECK-NEXT: zext i1 %lt to i64

; jle: ZF | (SF != OF); ZF becomes a == b, and InstCombine merges the two.
define i1 @less_or_equal(i64 %a, i64 %b) {
  %r = sub i64 %a, %b
  %zf = icmp eq i64 %r, 0
  %sf = icmp slt i64 %r, 0
  %x = xor i64 %a, %b
  %y = xor i64 %a, %r
  %o = and i64 %x, %y
  %of = icmp slt i64 %o, 0
  %lt = xor i1 %sf, %of
  %le = or i1 %zf, %lt
  ret i1 %le
}
; CHECK-LABEL: @less_or_equal(
; CHECK-DAG: icmp eq i64 %a, %b
; CHECK-DAG: icmp slt i64 %a, %b
; COMBINED-LABEL: @less_or_equal(
; COMBINED-NEXT: %le = icmp sle i64 %a, %b
; COMBINED-NEXT: ret i1 %le

; jg after `dec`: r = a - 1; !ZF & (SF == OF).
define i1 @greater_after_dec(i16 %a) {
  %r = sub i16 %a, 1
  %zf = icmp eq i16 %r, 0
  %nz = xor i1 %zf, true
  %sf = icmp slt i16 %r, 0
  %x = xor i16 %a, 1
  %y = xor i16 %a, %r
  %o = and i16 %x, %y
  %of = icmp slt i16 %o, 0
  %ge = icmp eq i1 %sf, %of
  %gt = and i1 %nz, %ge
  ret i1 %gt
}
; COMBINED-LABEL: @greater_after_dec(
; COMBINED-NEXT: %gt = icmp sgt i16 %a, 1
; COMBINED-NEXT: ret i1 %gt

; jo: OF alone is the overflow bit of the subtraction.
define i1 @overflow(i64 %a, i64 %b) {
  %r = sub i64 %a, %b
  %x = xor i64 %a, %b
  %y = xor i64 %a, %r
  %o = and i64 %x, %y
  %of = icmp slt i64 %o, 0
  ret i1 %of
}
; CHECK-LABEL: @overflow(
; CHECK-NEXT: call { i64, i1 } @llvm.ssub.with.overflow.i64(i64 %a, i64 %b)
; CHECK-NEXT: %of1 = extractvalue { i64, i1 } %1, 1

; js: SF alone is a sign test of the result, not a comparison of a and b: it stays.
define i1 @sign(i64 %a, i64 %b) {
  %r = sub i64 %a, %b
  %sf = icmp slt i64 %r, 0
  ret i1 %sf
}
; CHECK-LABEL: @sign(
; CHECK-NEXT: %r = sub i64 %a, %b
; CHECK-NEXT: %sf = icmp slt i64 %r, 0

; `add a, INT_MIN` sets OF as an addition, which is not `sub a, INT_MIN`: left alone.
define i1 @add_int_min(i8 %a) {
  %r = add i8 %a, -128
  %sf = icmp slt i8 %r, 0
  %y = xor i8 %a, %r
  %o = and i8 %a, %y
  %of = icmp slt i8 %o, 0
  %lt = xor i1 %sf, %of
  ret i1 %lt
}
; CHECK-LABEL: @add_int_min(
; CHECK: %lt = xor i1 %sf, %of
