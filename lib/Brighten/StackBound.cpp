#include "Brighten/StackBound.h"

#include "Arch/LiftContext.h"
#include "Brighten/LocalFrame.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

namespace hoist {
namespace {

/// SysV ABI 3.2.2: a function may use the 128 bytes below RSP without moving it.
constexpr int64_t RedZoneBytes = 128;

/// The marker calls of `function`.
std::vector<const llvm::CallInst *> markersIn(const llvm::Function &function) {
  std::vector<const llvm::CallInst *> markers;
  if (const llvm::Function *marker = function.getParent()->getFunction(StackBoundMarker))
    for (const llvm::User *user : marker->users())
      if (const auto *call = llvm::dyn_cast<llvm::CallInst>(user);
          call && call->getFunction() == &function)
        markers.push_back(call);
  return markers;
}

/// The address of the instruction whose RSP the marker `call` checks, or 0 if not known.
uint64_t addressOf(const llvm::CallInst &call) {
  const llvm::MDNode *bound = call.getMetadata(StackBoundMetadata);
  return bound ? llvm::mdconst::extract<llvm::ConstantInt>(bound->getOperand(0))->getZExtValue()
               : 0;
}

/// Whether the marker `call` is decided: RSP a constant at or above its lowest.
bool isDecidedSafe(const llvm::CallInst &call) {
  const auto *fromTop = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(0));
  const auto *lowest = llvm::cast<llvm::ConstantInt>(call.getArgOperand(1));
  return fromTop && fromTop->getSExtValue() >= lowest->getSExtValue();
}

} // namespace

void boundStackGrowth(llvm::Function &function, llvm::Value &entryRsp, uint64_t topOffset) {
  std::vector<llvm::Instruction *> writes;
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (instruction.getMetadata(StackPointerWriteMetadata))
      writes.push_back(&instruction);
  if (writes.empty())
    return;
  llvm::FunctionCallee marker = declareMarker(*function.getParent(), StackBoundMarker, 2);
  for (llvm::Instruction *write : writes) {
    // Right where the new RSP is computed: an access through it before the check would let
    // the optimizer take the check for false.
    llvm::Instruction *at = llvm::isa<llvm::PHINode>(write)
                                ? &*write->getParent()->getFirstInsertionPt()
                                : write->getNextNode();
    llvm::IRBuilder<> builder(at);
    llvm::Value *fromTop = builder.CreateSub(write, &entryRsp, "rsp.from.top");
    llvm::Value *lowest = builder.getInt64(RedZoneBytes - static_cast<int64_t>(topOffset));
    llvm::CallInst *call = builder.CreateCall(marker, {fromTop, lowest});
    // The address as metadata, not an operand: an operand equal to a return address would
    // count as a code address the function hands on.
    llvm::Metadata *address = llvm::ConstantAsMetadata::get(builder.getInt64(pcOf(*write)));
    call->setMetadata(StackBoundMetadata, llvm::MDNode::get(function.getContext(), {address}));
  }
}

std::vector<uint64_t> undecidedStackBounds(const llvm::Function &function) {
  std::vector<uint64_t> addresses;
  for (const llvm::CallInst *call : markersIn(function))
    if (!isDecidedSafe(*call))
      addresses.push_back(addressOf(*call));
  llvm::sort(addresses);
  addresses.erase(std::unique(addresses.begin(), addresses.end()), addresses.end());
  return addresses;
}

std::optional<int64_t> lowestConstantStackMove(const llvm::Function &probe) {
  std::optional<int64_t> lowest;
  for (const llvm::CallInst *call : markersIn(probe))
    if (const auto *fromTop = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
        fromTop && !isDecidedSafe(*call))
      lowest = std::min(lowest.value_or(0), fromTop->getSExtValue() - RedZoneBytes);
  return lowest;
}

void replaceStackBoundMarkers(llvm::Module &module) {
  llvm::Function *marker = module.getFunction(StackBoundMarker);
  if (!marker)
    return;
  llvm::Function *trap = llvm::Intrinsic::getDeclaration(&module, llvm::Intrinsic::trap);
  for (llvm::User *user : llvm::make_early_inc_range(marker->users())) {
    auto *call = llvm::cast<llvm::CallInst>(user);
    if (!isDecidedSafe(*call)) {
      llvm::IRBuilder<> builder(call);
      llvm::Value *past = builder.CreateICmpSLT(call->getArgOperand(0), call->getArgOperand(1));
      llvm::Instruction *then =
          llvm::SplitBlockAndInsertIfThen(past, call, /*Unreachable=*/true);
      llvm::CallInst::Create(trap, "", then)->copyMetadata(*call);
    }
    call->eraseFromParent();
  }
  marker->eraseFromParent();
}

} // namespace hoist
