// What concolic lifting knows of a 64-bit value: a constant, the function's entry stack
// pointer plus a constant (the stack is concrete relative to it), the address an import's slot
// holds (a register loaded from the slot, kept to call the import later), the value a
// callee-saved register had at entry (it dominates the whole function), or nothing.
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Value.h>

#include <cstdint>
#include <functional>

namespace hoist {

struct AbstractValue {
  enum class Kind : uint8_t { Symbolic, Constant, StackRelative, ImportSlot, EntryRegister };
  Kind kind = Kind::Symbolic;
  /// Constant: the value (zero-extended); StackRelative: the offset from the entry RSP;
  /// ImportSlot: the slot's address (the loader fills it; the program does not write it);
  /// EntryRegister: the register (Var numbering).
  uint64_t value = 0;
  /// Symbolic only: the expression adds the stack pointer somewhere (a stack array indexed by
  /// a symbolic value), and the sum of its constant addends (a global array's base).
  bool touchesStack = false;
  uint64_t constantPart = 0;

  static AbstractValue constant(uint64_t v) { return {Kind::Constant, v}; }
  static AbstractValue stack(int64_t offset) {
    return {Kind::StackRelative, static_cast<uint64_t>(offset)};
  }
  static AbstractValue importSlot(uint64_t slot) { return {Kind::ImportSlot, slot}; }
  bool isImportSlot() const { return kind == Kind::ImportSlot; }
  static AbstractValue entryRegister(unsigned reg) { return {Kind::EntryRegister, reg}; }
  bool isEntryRegister() const { return kind == Kind::EntryRegister; }
  bool isSymbolic() const { return kind == Kind::Symbolic; }
  bool isConstant() const { return kind == Kind::Constant; }
  bool isStack() const { return kind == Kind::StackRelative; }
  int64_t offset() const { return static_cast<int64_t>(value); }
  bool operator==(const AbstractValue &other) const {
    return kind == other.kind && (kind == Kind::Symbolic || value == other.value);
  }
};

/// Classifies `value` (an integer of at most 64 bits) given `entryStack`, the RSP the function
/// was entered with: folds additions, subtractions and alignment masks of constants and the
/// stack pointer. The stack is taken as the ABI leaves it at a call (RSP + 8 is 16-aligned).
AbstractValue classify(llvm::Value *value, llvm::Value *entryStack);

/// The IR for a known value: a constant of `type`, or `entryStack + offset` (i64).
llvm::Value *materialize(llvm::IRBuilderBase &ir, const AbstractValue &value, llvm::Type *type,
                         llvm::Value *entryStack);

} // namespace hoist
