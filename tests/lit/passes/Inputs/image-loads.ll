; Input of fold-image-loads.test: loads as the lifter writes them, `getelementptr i8, ptr %mem, i64 address`.

define void @elf(ptr noalias %state, ptr noalias %mem) {
  %ro.ptr = getelementptr i8, ptr %mem, i64 4198400
  %ro = load i64, ptr %ro.ptr, align 1
  store i64 %ro, ptr %state
  %rw.ptr = getelementptr i8, ptr %mem, i64 4206592
  %rw = load i64, ptr %rw.ptr, align 1
  store i64 %rw, ptr %state
  ret void
}

define void @raw(ptr noalias %state, ptr noalias %mem) {
  %word.ptr = getelementptr i8, ptr %mem, i64 4096
  %word = load i32, ptr %word.ptr, align 1
  store i32 %word, ptr %state
  ; a constant offset on top of the address folds too: 0x1001
  %base = getelementptr i8, ptr %mem, i64 4096
  %half.ptr = getelementptr i8, ptr %base, i64 1
  %half = load i16, ptr %half.ptr, align 1
  store i16 %half, ptr %state
  %one.ptr = getelementptr i8, ptr %mem, i64 4100
  %one = load float, ptr %one.ptr, align 1
  store float %one, ptr %state
  ; 0x1004..0x100b: the blob ends at 0x1008
  %past_end = load i64, ptr %one.ptr, align 1
  store i64 %past_end, ptr %state
  %outside.ptr = getelementptr i8, ptr %mem, i64 8192
  %outside = load i32, ptr %outside.ptr, align 1
  store i32 %outside, ptr %state
  %volatile = load volatile i32, ptr %word.ptr, align 1
  store i32 %volatile, ptr %state
  %state.ptr = getelementptr i8, ptr %state, i64 4096
  %from_state = load i32, ptr %state.ptr, align 1
  store i32 %from_state, ptr %state
  ret void
}

; The PE of Inputs/import-slot.s: .rdata at 0x140002000 starts with the constant, and the
; import slot of ExitProcess is at 0x140002040.
define void @pe(ptr noalias %state, ptr noalias %mem) {
  %constant.ptr = getelementptr i8, ptr %mem, i64 5368717312
  %constant = load i64, ptr %constant.ptr, align 1
  store i64 %constant, ptr %state
  %slot.ptr = getelementptr i8, ptr %mem, i64 5368717376
  %slot = load i64, ptr %slot.ptr, align 1
  store i64 %slot, ptr %state
  %slot_high.ptr = getelementptr i8, ptr %mem, i64 5368717380
  %slot_high = load i32, ptr %slot_high.ptr, align 1
  store i32 %slot_high, ptr %state
  ret void
}
