// Locked updates: the lock-prefixed read-modify-writes and xchg with memory as LLVM atomics.
//
// Each is seq_cst, as x86's locked operations are full barriers. The access claims the
// operand's natural alignment: LLVM lowers a less aligned atomic to a libatomic call (a lock
// the guest's other accesses to the word would not take), and for a naturally aligned one the
// x86 backend emits the same locked instruction, which the CPU also performs atomically when
// the address is misaligned (a split lock).
#include "Arch/LiftContext.h"

namespace hoist {

namespace {
constexpr auto SeqCst = llvm::AtomicOrdering::SequentiallyConsistent;

llvm::Align naturalAlignment(llvm::Type *type) {
  return llvm::Align(type->getPrimitiveSizeInBits() / 8);
}
} // namespace

bool LiftContext::updatesAtomically(unsigned index) const {
  const Operand &operand = instr_->op(index);
  if (!operand.isMem() || operand.isAgen || memoryObserver_)
    return false;
  return instr_->hasLock() || instr_->mnemonic == ZYDIS_MNEMONIC_XCHG;
}

llvm::Value *LiftContext::atomicUpdate(llvm::Value *address, llvm::AtomicRMWInst::BinOp op,
                                       llvm::Value *operand) {
  return ir.CreateAtomicRMW(op, memoryPointer(address), operand,
                            naturalAlignment(operand->getType()), SeqCst);
}

llvm::Value *LiftContext::readOperandForUpdate(unsigned index, llvm::AtomicRMWInst::BinOp op,
                                               llvm::Value *operand) {
  if (!updatesAtomically(index))
    return readOperand(index);
  llvm::Value *old = atomicUpdate(operandAddress(index), op, operand);
  storedAtomically_[index] = true;
  return old;
}

llvm::Value *
LiftContext::readOperandForUpdate(unsigned index,
                                  llvm::function_ref<llvm::Value *(llvm::Value *)> next) {
  if (!updatesAtomically(index))
    return readOperand(index);
  llvm::Value *address = operandAddress(index);
  llvm::Type *type = intType(operandBits(index));
  llvm::Value *old = nullptr;
  control_.repeatUntil([&] {
    llvm::LoadInst *seen = ir.CreateAlignedLoad(type, memoryPointer(address),
                                                naturalAlignment(type));
    seen->setAtomic(llvm::AtomicOrdering::Monotonic);
    old = seen;
    return compareExchange(address, seen, next(seen)).second;
  });
  storedAtomically_[index] = true;
  return old;
}

std::pair<llvm::Value *, llvm::Value *>
LiftContext::compareExchange(llvm::Value *address, llvm::Value *expected,
                             llvm::Value *replacement) {
  llvm::Value *pair =
      ir.CreateAtomicCmpXchg(memoryPointer(address), expected, replacement,
                             naturalAlignment(expected->getType()), SeqCst, SeqCst);
  return {ir.CreateExtractValue(pair, 0), ir.CreateExtractValue(pair, 1)};
}

} // namespace hoist
