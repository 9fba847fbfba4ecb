// The IR view of State: an LLVM struct type generated from include/hoist/State.def, with the
// same field indices and offsets as the C struct in include/hoist/State.h.
#pragma once

#include "hoist/State.h"

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/LLVMContext.h>

namespace hoist {

enum class StateKind { I8, I16, I32, I64, V256, V512, F80 };

struct StateFieldInfo {
  const char *name;
  StateKind kind;
  unsigned count;   ///< 1 for a register, N for an array
};

/// Field metadata in table order, indexed by HoistStateField.
const StateFieldInfo &stateField(HoistStateField field);

/// The x86-64 System V data layout: lifted modules use it so that the State struct has the
/// same offsets in IR as in C.
extern const char *const X86_64DataLayout;

/// `%hoist.State = type { i64, ..., [16 x [4 x i64]], [8 x x86_fp80] }`, one per context.
llvm::StructType *getStateType(llvm::LLVMContext &context);

} // namespace hoist
