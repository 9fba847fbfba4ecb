#include "Brighten/TakenAddresses.h"

#include "hoist/Image.h"

#include "Arch/StateLayout.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Operator.h>

namespace hoist {

namespace {

/// A constant stored into State.RIP is where control goes (the target the lifter sets before a
/// direct call or jump), not an address the program holds.
bool isRipTarget(const llvm::Instruction &instruction) {
  const auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
  const auto *field =
      store ? llvm::dyn_cast<llvm::GEPOperator>(store->getPointerOperand()) : nullptr;
  if (!field || field->getPointerOperand() != instruction.getFunction()->getArg(0) ||
      field->getNumIndices() != 2)
    return false;
  const auto *index = llvm::dyn_cast<llvm::ConstantInt>(field->getOperand(2));
  return index && index->getZExtValue() == HOIST_FIELD_RIP;
}

} // namespace

std::set<uint64_t> takenCodeAddresses(const std::map<uint64_t, llvm::Function *> &lifted,
                                      const Image &image) {
  std::set<uint64_t> taken;
  auto note = [&](uint64_t value) {
    if (lifted.count(value))
      taken.insert(value);
  };
  for (auto [slot, target] : image.relocatedPointers())
    note(target);
  for (uint64_t slot : image.possiblePointers()) {
    uint64_t value = 0;
    if (image.read(slot, &value, sizeof(value)))
      note(value);
  }
  for (const Export &exported : image.exports())
    note(exported.address);
  for (auto [address, function] : lifted)
    for (const llvm::Instruction &instruction : llvm::instructions(*function)) {
      if (isRipTarget(instruction))
        continue;
      for (const llvm::Value *operand : instruction.operands())
        if (const auto *constant = llvm::dyn_cast<llvm::ConstantInt>(operand);
            constant && (constant->getBitWidth() == 64 || constant->getBitWidth() == 32))
          note(constant->getZExtValue());
    }
  return taken;
}

} // namespace hoist
