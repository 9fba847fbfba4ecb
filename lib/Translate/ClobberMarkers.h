// What a library call does to the caller-saved registers, told to LLVM. The System V convention
// leaves rax, rcx, rdx, rsi, rdi, r8-r11, the status flags, the vector and the x87 registers
// undefined after a call. After each native library call an import body stores a marker, an
// opaque value, into each of those State fields. To LLVM the call is then followed by a write
// of every caller-saved field: a writeback of such a register before the call is a dead store
// (DSE removes it), and a read after the call gets the marker (GVN forwards it), in every
// function and after any inlining, because it is LLVM's own reasoning about plain stores. Once
// the optimizer is done the marker stores are removed (a field that was not rewritten keeps an
// older value, which is as good as any for an undefined register) and the markers that remain
// as values become arbitrary values.
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

namespace hoist {

/// Stores a marker into every caller-saved field of `state`, at the builder's position.
void storeClobberMarkers(llvm::IRBuilder<> &ir, llvm::Value *state);

/// Stores a marker of `type` at `pointer`, which the caller says nothing reads as a value
/// after this point (`id` tells it from other markers of the same type, as a register number
/// does for State's).
void storeClobberMarker(llvm::IRBuilder<> &ir, llvm::Value *pointer, llvm::Type *type,
                        unsigned id);

/// Whether `value` is a marker (the call that makes one).
bool isClobberMarker(const llvm::Value *value);

/// Erases the marker stores of `module` and turns the markers still used into arbitrary
/// values (a frozen poison for an integer, undef otherwise, as are the x87 and vector values
/// read out of one); then a State store of an undefined value (a phi of undefined values
/// included) goes too. Returns the number of marker stores erased.
uint64_t removeClobberMarkers(llvm::Module &module);

} // namespace hoist
