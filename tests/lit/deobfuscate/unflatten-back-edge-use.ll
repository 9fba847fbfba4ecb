; unflatten must not thread a predecessor past a value that a phi reads on a back edge from the
; case block without that value on the threaded edge too. Reduced (llvm-reduce) from the signature probe of the flattened clang-19 -O0
; corpus function `narrow_compare` lifted with `--deobfuscate` and the passes: %zero, computed
; in the skipped dispatcher, reached %latch's phi from %case, which the threaded entry edge
; then reached without passing the dispatcher. The invalid IR ("Instruction does not dominate
; all uses") crashed LLVM 19's CorrelatedValuePropagation in the next fixpoint round.
; The verifier runs after the pass (hoist-opt refuses a module it rejects).
; RUN: hoist-opt %s -passes=unflatten,verify | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

; %zero is computed again on the threaded entry edge (its operands are known there), and
; SSAUpdater joins the two definitions where both reach: the IR stays valid (verify) and the
; entry edge goes past %dispatch. (The switch itself folds: every state the select chain can
; give is 0.)
; CHECK-LABEL: define void @back_edge_use()
; CHECK: entry:
; CHECK-NEXT: %chosen = select i1 false, i32 0, i32 0
; CHECK-NEXT: br label %dispatch.thread
define void @back_edge_use() {
entry:
  %chosen = select i1 false, i32 0, i32 0
  br label %dispatch

dispatch:
  %state = phi i32 [ 0, %entry ], [ %chosen, %case ]
  %zero = zext i1 false to i32
  br label %latch

latch:
  %carried = phi i32 [ 0, %dispatch ], [ %zero, %case ], [ %zero, %case ]
  br label %case

case:
  switch i32 %state, label %latch [
    i32 0, label %latch
    i32 1, label %dispatch
  ]
}

; The counter's decrement that LLVM moved into the dispatcher (flattened is_odd_rec at
; clang-19 -O2, 2.13 times the unprotected lift's IR before): read by a phi outside the
; skipped blocks, it is computed again at N from the path's values, and the two definitions
; are joined. Every edge is threaded; no dispatcher is left.
define i32 @moved_decrement(i32 %n) {
entry:
  br label %dispatch
dispatch:
  %state = phi i32 [ 10, %entry ], [ 20, %test ], [ 10, %step ]
  %i = phi i32 [ %n, %entry ], [ %i, %test ], [ %next, %step ]
  %dec = add i32 %i, -2
  switch i32 %state, label %done [ i32 10, label %test
                                   i32 20, label %step ]
test:
  %small = icmp ult i32 %i, 2
  br i1 %small, label %done, label %dispatch
step:
  %next = phi i32 [ %dec, %dispatch ]
  br label %dispatch
done:
  ret i32 %i
}
; CHECK-LABEL: define i32 @moved_decrement(i32 %n)
; CHECK-NOT: switch
; CHECK: add i32 {{%.*}}, -2
; CHECK-NOT: switch
; CHECK: ret i32
