// GCC 12 warns of an uninitialized SmallDenseMap deep inside LLVM's analysis manager when it
// inlines AAManager's module-analysis lookup (GlobalsAA) here: a false positive in LLVM's headers.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "Passes/CachedCaptureAA.h"

#include <llvm/Analysis/CaptureTracking.h>
#include <llvm/Analysis/GlobalsModRef.h>
#include <llvm/Analysis/ScopedNoAliasAA.h>
#include <llvm/Analysis/TypeBasedAliasAnalysis.h>

namespace hoist {

llvm::AnalysisKey CachedCaptureAA::Key;

bool EscapedObjects::isNotCapturedBefore(const llvm::Value *object, const llvm::Instruction *,
                                         bool) {
  // Only "escaped" is remembered: within one pass's run the function may change between
  // queries, and the passes of the round only remove uses of State and memory or replace them
  // with equal ones, never add an escape, so a remembered escape is at worst conservative.
  if (escaped_.contains(object))
    return false;
  if (llvm::isNonEscapingLocalObject(object))
    return true;
  escaped_.insert(object);
  return false;
}

bool CachedCaptureAAResult::invalidate(llvm::Function &, const llvm::PreservedAnalyses &preserved,
                                       llvm::FunctionAnalysisManager::Invalidator &) {
  // Kept only when nothing changed (no pass names this analysis): then BasicAA's inputs, the
  // dominator tree, assumptions and library info, are kept too, and so is `basic_`.
  auto checker = preserved.getChecker<CachedCaptureAA>();
  return !(checker.preserved() || checker.preservedSet<llvm::AllAnalysesOn<llvm::Function>>());
}

llvm::ModRefInfo CachedCaptureAAResult::getModRefInfo(const llvm::CallBase *call,
                                                      const llvm::MemoryLocation &location,
                                                      llvm::AAQueryInfo &query) {
  // The only question of BasicAA's that reads the capture information here; alias queries keep
  // the caller's (a pass may have given a flow-sensitive one).
  llvm::CaptureInfo *callers = query.CI;
  query.CI = &escaped_;
  llvm::ModRefInfo result = basic_.getModRefInfo(call, location, query);
  query.CI = callers;
  return result;
}

llvm::AAManager cachedCaptureAAPipeline() {
  llvm::AAManager aliasAnalyses;
  aliasAnalyses.registerFunctionAnalysis<CachedCaptureAA>();
  aliasAnalyses.registerFunctionAnalysis<llvm::ScopedNoAliasAA>();
  aliasAnalyses.registerFunctionAnalysis<llvm::TypeBasedAA>();
  aliasAnalyses.registerModuleAnalysis<llvm::GlobalsAA>();
  return aliasAnalyses;
}

void registerCachedCaptureAA(llvm::FunctionAnalysisManager &functions) {
  functions.registerPass([] { return CachedCaptureAA(); });
  functions.registerPass([] { return cachedCaptureAAPipeline(); });
}

} // namespace hoist
