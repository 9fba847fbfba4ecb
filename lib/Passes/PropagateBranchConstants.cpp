// PropagateBranchConstants: where a branch tests `x == C`, the blocks only reachable through
// its equal edge use C for x, and what that makes constant folds.
//
// Lifted code tests a value and then computes flags of the same value on the path the test
// selected: `test rax, rax; je L` and, at L, the parity flag of rax, which the lifter computes
// as ctpop(trunc rax) & 1 == 0. InstCombine folds that only when it sees the compare and the
// flag formula over the same value, which in the fixpoint's first round is often not yet so
// (EarlyCSE forwards the State load after InstCombine ran): the fold then waited for the next
// round, which on the samples of docs/PERFORMANCE.md ("The cleanup") spent a whole InstCombine
// on every function for it. This pass makes the substitution with the dominator tree (as GVN
// does for constants) and folds the users it made constant, recursively, with InstSimplify.
#include "Passes/Passes.h"

#include <llvm/Analysis/InstructionSimplify.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/Local.h>

namespace hoist {

llvm::PreservedAnalyses PropagateBranchConstantsPass::run(llvm::Function &function,
                                                          llvm::FunctionAnalysisManager &analyses) {
  auto &dominators = analyses.getResult<llvm::DominatorTreeAnalysis>(function);
  llvm::SimplifyQuery query(function.getDataLayout(), &dominators);
  bool changed = false;
  llvm::SmallVector<llvm::Instruction *, 16> replaced;
  for (llvm::BasicBlock &block : function) {
    auto *branch = llvm::dyn_cast<llvm::BranchInst>(block.getTerminator());
    llvm::Value *tested;
    llvm::ConstantInt *constant;
    llvm::CmpInst::Predicate predicate;
    if (!branch || !branch->isConditional() ||
        !llvm::PatternMatch::match(branch->getCondition(),
                                   llvm::PatternMatch::m_ICmp(
                                       predicate, llvm::PatternMatch::m_Value(tested),
                                       llvm::PatternMatch::m_ConstantInt(constant))) ||
        !llvm::ICmpInst::isEquality(predicate) || llvm::isa<llvm::Constant>(tested))
      continue;
    llvm::BasicBlock *equal = branch->getSuccessor(predicate == llvm::ICmpInst::ICMP_EQ ? 0 : 1);
    llvm::BasicBlockEdge edge(&block, equal);
    // The users to fold: those the substitution reaches, collected before it rewrites them.
    replaced.clear();
    for (llvm::User *user : tested->users())
      if (auto *inst = llvm::dyn_cast<llvm::Instruction>(user))
        if (dominators.dominates(edge, inst->getParent()))
          replaced.push_back(inst);
    if (replaced.empty() || !llvm::replaceDominatedUsesWith(tested, constant, dominators, edge))
      continue;
    changed = true;
    // Each user now has a constant operand; fold it and what that makes constant in turn
    // (replaceAndRecursivelySimplify erases what it replaced).
    llvm::SmallVector<llvm::WeakTrackingVH, 16> users(replaced.begin(), replaced.end());
    for (llvm::WeakTrackingVH &handle : users) {
      auto *inst = llvm::dyn_cast_or_null<llvm::Instruction>(handle);
      if (!inst || !inst->getParent())
        continue;
      if (llvm::Value *simple = llvm::simplifyInstruction(inst, query))
        llvm::replaceAndRecursivelySimplify(inst, simple, nullptr, &dominators);
    }
  }
  return preservedAfter(changed);
}

} // namespace hoist
