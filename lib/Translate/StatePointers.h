// Where a lifted function's memory accesses fall in its State argument. State is a noalias
// argument that nothing captures (ImportCalls.h), so a pointer not derived from it cannot reach
// it: the analyses over State fields (RedundantStateStores, ClobberedStateStores) need only
// follow the pointers derived from the argument.
#pragma once

#include "hoist/State.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstrTypes.h>

namespace hoist {

struct StateLocation {
  enum Kind { None, Field, Unknown } kind = None;   ///< Unknown: State at a variable offset
  int64_t offset = 0;                               ///< of a Field, in bytes
};

/// Where `pointer` points: a byte offset in `state`, somewhere in it, or outside it.
StateLocation locateInState(llvm::Value *pointer, const llvm::Value *state,
                            const llvm::DataLayout &layout);

/// The pointer an atomicrmw or cmpxchg updates; null for any other instruction.
llvm::Value *atomicPointerOperand(llvm::Instruction &instruction);

/// Whether `call` receives a pointer into `state` (and may then read or write all of it).
bool callReachesState(llvm::CallBase &call, const llvm::Value *state,
                      const llvm::DataLayout &layout);

/// The State fields a native call leaves undefined (System V: the caller-saved registers and
/// the status flags; DF is clear across calls, MXCSR and the x87 control word are preserved).
llvm::ArrayRef<HoistStateField> callerSavedFields();

/// A lifted function or an import body: `void (State *noalias nocapture, memory)`.
bool isLiftedFunction(const llvm::Function &function);

} // namespace hoist
