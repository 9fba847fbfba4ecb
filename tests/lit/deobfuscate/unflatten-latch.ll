; unflatten, the shapes the obfuscator's flattening takes after Hoist's fixpoint at -O0:
; a latch block collecting the state whose default edge passes the dispatcher's own state
; back (no phi with two constants of its own), case code after the last decision, a phi swap
; carried around the dispatcher, and states chosen by a chain of selects sent back on a switch
; edge. Each would keep its dispatcher (or, for the swap, compute wrong values) without the
; corresponding part of the pass.
; RUN: hoist-opt %s -passes=unflatten,simplifycfg,unflatten,instcombine,simplifycfg | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

; for (i = 2; i <= n; i++) r *= i; return r;   The state phi %state has one constant; the
; other reaches it through the latch's phi %next.
define i32 @latch_default(i32 %n) {
entry:
  br label %dispatch
dispatch:
  %r = phi i32 [ %r.next, %latch ], [ undef, %entry ]
  %i = phi i32 [ %i.next, %latch ], [ undef, %entry ]
  %state = phi i32 [ %next, %latch ], [ -720637981, %entry ]
  switch i32 %state, label %latch [ i32 843944789, label %increment
                                    i32 -720637981, label %test ]
test:
  %r.test = phi i32 [ %r, %increment ], [ 1, %dispatch ]
  %i.test = phi i32 [ %i1, %increment ], [ 2, %dispatch ]
  %done = icmp sgt i32 %i.test, %n
  br i1 %done, label %exit, label %multiply
multiply:
  %product = mul i32 %i.test, %r.test
  br label %latch
increment:
  %i1 = add i32 %i, 1
  br label %test
latch:
  %r.next = phi i32 [ %r, %dispatch ], [ %product, %multiply ]
  %i.next = phi i32 [ %i, %dispatch ], [ %i.test, %multiply ]
  %next = phi i32 [ %state, %dispatch ], [ 843944789, %multiply ]
  br label %dispatch
exit:
  ret i32 %r.test
}
; CHECK-LABEL: @latch_default(
; CHECK-NOT: switch
; CHECK: %r.test = phi i32 [ %product, %multiply ], [ 1, %entry ]
; CHECK-NEXT: %i.test = phi i32 [ %i1, %multiply ], [ 2, %entry ]
; CHECK: %product = mul i32 %i.test, %r.test
; CHECK-NEXT: %i1 = add i32 %i.test, 1
; CHECK-NEXT: br label %test
; CHECK-LABEL: define

; a, b = b, a + b: the path from the add case carries a's new value as b's old one, a phi
; the threading rewrites itself.
define i64 @swap(i32 %n) {
entry:
  br label %dispatch
dispatch:
  %b = phi i64 [ %b.next, %latch ], [ undef, %entry ]
  %a = phi i64 [ %a.next, %latch ], [ undef, %entry ]
  %i = phi i32 [ %i.next, %latch ], [ undef, %entry ]
  %state = phi i32 [ %next, %latch ], [ 1, %entry ]
  switch i32 %state, label %latch [ i32 1, label %init
                                    i32 2, label %add
                                    i32 3, label %increment
                                    i32 4, label %test
                                    i32 5, label %exit ]
init:
  br label %latch
test:
  %more = icmp slt i32 %i, %n
  %chosen = select i1 %more, i32 2, i32 5
  br label %latch
add:
  %sum = add i64 %a, %b
  br label %latch
increment:
  %i1 = add i32 %i, 1
  br label %latch
latch:
  %b.next = phi i64 [ %b, %dispatch ], [ %b, %increment ], [ %sum, %add ], [ %b, %test ], [ 1, %init ]
  %a.next = phi i64 [ %a, %dispatch ], [ %a, %increment ], [ %b, %add ], [ %a, %test ], [ 0, %init ]
  %i.next = phi i32 [ %i, %dispatch ], [ %i1, %increment ], [ %i, %add ], [ %i, %test ], [ 0, %init ]
  %next = phi i32 [ %state, %dispatch ], [ 4, %increment ], [ 3, %add ], [ %chosen, %test ], [ 4, %init ]
  br label %dispatch
exit:
  ret i64 %a
}
; CHECK-LABEL: @swap(
; CHECK-NOT: switch
; CHECK: [[I:%[a-z0-9.]+]] = phi i32 [ %i1, %{{.*}} ], [ 0, %entry ]
; CHECK-NEXT: [[A:%[a-z0-9.]+]] = phi i64 [ [[B:%[a-z0-9.]+]], %{{.*}} ], [ 0, %entry ]
; CHECK-NEXT: [[B]] = phi i64 [ %sum, %{{.*}} ], [ 1, %entry ]
; CHECK-NEXT: icmp slt i32 [[I]], %n
; CHECK: %sum = add i64 [[A]], [[B]]
; CHECK-NEXT: %i1 = add i32 [[I]], 1
; CHECK: ret i64 [[A]]
; CHECK-LABEL: define

; switch (x) { case 0: return 10; case 1: return 21; case 2: return 32; default: return -1; }
; flattened: the case that computes the next state is empty once the selects are hoisted, and
; sends the chosen state back to the dispatcher on a switch edge.
define i32 @select_chain(i32 %x) {
entry:
  %is0 = icmp eq i32 %x, 0
  %s0 = select i1 %is0, i32 64529414, i32 -761197255
  %is1 = icmp eq i32 %x, 1
  %s1 = select i1 %is1, i32 -139589168, i32 %s0
  %is2 = icmp eq i32 %x, 2
  %s2 = select i1 %is2, i32 1033791442, i32 %s1
  br label %head
head:
  %state = phi i32 [ 1133076301, %entry ], [ %s2, %dispatch ]
  br label %dispatch
dispatch:
  switch i32 %state, label %dispatch [ i32 -761197255, label %default
                                       i32 -139589168, label %case1
                                       i32 64529414, label %case0
                                       i32 1033791442, label %case2
                                       i32 1133076301, label %head ]
case0:
  br label %exit
case1:
  br label %exit
case2:
  br label %exit
default:
  br label %exit
exit:
  %result = phi i32 [ 32, %case2 ], [ 21, %case1 ], [ 10, %case0 ], [ -1, %default ]
  ret i32 %result
}
; CHECK-LABEL: @select_chain(
; CHECK-NOT: 1133076301
; CHECK-NOT: 64529414
; CHECK: ret i32
