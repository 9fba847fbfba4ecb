; propagate-branch-constants: where a branch tests x == C, x is C in the blocks only its equal
; edge reaches, and what that makes constant folds: the parity flag of a value the branch
; found zero is 1 (the lifter's `test rax, rax; je` and PF at the target).
; RUN: hoist-opt %s -passes=propagate-branch-constants | FileCheck %s
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

define void @parity_after_je(i64 %x, ptr %pf) {
entry:
  %zf = icmp eq i64 %x, 0
  br i1 %zf, label %zero, label %other
zero:
  %low = trunc i64 %x to i8
  %bits = call i8 @llvm.ctpop.i8(i8 %low)
  %odd = and i8 %bits, 1
  %even = icmp eq i8 %odd, 0
  %flag = zext i1 %even to i8
  store i8 %flag, ptr %pf, align 1
  ret void
other:
  %low2 = trunc i64 %x to i8
  store i8 %low2, ptr %pf, align 1
  ret void
}
; CHECK-LABEL: @parity_after_je(
; CHECK: zero:
; CHECK-NEXT: store i8 1, ptr %pf
; CHECK-NEXT: ret void
; The other edge knows nothing of x:
; CHECK: other:
; CHECK-NEXT: %low2 = trunc i64 %x to i8

; `icmp ne` takes the false edge; a block the equal edge does not dominate (the join) keeps x.
define i64 @ne_and_join(i64 %x) {
entry:
  %nz = icmp ne i64 %x, 7
  br i1 %nz, label %join, label %seven
seven:
  %plus = add i64 %x, 1
  br label %join
join:
  %r = phi i64 [ %x, %entry ], [ %plus, %seven ]
  %s = add i64 %r, %x
  ret i64 %s
}
; CHECK-LABEL: @ne_and_join(
; CHECK: join:
; CHECK-NEXT: %r = phi i64 [ %x, %entry ], [ 8, %seven ]
; CHECK-NEXT: %s = add i64 %r, %x

declare i8 @llvm.ctpop.i8(i8)
