; unflatten must not thread a predecessor past a value that a phi reads on a back edge from the
; case block. Reduced (llvm-reduce) from the signature probe of the flattened clang-19 -O0
; corpus function `narrow_compare` lifted with `--deobfuscate` and the passes: %zero, computed
; in the skipped dispatcher, reached %latch's phi from %case, which the threaded entry edge
; then reached without passing the dispatcher. The invalid IR ("Instruction does not dominate
; all uses") crashed LLVM 19's CorrelatedValuePropagation in the next fixpoint round.
; The verifier runs after the pass (hoist-opt refuses a module it rejects).
; RUN: hoist-opt %s -passes=unflatten,verify | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

; The entry edge is not threaded: the path would skip %dispatch, which defines %zero.
; CHECK-LABEL: define void @back_edge_use()
; CHECK: entry:
; CHECK-NEXT: %chosen = select i1 false, i32 0, i32 0
; CHECK-NEXT: br label %dispatch
; CHECK: dispatch:
; CHECK-NEXT: %state = phi i32 [ 0, %entry ], [ %chosen, %case ]
; CHECK-NEXT: %zero = zext i1 false to i32
; CHECK: latch:
; CHECK-NEXT: phi i32 [ 0, %dispatch ], [ %zero, %case ], [ %zero, %case ]
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
