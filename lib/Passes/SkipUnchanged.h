// Skipping a pass on a function it already left unchanged, when nothing has changed the function
// since.
//
// The fixpoint (lib/Passes/Pipeline.cpp) runs the same round of passes on a function again and
// again until the round leaves its instruction count as it was. The cleanup's passes are
// deterministic functions of the function they run on: one that changed nothing on some version
// of a function changes nothing on that same version again. So in the round that confirms the
// fixpoint, the passes after the last one that changed something in the round before are not
// run, and a pass whose earlier run found nothing is not run again while no pass in between
// changed anything. The optimized IR is the same, byte for byte, on the samples of
// docs/PERFORMANCE.md ("The cleanup").
//
// A pass that reaches its own fixpoint in one run (InstCombine: LLVM 19 runs it once and
// checks in its own tests that a second run finds nothing) may say so: then the version it
// made counts as one it left unchanged, and it runs again only once another pass changed the
// function. In the fixpoint's later rounds that skips InstCombine, the costly pass, wherever it
// was the last pass to change the function.
//
// A pass says it changed nothing by preserving all analyses (LLVM's contract: a pass that
// changed the IR and claimed otherwise would leave stale analyses behind).
#pragma once

#include "hoist/Optimize.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/Twine.h>
#include <llvm/Support/TypeName.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/PassManager.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace hoist {

/// A version number per function, new whenever a tracked pass changes it, and the version each
/// tracked pass last left unchanged. Shared by all the tracked passes of one optimizeModule call.
class FunctionVersions {
public:
  /// Starts building a round's passes: the k-th pass of some type in one round is the same pass,
  /// configured alike, as the k-th of that type in another, and what one found the other knows.
  void startRound() { occurrences_.clear(); }
  /// The slot of the next pass of this type in the round being built.
  unsigned slotFor(llvm::StringRef passName) {
    std::string key = (passName + "#" + llvm::Twine(occurrences_[passName]++)).str();
    auto [slot, added] = slots_.try_emplace(key, slotNames_.size());
    if (added)
      slotNames_.push_back(key);
    return slot->second;
  }

  /// What the passes did in the fixpoint round counted from now on (1 is the first).
  void startCounting(unsigned round) { round_ = round; }
  /// The passes' activity, round by round, each in the order the round runs them.
  std::vector<PassActivity> activity() const {
    std::vector<PassActivity> all;
    for (const auto &[key, counts] : counts_)
      all.push_back({slotNames_[key.second], key.first, counts.ran, counts.changed,
                     counts.skipped});
    return all;
  }

  /// Whether the pass in `slot` left this version of `function` as it was.
  bool idle(unsigned slot, const llvm::Function &function) {
    auto found = idleAt_.find({slot, &function});
    bool skip = found != idleAt_.end() && found->second == of(function);
    if (skip)
      ++counts_[{round_, slot}].skipped;
    return skip;
  }
  /// With `settlesItself`, the version the pass made counts as one it left unchanged.
  void ran(unsigned slot, const llvm::Function &function, bool changed,
           bool settlesItself = false) {
    Counts &counts = counts_[{round_, slot}];
    ++counts.ran;
    counts.changed += changed;
    if (changed)
      versions_[&function] = ++last_;
    if (!changed || settlesItself)
      idleAt_[{slot, &function}] = of(function);
  }
  /// Something outside the tracked passes may have changed any function.
  void forgetAll() {
    versions_.clear();
    floor_ = ++last_;
  }

private:
  uint64_t of(const llvm::Function &function) const {
    uint64_t version = versions_.lookup(&function);
    return version > floor_ ? version : floor_;
  }

  struct Counts {
    uint64_t ran = 0, changed = 0, skipped = 0;
  };

  llvm::StringMap<unsigned> occurrences_;
  llvm::StringMap<unsigned> slots_;
  std::vector<std::string> slotNames_;
  unsigned round_ = 0;
  std::map<std::pair<unsigned, unsigned>, Counts> counts_;   // by round and slot
  llvm::DenseMap<const llvm::Function *, uint64_t> versions_;
  llvm::DenseMap<std::pair<unsigned, const llvm::Function *>, uint64_t> idleAt_;
  uint64_t last_ = 0;
  uint64_t floor_ = 0;
};

/// Runs `PassT` unless it left this version of the function unchanged before. With `alwaysRun`
/// it runs every time and only records what it changed, for passes that may read more than the
/// function they run on (deobfuscation's and brightening's round passes). With `settlesItself`
/// it is not run again on its own output (FunctionVersions::ran).
template <typename PassT>
class SkipUnchangedPass : public llvm::PassInfoMixin<SkipUnchangedPass<PassT>> {
public:
  SkipUnchangedPass(PassT pass, std::shared_ptr<FunctionVersions> versions,
                    bool alwaysRun = false, bool settlesItself = false)
      : pass_(std::move(pass)), versions_(std::move(versions)),
        slot_(versions_->slotFor(llvm::getTypeName<PassT>())), alwaysRun_(alwaysRun),
        settlesItself_(settlesItself) {}

  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses) {
    if (!alwaysRun_ && versions_->idle(slot_, function))
      return llvm::PreservedAnalyses::all();
    llvm::PreservedAnalyses preserved = pass_.run(function, analyses);
    versions_->ran(slot_, function, !preserved.areAllPreserved(), settlesItself_);
    return preserved;
  }

private:
  PassT pass_;
  std::shared_ptr<FunctionVersions> versions_;
  unsigned slot_;
  bool alwaysRun_;
  bool settlesItself_;
};

} // namespace hoist
