// A workaround for LLVM 19's x86 instruction selection, run on a module right before its code
// generation (EmitObject.cpp).
#pragma once

#include <llvm/IR/Module.h>

namespace hoist {

/// Puts a `freeze` between every `zext i32 %x to i64` and its operand, unless %x is a constant
/// or a load, and after every `zext` of an i8 or i16 load that an or, add or xor combines with
/// another value. Returns how many it inserted.
///
/// Why: LLVM 19's x86 selection turns an i32 `(x & -256) | zext(load i8)` (and the i16 form
/// with -65536) into a byte (word) load into the low part of x's register, which keeps bits
/// 32..63 of that register, while its pattern for `zext i32 to i64` (the `def32` leaf)
/// assumes every i32 node other than a copy, truncate or freeze zeroes them, and emits no
/// zero extension (llvm/llvm-project#205291, fixed by #205600 after 19.1.7). Lifted code has
/// this shape wherever a byte or word load into a register is followed by a 32-bit write of
/// it (`mov al, [m]; sbb eax, 0`): the object kept RAX's upper half. A frozen operand is
/// selected as a copy, which def32 excludes, so the zero extension is a real `mov r32, r32`.
/// A load's own selection zeroes the upper half, and a constant is no such node.
///
/// The i64 form reaches the same pattern where no zext is in the IR: `(rax & 0xffff0000) |
/// zext(load i16)` divided by a constant is narrowed to an i32 division, whose operand the
/// selection widens back to i64 as def32 allows (`cmove ax, bx; div dword [m]` kept RAX's
/// upper half in the 64-bit multiply that replaced the division:
/// SequenceRegression.DivisionOnOneSideOfAJumpOnZero). A frozen zext of the load is no
/// `zextload` operand, so the partial-register load is never selected and every i32 node
/// def32 trusts does zero the upper half.
unsigned freezeZeroExtensions(llvm::Module &module);

} // namespace hoist
