; LLVM 19's x86 selection drops the zero extension: it selects the i32 `or` as a byte load
; into the low part of %a's register (bits 32..63 stay) and the `zext` as nothing (its def32
; pattern). llvm/llvm-project#205291, fixed by #205600 after 19.1.7. The lifted form of
; `mov eax, ecx; mov al, [m]; sbb eax, 0` reduces to this.
target triple = "x86_64-unknown-linux-gnu"

define i64 @byte_into_low_part(i64 %a, ptr %p) {
  %byte = load i8, ptr %p
  %byte64 = zext i8 %byte to i64
  %upper = and i64 %a, -256
  %merged = or i64 %upper, %byte64
  %merged8 = trunc i64 %merged to i8
  %merged32 = trunc i64 %merged to i32
  %borrow = icmp ult i8 %byte, %merged8
  %borrow32 = zext i1 %borrow to i32
  %difference = sub i32 %merged32, %borrow32
  %result = zext i32 %difference to i64
  ret i64 %result
}
