// Which bytes of State a call to a lifted function may read or write. The lifter keeps
// registers in SSA values inside a function but hands State to its callees in memory, so
// before each call it writes back every register it holds, and after it reads them again. To
// LLVM a call that receives State may read and write all of it; a loop that calls a small
// lifted function (wc's per-character call of rpl_mbrtowc) then stores and reloads the vector
// and x87 registers on every iteration, though the callee never touches them. With each
// function's effects summarized, an alias analysis answers "this call does not touch these
// bytes", and GVN, DSE and LICM forward, drop and promote that State traffic as they would for
// any memory.
#pragma once

#include <llvm/ADT/BitVector.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>

namespace llvm {
class PassBuilder;
}

namespace hoist {

/// The bytes of its State argument a lifted function, or anything it calls, may read and may
/// write (an access at an unknown offset, a State-receiving call to something other than a
/// lifted function, a captured State: all bytes).
struct StateEffects {
  llvm::BitVector reads, writes;
  std::string function;   ///< its name: a function the optimizer made in a freed one's place
                          ///< is not the one summarized
};
using StateEffectsMap = llvm::DenseMap<const llvm::Function *, StateEffects>;

/// Summarizes every lifted function of `module` (a fixed point over the call graph).
/// Optimization keeps each summary an over-approximation: it only removes or moves accesses
/// the program makes, and inlining a callee adds accesses already counted in the caller.
StateEffectsMap summarizeStateEffects(llvm::Module &module);

/// The summary of `call` when it is a direct call of a summarized function that receives
/// `state` itself as State (and no other pointer into it); nullptr otherwise.
const StateEffects *effectsOfCall(const StateEffectsMap *effects, const llvm::CallBase &call,
                                  const llvm::Value *state, const llvm::DataLayout &layout);

/// The alias analysis over those summaries: a direct call to a summarized function does not
/// read (write) a State location none of whose bytes the callee reads (writes).
class LiftedCallAAResult : public llvm::AAResultBase {
public:
  explicit LiftedCallAAResult(const StateEffectsMap &effects) : effects_(&effects) {}

  llvm::ModRefInfo getModRefInfo(const llvm::CallBase *call, const llvm::MemoryLocation &location,
                                 llvm::AAQueryInfo &query);
  using llvm::AAResultBase::getModRefInfo;

  bool invalidate(llvm::Function &, const llvm::PreservedAnalyses &,
                  llvm::FunctionAnalysisManager::Invalidator &) {
    return false;   // the summaries hold for the whole optimization
  }

private:
  const StateEffectsMap *effects_;
};

class LiftedCallAA : public llvm::AnalysisInfoMixin<LiftedCallAA> {
public:
  using Result = LiftedCallAAResult;
  explicit LiftedCallAA(const StateEffectsMap &effects) : effects_(&effects) {}
  Result run(llvm::Function &, llvm::FunctionAnalysisManager &) { return Result(*effects_); }

private:
  friend llvm::AnalysisInfoMixin<LiftedCallAA>;
  static llvm::AnalysisKey Key;
  const StateEffectsMap *effects_;
};

/// Registers LiftedCallAA over `effects` in `functions`, and an alias analysis pipeline (the
/// cleanup's, lib/Passes/CachedCaptureAA.h, plus it) that the optimizer's passes then use. Call before the pass builder
/// registers its own function analyses; `effects` must outlive `functions`.
void registerLiftedCallAA(llvm::PassBuilder &builder, llvm::FunctionAnalysisManager &functions,
                          const StateEffectsMap &effects);

} // namespace hoist
