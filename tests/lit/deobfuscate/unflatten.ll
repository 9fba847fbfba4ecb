; unflatten: a dispatcher that switches on a state phi, whose predecessors set the state to
; constants (or choose it by a condition), is bypassed: each predecessor jumps to its case.
; What is left after SimplifyCFG is the loop the obfuscator flattened:
;   for (i = 0; i < n; i++) s += i;  return s;
; Two rounds, as in the optimization fixpoint: the first threads the cases, the second the
; initial edge once SimplifyCFG has merged the latch.
; RUN: hoist-opt %s -passes=unflatten,simplifycfg,unflatten,instcombine,simplifycfg | FileCheck %s
; RUN: hoist-opt %s -passes=jump-threading,simplifycfg | FileCheck %s --check-prefix=LLVM
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

; OLLVM's layout after SROA: cases go through a latch block that collects the state.
define i32 @switch_dispatcher(i32 %n) {
entry:
  br label %dispatch
dispatch:
  %state = phi i32 [ 100, %entry ], [ %next, %latch ]
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %latch ]
  switch i32 %state, label %default [ i32 100, label %head
                                      i32 200, label %body
                                      i32 300, label %exit ]
head:
  %c = icmp slt i32 %i, %n
  %chosen = select i1 %c, i32 200, i32 300
  br label %latch
body:
  %s1 = add i32 %s, %i
  %i1 = add i32 %i, 1
  br label %latch
default:
  br label %latch
latch:
  %next = phi i32 [ %chosen, %head ], [ 100, %body ], [ %state, %default ]
  %i.next = phi i32 [ %i, %head ], [ %i1, %body ], [ %i, %default ]
  %s.next = phi i32 [ %s, %head ], [ %s1, %body ], [ %s, %default ]
  br label %dispatch
exit:
  ret i32 %s
}
; CHECK-LABEL: @switch_dispatcher(
; CHECK-NOT: switch
; CHECK: %c = icmp slt i32 [[I:%.*]], %n
; CHECK-NEXT: br i1 %c, label %body, label %exit
; CHECK: body:
; CHECK-NEXT: %s1 = add i32 {{%.*}}, [[I]]
; CHECK-NEXT: %i1 = add i32 [[I]], 1
; CHECK-NEXT: br label
; CHECK: exit:
; CHECK-NEXT: ret i32
; LLVM's jump threading keeps the dispatcher (it does not thread across loop headers):
; LLVM-LABEL: @switch_dispatcher(
; LLVM: switch i32

; The dispatcher as machine code has it: random state numbers compared in a tree, with the
; state computed from the condition as arithmetic (select c, 7, 3 became 3 + 4*zext c).
define i32 @compare_tree(i32 %n) {
entry:
  br label %dispatch
dispatch:
  %state = phi i32 [ 12, %entry ], [ %chosen, %head ], [ 12, %body ]
  %i = phi i32 [ 0, %entry ], [ %i, %head ], [ %i1, %body ]
  %s = phi i32 [ 0, %entry ], [ %s, %head ], [ %s1, %body ]
  %low = icmp ult i32 %state, 10
  br i1 %low, label %low.cases, label %high.cases
low.cases:
  %is7 = icmp eq i32 %state, 7
  br i1 %is7, label %body, label %exit
high.cases:
  %is12 = icmp eq i32 %state, 12
  br i1 %is12, label %head, label %unknown
unknown:
  unreachable
head:
  %c = icmp slt i32 %i, %n
  %z = zext i1 %c to i32
  %m = mul i32 %z, 4
  %chosen = add i32 %m, 3
  br label %dispatch
body:
  %s1 = add i32 %s, %i
  %i1 = add i32 %i, 1
  br label %dispatch
exit:
  ret i32 %s
}
; CHECK-LABEL: @compare_tree(
; CHECK-NOT: icmp ult i32 %state
; CHECK: %c = icmp slt i32 [[I:%.*]], %n
; CHECK-NEXT: br i1 %c, label %body, label %exit
; CHECK: body:
; CHECK: %i1 = add i32 [[I]], 1
; CHECK: exit:
; CHECK-NEXT: ret i32

; A loop whose counter starts at a constant is not a dispatcher: one constant state only, and
; threading its entry edge past the first test would make the loop irreducible.
define i32 @counted_loop(i32 %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %s = phi i32 [ %x, %entry ], [ %s1, %loop ]
  %s1 = add i32 %s, %i
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, 10
  br i1 %c, label %loop, label %exit
exit:
  ret i32 %s1
}
; CHECK-LABEL: @counted_loop(
; CHECK: loop:
; CHECK-NEXT: %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
