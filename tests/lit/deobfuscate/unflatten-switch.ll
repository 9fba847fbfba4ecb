; unflatten: flattening lowers a `switch (x)` into a chain of selects on `x == C` choosing the
; next state; the edge carrying it becomes a switch on x with one constant state per case
; (not a chain of two-way branches, which SimplifyCFG speculates back into selects), so what
; is left is the switch of the original code:
;   switch (x) { case 0: return 10; case 3: return 43; case 5: return 65; default: return -1; }
; (with a test of x == 1 that an outer test of x == 1 hides).
; Reduced from the flattened clang-19 -O0 corpus function `classify` (24 instructions after
; brightening, the unprotected lift 8).
; RUN: hoist-opt %s -passes=unflatten | FileCheck %s --check-prefix=SPLIT
; RUN: hoist-opt %s -passes=unflatten,simplifycfg,instcombine | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

define i32 @switch_states(i32 %x) {
entry:
  %is0 = icmp eq i32 %x, 0
  %s0 = select i1 %is0, i32 1001, i32 1999
  %is1 = icmp eq i32 %x, 1
  %s1 = select i1 %is1, i32 1002, i32 %s0
  ; Written the other way round, and a constant repeated: the outer select decides.
  %not3 = icmp ne i32 %x, 3
  %s3 = select i1 %not3, i32 %s1, i32 1003
  %is5 = icmp eq i32 %x, 5
  %s5 = select i1 %is5, i32 1005, i32 %s3
  %is1.again = icmp eq i32 %x, 1
  %first = select i1 %is1.again, i32 1999, i32 %s5
  br label %dispatch
dispatch:
  %result = phi i32 [ undef, %entry ], [ %result.next, %latch ]
  %state = phi i32 [ 1000, %entry ], [ %state.next, %latch ]
  switch i32 %state, label %latch [ i32 1000, label %start
                                    i32 1001, label %case0
                                    i32 1002, label %case1
                                    i32 1003, label %case3
                                    i32 1005, label %case5
                                    i32 1999, label %other
                                    i32 2000, label %exit ]
start:
  br label %latch
case0:
  br label %latch
case1:
  br label %latch
case3:
  br label %latch
case5:
  br label %latch
other:
  br label %latch
latch:
  %result.next = phi i32 [ %result, %dispatch ], [ %result, %start ], [ 10, %case0 ],
                         [ 21, %case1 ], [ 43, %case3 ], [ 65, %case5 ], [ -1, %other ]
  %state.next = phi i32 [ %state, %dispatch ], [ %first, %start ], [ 2000, %case0 ],
                        [ 2000, %case1 ], [ 2000, %case3 ], [ 2000, %case5 ], [ 2000, %other ]
  br label %dispatch
exit:
  ret i32 %result
}
; The chain's edge is one switch, each case an edge of its own:
; SPLIT-LABEL: define i32 @switch_states(i32 %x)
; SPLIT: start:
; SPLIT-NEXT: switch i32 %x, label %start.case [
; SPLIT-NEXT: i32 1, label
; SPLIT-NEXT: i32 5, label
; SPLIT-NEXT: i32 3, label
; SPLIT-NEXT: i32 0, label
; SPLIT-NEXT: ]
; Then the original switch, cases returning their constants (x == 1 the default's -1, as the
; outer select chose); no select left:
; CHECK-LABEL: define i32 @switch_states(i32 %x)
; CHECK-NOT: select
; CHECK: switch i32 %x, label %exit [
; CHECK-NEXT: i32 0, label %[[ZERO:.*]]
; CHECK-NEXT: i32 5, label %[[FIVE:.*]]
; CHECK-NEXT: i32 3, label %[[THREE:.*]]
; CHECK-NEXT: ]
; CHECK-NOT: select
; CHECK: phi i32 [ 65, %[[FIVE]] ], [ 43, %[[THREE]] ], [ 10, %[[ZERO]] ], [ -1, %entry ]
