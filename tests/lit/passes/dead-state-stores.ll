; dead-state-stores: across a runtime call whose State effects are known, State stores that
; are overwritten before anything reads them go, and reloads read the stored value.
; RUN: hoist-opt %s -passes=dead-state-stores | FileCheck %s
; LLVM's own DSE and GVN keep every one of them: the call may read and write all of %state.
; RUN: hoist-opt %s -passes=dse,gvn | FileCheck %s --check-prefix=LLVM
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

; mov r8, 1; cpuid; mov r8, 2; ret. R8 (offset 64) is neither read nor written by cpuid, RIP
; (offset 128) is read by it, RAX (offset 0) is written by it.
define void @cpuid(ptr noalias %state, ptr noalias %mem) {
  %r8.ptr = getelementptr inbounds i8, ptr %state, i64 64
  %rip.ptr = getelementptr inbounds i8, ptr %state, i64 128
  store i64 1, ptr %r8.ptr, align 8
  store i64 7, ptr %state, align 8
  store i64 4096, ptr %rip.ptr, align 8
  call void @__hoist_cpuid(ptr %state, ptr %mem, i64 4096)
  %r8 = load i64, ptr %r8.ptr, align 8
  %rax = load i64, ptr %state, align 8
  %sum = add i64 %r8, %rax
  store i64 %sum, ptr %r8.ptr, align 8
  store i64 4098, ptr %rip.ptr, align 8
  call void @__hoist_ret(ptr %state, ptr %mem, i64 4098)
  ret void
}
; CHECK-LABEL: @cpuid(
; CHECK-NOT: store i64 1,
; CHECK: store i64 7, ptr %state
; CHECK-NEXT: store i64 4096, ptr %rip.ptr
; CHECK-NEXT: call void @__hoist_cpuid
; CHECK-NEXT: %rax = load i64, ptr %state
; CHECK-NEXT: %sum = add i64 1, %rax
; CHECK-NEXT: store i64 %sum, ptr %r8.ptr
; LLVM-LABEL: @cpuid(
; LLVM: store i64 1, ptr %r8.ptr
; LLVM: %r8 = load i64, ptr %r8.ptr

; The same store before an ordinary call, which may read any register, stays.
define void @call(ptr noalias %state, ptr noalias %mem) {
  %r8.ptr = getelementptr inbounds i8, ptr %state, i64 64
  store i64 1, ptr %r8.ptr, align 8
  call void @__hoist_call(ptr %state, ptr %mem, i64 8192)
  store i64 2, ptr %r8.ptr, align 8
  ret void
}
; CHECK-LABEL: @call(
; CHECK: store i64 1, ptr %r8.ptr

; A store overwritten on one path only stays: the other path returns with it.
define void @one_path(ptr noalias %state, ptr noalias %mem) {
  %c = load i1, ptr %mem, align 1
  %r8.ptr = getelementptr inbounds i8, ptr %state, i64 64
  store i64 1, ptr %r8.ptr, align 8
  call void @__hoist_rdtsc(ptr %state, ptr %mem, i64 4096)
  br i1 %c, label %overwrite, label %leave
overwrite:
  store i64 2, ptr %r8.ptr, align 8
  ret void
leave:
  ret void
}
; CHECK-LABEL: @one_path(
; CHECK: store i64 1, ptr %r8.ptr

; Overwritten on every path, around a loop: gone.
define void @every_path(ptr noalias %state, ptr noalias %mem) {
  %c = load i1, ptr %mem, align 1
  %r8.ptr = getelementptr inbounds i8, ptr %state, i64 64
  store i64 1, ptr %r8.ptr, align 8
  call void @__hoist_rdtsc(ptr %state, ptr %mem, i64 4096)
  br label %loop
loop:
  br i1 %c, label %loop, label %leave
leave:
  store i64 2, ptr %r8.ptr, align 8
  ret void
}
; CHECK-LABEL: @every_path(
; CHECK-NOT: store i64 1,
; CHECK: store i64 2, ptr %r8.ptr

declare void @__hoist_cpuid(ptr, ptr, i64)
declare void @__hoist_rdtsc(ptr, ptr, i64)
declare void @__hoist_call(ptr, ptr, i64)
declare void @__hoist_ret(ptr, ptr, i64)
