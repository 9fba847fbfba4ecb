// The instruction-to-address map as `!hoist.pc` metadata (include/hoist/Lifter.h,
// "Instruction addresses").
#include "hoist/Lifter.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Metadata.h>

namespace hoist {

void attachPcMetadata(llvm::ArrayRef<InstructionAddress> addresses) {
  if (addresses.empty())
    return;
  llvm::LLVMContext &context = addresses.front().instruction->getContext();
  unsigned kind = context.getMDKindID("hoist.pc");
  auto *i64 = llvm::Type::getInt64Ty(context);
  // Consecutive entries mostly share a machine instruction: one node for each run of them.
  llvm::MDNode *node = nullptr;
  uint64_t nodeAddress = 0;
  for (const auto &[instruction, address] : addresses) {
    if (instruction->hasMetadata(kind))
      continue;   // an earlier entry tagged it
    if (!node || nodeAddress != address) {
      node = llvm::MDNode::get(
          context, llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i64, address)));
      nodeAddress = address;
    }
    instruction->setMetadata(kind, node);
  }
}

std::optional<uint64_t> pcMetadataOf(const llvm::Instruction &instruction) {
  llvm::MDNode *node = instruction.getMetadata("hoist.pc");
  if (!node || node->getNumOperands() == 0)
    return std::nullopt;
  if (auto *address = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(0)))
    return address->getZExtValue();
  return std::nullopt;
}

} // namespace hoist
