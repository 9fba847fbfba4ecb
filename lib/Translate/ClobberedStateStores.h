// Removes State stores that no one can read because a library call clobbers the register
// first. The System V convention leaves rax, rcx, rdx, rsi, rdi, r8-r11, the status flags, all
// vector registers and the x87 registers undefined after a call; a program cannot read them
// after a library call without writing them first. The lifter still writes every register it
// holds back to State before each call, and, once the call is a native call with the argument
// registers (ImportCalls.h), those writebacks only feed a later reader that the convention says
// cannot exist. In a loop that calls a library per character that is most of the loop's work.
// The import bodies say so in the IR: a marker store into each caller-saved field after the
// call (ClobberMarkers.h). LLVM's DSE removes most writebacks before the call from that; these
// passes do it without DSE's walk limits and with the callees' summaries, by the same plain
// reading of stores and loads, so no pass and no inlining can disagree with them.
#pragma once

#include "Translate/LiftedCallEffects.h"

#include <llvm/IR/PassManager.h>

namespace hoist {

/// Backward liveness of State bytes over each lifted function: a load reads its bytes, a call
/// of a lifted function the bytes its summary says it may read (when `effects` is given), any
/// other call that receives State and a return all of State, a store of a whole range kills it
/// (a marker store after a library call among them). A store none of whose bytes is live is
/// erased.
class ClobberedStateStoresPass : public llvm::PassInfoMixin<ClobberedStateStoresPass> {
public:
  explicit ClobberedStateStoresPass(const StateEffectsMap *effects = nullptr)
      : effects_(effects) {}
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);

private:
  const StateEffectsMap *effects_;
};

/// Forward, on every path: a load of State bytes that a library call left undefined (a marker
/// store) and nothing wrote since (the lifter reading the registers back after the call) gives an arbitrary value
/// (a frozen poison), so that
/// the caller's old values of those registers are not kept alive across the call. Runs once
/// the import bodies are inlined, before the optimizer forwards the old values to those loads.
class ClobberedStateLoadsPass : public llvm::PassInfoMixin<ClobberedStateLoadsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

/// Inlines the import bodies and runs ClobberedStateLoadsPass over `module`, before it is
/// optimized.
void forgetClobberedRegisters(llvm::Module &module);

} // namespace hoist
