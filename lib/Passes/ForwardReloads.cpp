#include "Passes/ForwardReloads.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/Analysis/CaptureTracking.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>

namespace hoist {
namespace {

/// How far back a reload looks for the load it repeats.
constexpr unsigned MaxWalkedInstructions = 64;

/// Whether the integer `value` is computed from the function's arguments and constants alone
/// (`%rdi + 156`): it existed before the function's allocas did, so it points into none.
bool isFromArguments(const llvm::Value *value, unsigned depth = 0) {
  if (llvm::isa<llvm::Argument, llvm::ConstantInt>(value))
    return true;
  const auto *instruction = llvm::dyn_cast<llvm::Instruction>(value);
  if (!instruction || depth > 8 ||
      !(llvm::isa<llvm::BinaryOperator, llvm::CastInst>(instruction)) ||
      llvm::isa<llvm::PtrToIntInst>(instruction))
    return false;
  return llvm::all_of(instruction->operands(), [&](const llvm::Use &operand) {
    return isFromArguments(operand.get(), depth + 1);
  });
}

/// Where `pointer` may point, as far as the function's own allocas go.
enum class FrameReach {
  Never,              ///< an argument, a global, an integer made from arguments
  OnlyOnceEscaped,    ///< memory, a call's result, any other integer
  Maybe,              ///< possibly an alloca itself (a gep of one, a phi)
};

FrameReach frameReachOf(const llvm::Value *pointer) {
  const llvm::Value *object = llvm::getUnderlyingObject(pointer, /*MaxLookup=*/0);
  const llvm::Value *integer = nullptr;
  if (const auto *cast = llvm::dyn_cast<llvm::IntToPtrInst>(object))
    integer = cast->getOperand(0);
  else if (const auto *expression = llvm::dyn_cast<llvm::ConstantExpr>(object);
           expression && expression->getOpcode() == llvm::Instruction::IntToPtr)
    return FrameReach::Never;
  if (llvm::isa<llvm::Argument, llvm::GlobalValue>(object) || (integer && isFromArguments(integer)))
    return FrameReach::Never;
  if (integer || llvm::isa<llvm::LoadInst, llvm::CallBase>(object))
    return FrameReach::OnlyOnceEscaped;
  return FrameReach::Maybe;
}

/// Whether `instruction`, between two loads of a pointer that reaches the function's allocas
/// as `reach` says, leaves that memory as it was: it writes nothing, or it is a simple store
/// into an alloca the pointer cannot reach there (never, or not before the alloca escapes).
bool keepsLoadedMemory(const llvm::Instruction &instruction, FrameReach reach,
                       llvm::DominatorTree &dominators) {
  if (!instruction.mayWriteToMemory())
    return true;
  const auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
  if (!store || !store->isSimple())
    return false;
  const auto *frame = llvm::dyn_cast<llvm::AllocaInst>(
      llvm::getUnderlyingObject(store->getPointerOperand(), /*MaxLookup=*/0));
  if (!frame)
    return false;
  return reach == FrameReach::Never ||
         !llvm::PointerMayBeCapturedBefore(frame, /*ReturnCaptures=*/false,
                                           /*StoreCaptures=*/true, store, &dominators,
                                           /*IncludeI=*/true);
}

/// The earlier load `reload` repeats: of the same pointer and type, on the only path into
/// `reload` (single predecessors), with only keepsLoadedMemory instructions between; or null.
llvm::LoadInst *repeatedLoad(llvm::LoadInst &reload, llvm::DominatorTree &dominators) {
  const llvm::Value *pointer = reload.getPointerOperand();
  FrameReach reach = frameReachOf(pointer);
  if (reach == FrameReach::Maybe)
    return nullptr;
  llvm::Instruction *at = &reload;
  for (unsigned walked = 0; walked < MaxWalkedInstructions; ++walked) {
    if (at == &at->getParent()->front()) {
      llvm::BasicBlock *predecessor = at->getParent()->getSinglePredecessor();
      if (!predecessor)
        return nullptr;
      at = predecessor->getTerminator();
    } else {
      at = at->getPrevNode();
    }
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(at);
        load && load->isSimple() && load->getPointerOperand() == pointer &&
        load->getType() == reload.getType())
      return load;
    if (!keepsLoadedMemory(*at, reach, dominators))
      return nullptr;
  }
  return nullptr;
}

} // namespace

llvm::PreservedAnalyses ForwardReloadsPass::run(llvm::Function &function,
                                                llvm::FunctionAnalysisManager &analyses) {
  auto &dominators = analyses.getResult<llvm::DominatorTreeAnalysis>(function);
  llvm::SmallVector<std::pair<llvm::LoadInst *, llvm::LoadInst *>, 8> forwarded;
  for (llvm::BasicBlock &block : function)
    for (llvm::Instruction &instruction : block)
      if (auto *reload = llvm::dyn_cast<llvm::LoadInst>(&instruction); reload && reload->isSimple())
        if (llvm::LoadInst *earlier = repeatedLoad(*reload, dominators))
          forwarded.emplace_back(reload, earlier);
  // A reload may be the earlier load of another: each goes to the first load of its chain.
  llvm::DenseMap<llvm::LoadInst *, llvm::LoadInst *> earlierOf(forwarded.begin(), forwarded.end());
  for (auto [reload, earlier] : forwarded) {
    while (earlierOf.count(earlier))
      earlier = earlierOf.lookup(earlier);
    reload->replaceAllUsesWith(earlier);
  }
  for (auto [reload, earlier] : forwarded)
    reload->eraseFromParent();
  if (forwarded.empty())
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

} // namespace hoist
