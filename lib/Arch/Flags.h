// Status-flag computation, shared by every semantic that sets flags (SDM vol. 1, 3.4.3.1).
//
// Arithmetic records a FlagThunk (the operands and result of the last flag-setting operation)
// instead of computing flags; a flag becomes IR only when something reads it.
#pragma once

#include "Arch/Registers.h"

#include <llvm/IR/IRBuilder.h>

namespace hoist {

enum class FlagOp : uint8_t {
  Add,    ///< result = lhs + rhs + carryIn
  Sub,    ///< result = lhs - rhs - carryIn (cmp, sub, sbb, neg as 0 - x)
  Logic,  ///< and, or, xor, test: CF = OF = 0, AF undefined (computed as 0)
  Inc,    ///< result = lhs + 1, CF untouched
  Dec,    ///< result = lhs - 1, CF untouched
};

struct FlagThunk {
  FlagOp op;
  llvm::Value *lhs;
  llvm::Value *rhs;
  llvm::Value *result;
  llvm::Value *carryIn;   ///< i1 or null
};

/// The flags a thunk of this kind defines, as a bit set over Var (1 << (var - CF)).
unsigned flagsDefinedBy(FlagOp op);

/// Builds the value of one flag from a thunk, at the builder's insertion point.
llvm::Value *computeFlag(llvm::IRBuilderBase &ir, const FlagThunk &thunk, Var flag);

// Building blocks, also for semantics that compute flags eagerly (shifts, multiplies, ...).
llvm::Value *zeroFlag(llvm::IRBuilderBase &ir, llvm::Value *result);
llvm::Value *signFlag(llvm::IRBuilderBase &ir, llvm::Value *result);
/// PF: set when the low byte of the result has an even number of one bits.
llvm::Value *parityFlag(llvm::IRBuilderBase &ir, llvm::Value *result);
/// AF: the carry or borrow out of bit 3, (lhs ^ rhs ^ result) bit 4, for add and sub alike.
llvm::Value *adjustFlag(llvm::IRBuilderBase &ir, llvm::Value *lhs, llvm::Value *rhs,
                        llvm::Value *result);
llvm::Value *carryOfAdd(llvm::IRBuilderBase &ir, llvm::Value *lhs, llvm::Value *result,
                        llvm::Value *carryIn);
llvm::Value *carryOfSub(llvm::IRBuilderBase &ir, llvm::Value *lhs, llvm::Value *rhs,
                        llvm::Value *carryIn);
llvm::Value *overflowOfAdd(llvm::IRBuilderBase &ir, llvm::Value *lhs, llvm::Value *rhs,
                           llvm::Value *result);
llvm::Value *overflowOfSub(llvm::IRBuilderBase &ir, llvm::Value *lhs, llvm::Value *rhs,
                           llvm::Value *result);

} // namespace hoist
