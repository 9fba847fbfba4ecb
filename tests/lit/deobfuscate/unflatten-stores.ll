; unflatten: the dispatcher may write the state back to its stack slot (kept alive when a
; variable index elsewhere in the frame may read it: the flattened clang-19 -O0 corpus
; function `fill_sum`, whose dispatcher stayed, 67 instructions against the unprotected 37).
; A skipped block's plain stores are done on the threaded edge, in order, with the path's
; values; the dispatcher goes. What is left is the loop the obfuscator flattened:
;   for (i = 0; i < n; i++) s += i;  return s;
; RUN: hoist-opt %s -passes=unflatten,simplifycfg,unflatten,instcombine,simplifycfg | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

define i32 @stored_state(i32 %n, ptr %slot, ptr %copy) {
entry:
  br label %dispatch
dispatch:
  %state = phi i32 [ 100, %entry ], [ %next, %latch ]
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %latch ]
  store i32 %state, ptr %slot, align 4
  store i32 %state, ptr %copy, align 4
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
; The states each edge stored, in the order of the dispatcher's stores:
; CHECK-LABEL: @stored_state(
; CHECK-NOT: switch
; CHECK: store i32 100, ptr %slot
; CHECK-NEXT: store i32 100, ptr %copy
; CHECK: %c = icmp slt i32 [[I:%.*]], %n
; CHECK-NOT: switch
; CHECK-DAG: store i32 200, ptr %slot
; CHECK-DAG: store i32 300, ptr %slot
; CHECK: ret i32

; A store of a value the path does not know (computed in the skipped block from an unknown
; one) keeps the dispatcher: nothing would compute it at N.
define i32 @unknown_store(i32 %n, ptr %slot) {
entry:
  br label %dispatch
dispatch:
  %state = phi i32 [ 100, %entry ], [ 200, %head ], [ 300, %body ]
  %i = phi i32 [ %n, %entry ], [ %i, %head ], [ %i1, %body ]
  %mixed = xor i32 %state, %i
  store i32 %mixed, ptr %slot, align 4
  switch i32 %state, label %exit [ i32 100, label %head
                                   i32 200, label %body ]
head:
  br label %dispatch
body:
  %i1 = add i32 %i, 1
  br label %dispatch
exit:
  ret i32 %i
}
; CHECK-LABEL: @unknown_store(
; CHECK: store i32 %mixed, ptr %slot
; CHECK: switch i32 %state
