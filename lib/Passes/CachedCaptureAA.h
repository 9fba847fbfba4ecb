// LLVM's basic alias analysis with its answer to "has this object escaped?" kept for as long as
// the function is unchanged.
//
// A lifted function receives State and guest memory as `noalias` arguments and passes both to
// every lifted or runtime call, so both have escaped in any function that calls anything. LLVM's
// BasicAA asks that question again for each query of a call against a State or memory location
// (walking up to 100 uses of the argument each time), and MemorySSA's walker, which EarlyCSE
// asks once per load, starts each query with an empty cache: on a sample of bash's functions
// that walk was a seventh of the whole cleanup (docs/PERFORMANCE.md, "The
// cleanup"). This analysis answers exactly what BasicAA answers, remembering the objects it found
// escaped until a pass changes the function.
#pragma once

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/BasicAliasAnalysis.h>
#include <llvm/IR/PassManager.h>

namespace hoist {

/// The objects of one function found to have escaped; others are asked again each time.
class EscapedObjects final : public llvm::CaptureInfo {
public:
  bool isNotCapturedBefore(const llvm::Value *object, const llvm::Instruction *at,
                           bool orAt) override;

private:
  llvm::SmallPtrSet<const llvm::Value *, 4> escaped_;
};

class CachedCaptureAAResult : public llvm::AAResultBase {
public:
  explicit CachedCaptureAAResult(llvm::BasicAAResult &basic) : basic_(basic) {}
  CachedCaptureAAResult(CachedCaptureAAResult &&other)
      : AAResultBase(std::move(other)), basic_(other.basic_) {}

  /// Dropped whenever a pass changed the function: what escaped may have changed.
  bool invalidate(llvm::Function &function, const llvm::PreservedAnalyses &preserved,
                  llvm::FunctionAnalysisManager::Invalidator &invalidator);

  llvm::AliasResult alias(const llvm::MemoryLocation &a, const llvm::MemoryLocation &b,
                          llvm::AAQueryInfo &query, const llvm::Instruction *at) {
    return basic_.alias(a, b, query, at);
  }
  /// BasicAA's answer, with escapes looked up in this function's cache.
  llvm::ModRefInfo getModRefInfo(const llvm::CallBase *call, const llvm::MemoryLocation &location,
                                 llvm::AAQueryInfo &query);
  llvm::ModRefInfo getModRefInfo(const llvm::CallBase *first, const llvm::CallBase *second,
                                 llvm::AAQueryInfo &query) {
    return basic_.getModRefInfo(first, second, query);
  }
  llvm::ModRefInfo getModRefInfoMask(const llvm::MemoryLocation &location,
                                     llvm::AAQueryInfo &query, bool ignoreLocals) {
    return basic_.getModRefInfoMask(location, query, ignoreLocals);
  }
  llvm::ModRefInfo getArgModRefInfo(const llvm::CallBase *call, unsigned argument) {
    return basic_.getArgModRefInfo(call, argument);
  }
  llvm::MemoryEffects getMemoryEffects(const llvm::CallBase *call, llvm::AAQueryInfo &query) {
    return basic_.getMemoryEffects(call, query);
  }
  llvm::MemoryEffects getMemoryEffects(const llvm::Function *function) {
    return basic_.getMemoryEffects(function);
  }

private:
  llvm::BasicAAResult &basic_;
  EscapedObjects escaped_;
};

class CachedCaptureAA : public llvm::AnalysisInfoMixin<CachedCaptureAA> {
  friend llvm::AnalysisInfoMixin<CachedCaptureAA>;
  static llvm::AnalysisKey Key;

public:
  using Result = CachedCaptureAAResult;
  Result run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses) {
    return Result(analyses.getResult<llvm::BasicAA>(function));
  }
};

/// LLVM's default alias analysis pipeline (PassBuilder::buildDefaultAAPipeline, in the same
/// order) with CachedCaptureAA in BasicAA's place. CachedCaptureAA must be registered.
llvm::AAManager cachedCaptureAAPipeline();

/// Registers CachedCaptureAA and cachedCaptureAAPipeline() as the AAManager. An AAManager
/// registered before stays (translation's, which builds on cachedCaptureAAPipeline()).
void registerCachedCaptureAA(llvm::FunctionAnalysisManager &functions);

} // namespace hoist
