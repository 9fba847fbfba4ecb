#include "Arch/LiftContext.h"

#include "Arch/Registers.h"

namespace hoist {

LiftContext::LiftContext(llvm::LLVMContext &context, RegisterFile &registers,
                         llvm::Value *memoryBase, ControlTransfers &control,
                         DiagnosticSink &diagnostics)
    : ir(context), registers_(registers), memoryBase_(memoryBase), control_(control),
      diagnostics_(diagnostics) {}

void LiftContext::startInstruction(RegisterFile::Block *block, const Instr *instr) {
  operandAddresses_ = {};
  storedAtomically_ = {};
  setPosition(block, instr);
}

void LiftContext::setPosition(RegisterFile::Block *block, const Instr *instr) {
  block_ = block;
  instr_ = instr;
  lastSlice_ = {};   // made at the old position: it need not dominate the new one
  llvm::BasicBlock *bb = registers_.basicBlock(block);
  if (llvm::Instruction *terminator = bb->getTerminator())
    ir.SetInsertPoint(terminator);
  else
    ir.SetInsertPoint(bb);
}

llvm::Value *LiftContext::readReg(ZydisRegister reg) {
  if (reg == ZYDIS_REGISTER_RIP)
    return ir.getInt64(instr_->next());
  // EIP is the base of a RIP-relative operand with an address-size prefix (67 8b 05 ...):
  // the next instruction's address truncated to 32 bits (SDM vol. 2, 2.2.1.6).
  if (reg == ZYDIS_REGISTER_EIP)
    return ir.getInt32(static_cast<uint32_t>(instr_->next()));
  std::optional<RegisterSlice> slice = gprSlice(reg);
  assert(slice && "readReg on a register that is not a GPR");
  llvm::Value *full = readVar(slice->var);
  if (slice->bits == 64)
    return full;
  // A register a zero-extending write defined reads back, at the written width, as the value
  // written: no `trunc (zext x)` (mov eax, [m]; mov [n], eax).
  if (slice->offset == 0)
    if (auto *extended = llvm::dyn_cast<llvm::ZExtInst>(full))
      if (extended->getSrcTy()->getIntegerBitWidth() == slice->bits)
        return extended->getOperand(0);
  // One slice per instruction and register: `test eax, eax` reads eax once. Only within the
  // block that made it: an instruction lifted over several blocks may read the register again
  // in one the first read does not dominate.
  if (lastSlice_.full == full && lastSlice_.offset == slice->offset &&
      lastSlice_.bits == slice->bits && lastSlice_.block == ir.GetInsertBlock())
    return lastSlice_.value;
  llvm::Value *value = full;
  if (slice->offset)
    value = ir.CreateLShr(value, slice->offset);
  value = ir.CreateTrunc(value, intType(slice->bits));
  lastSlice_ = {full, slice->offset, slice->bits, value, ir.GetInsertBlock()};
  return value;
}

void LiftContext::writeReg(ZydisRegister reg, llvm::Value *value) {
  std::optional<RegisterSlice> slice = gprSlice(reg);
  assert(slice && "writeReg on a register that is not a GPR");
  llvm::Value *merged = mergedRegister(reg, value);
  if (auto *instruction = llvm::dyn_cast<llvm::Instruction>(merged);
      instruction && tagStackPointerWrites && slice->var == Var::RSP)
    instruction->setMetadata(StackPointerWriteMetadata, llvm::MDNode::get(ir.getContext(), {}));
  writeVar(slice->var, merged);
}

llvm::Value *LiftContext::mergedRegister(ZydisRegister reg, llvm::Value *value) {
  std::optional<RegisterSlice> slice = gprSlice(reg);
  assert(slice && "mergedRegister on a register that is not a GPR");
  assert(value->getType()->getIntegerBitWidth() == slice->bits && "register width mismatch");
  if (slice->bits == 64)
    return value;
  llvm::Value *wide = ir.CreateZExt(value, ir.getInt64Ty());
  if (slice->zeroExtendsOnWrite)
    return wide;
  uint64_t mask = ((uint64_t(1) << slice->bits) - 1) << slice->offset;
  llvm::Value *kept = ir.CreateAnd(readVar(slice->var), ir.getInt64(~mask));
  if (slice->offset)
    wide = ir.CreateShl(wide, slice->offset);
  return ir.CreateOr(kept, wide);
}

void LiftContext::writeFlags(FlagOp op, llvm::Value *lhs, llvm::Value *rhs, llvm::Value *result,
                             llvm::Value *carryIn) {
  registers_.writeFlags(block_, FlagThunk{op, lhs, rhs, result, carryIn});
}

llvm::Value *LiftContext::condition(Condition cc) {
  // Odd codes are the negation of the even code before them (SDM vol. 1, appendix B).
  unsigned code = static_cast<unsigned>(cc);
  llvm::Value *value = nullptr;
  switch (static_cast<Condition>(code & ~1u)) {
  case Condition::O:
    value = readFlag(Var::OF);
    break;
  case Condition::B:
    value = readFlag(Var::CF);
    break;
  case Condition::E:
    value = readFlag(Var::ZF);
    break;
  case Condition::BE:
    value = ir.CreateOr(readFlag(Var::CF), readFlag(Var::ZF));
    break;
  case Condition::S:
    value = readFlag(Var::SF);
    break;
  case Condition::P:
    value = readFlag(Var::PF);
    break;
  case Condition::L:
    value = ir.CreateICmpNE(readFlag(Var::SF), readFlag(Var::OF));
    break;
  case Condition::LE:
    value = ir.CreateOr(readFlag(Var::ZF), ir.CreateICmpNE(readFlag(Var::SF), readFlag(Var::OF)));
    break;
  default:
    break;
  }
  return (code & 1) ? ir.CreateNot(value) : value;
}

llvm::Value *LiftContext::load(llvm::Value *address, llvm::Type *type) {
  if (memoryObserver_)
    if (llvm::Value *known = memoryObserver_->knownLoad(ir, address, type))
      return known;
  return ir.CreateAlignedLoad(type, memoryPointer(address), llvm::MaybeAlign(1));
}

void LiftContext::store(llvm::Value *address, llvm::Value *value) {
  ir.CreateAlignedStore(value, memoryPointer(address), llvm::MaybeAlign(1));
  if (memoryObserver_)
    memoryObserver_->stored(address, value);
}

void LiftContext::trapIfMisaligned(llvm::Value *address, unsigned bytes) {
  llvm::Value *misaligned =
      ir.CreateICmpNE(ir.CreateAnd(address, ir.getInt64(bytes - 1)), ir.getInt64(0));
  control_.trapIf(misaligned, ir.getInt64(instr_->address), HOIST_EXCEPTION_GP);
}

void LiftContext::push(llvm::Value *value) {
  unsigned bytes = value->getType()->getIntegerBitWidth() / 8;
  llvm::Value *rsp = ir.CreateSub(readVar(Var::RSP), ir.getInt64(bytes));
  store(rsp, value);
  writeVar(Var::RSP, rsp);
}

llvm::Value *LiftContext::pop(unsigned bits) {
  llvm::Value *rsp = readVar(Var::RSP);
  llvm::Value *value = load(rsp, intType(bits));
  writeVar(Var::RSP, ir.CreateAdd(rsp, ir.getInt64(bits / 8)));
  return value;
}

llvm::Value *LiftContext::effectiveAddress(const Operand &operand) {
  // Terms are added only where present, so that `[rax]` is rax itself and not rax + 0.
  llvm::Value *address = nullptr;
  auto addTerm = [&](llvm::Value *term) {
    address = address ? ir.CreateAdd(address, term) : term;
  };
  if (operand.base != ZYDIS_REGISTER_NONE)
    addTerm(ir.CreateZExt(readReg(operand.base), ir.getInt64Ty()));
  if (operand.index != ZYDIS_REGISTER_NONE) {
    llvm::Value *index = ir.CreateZExt(readReg(operand.index), ir.getInt64Ty());
    if (operand.scale > 1)
      index = ir.CreateMul(index, ir.getInt64(operand.scale));
    addTerm(index);
  }
  if (operand.disp != 0 || !address)
    addTerm(ir.getInt64(static_cast<uint64_t>(operand.disp)));
  if (instr_->addressWidth == 32)
    address = ir.CreateZExt(ir.CreateTrunc(address, ir.getInt32Ty()), ir.getInt64Ty());
  // In 64-bit mode only FS and GS have a base (SDM vol. 1, 3.3.4).
  if (!operand.isAgen && operand.segment == ZYDIS_REGISTER_FS)
    address = ir.CreateAdd(address, readVar(Var::FS_BASE));
  else if (!operand.isAgen && operand.segment == ZYDIS_REGISTER_GS)
    address = ir.CreateAdd(address, readVar(Var::GS_BASE));
  return address;
}

llvm::Value *LiftContext::operandAddress(unsigned index) {
  OperandAddress &known = operandAddresses_[index];
  llvm::BasicBlock *block = ir.GetInsertBlock();
  // Only in the block that computed it, where it dominates; a part of an instruction split
  // into blocks (ControlTransfers::ifThenElse) computes its own.
  if (known.address && known.block == block)
    return known.address;
  known = {effectiveAddress(instr_->op(index)), block};
  return known.address;
}

llvm::Value *LiftContext::readOperand(unsigned index, unsigned bits) {
  const Operand &operand = instr_->op(index);
  if (bits == 0)
    bits = operand.bits;
  switch (operand.kind) {
  case Operand::Kind::Reg: {
    // A vector register reads as one integer of its width (movd eax, xmm0 truncates it).
    llvm::Value *value =
        isVectorRegister(operand.reg)
            ? ir.CreateBitCast(readVectorReg(operand.reg, ir.getInt64Ty()),
                               intType(vectorRegisterBits(operand.reg)))
            : readReg(operand.reg);
    unsigned have = value->getType()->getIntegerBitWidth();
    if (have == bits)
      return value;
    return have > bits ? ir.CreateTrunc(value, intType(bits)) : ir.CreateZExt(value, intType(bits));
  }
  case Operand::Kind::Mem:
    if (operand.isAgen)
      return ir.CreateTrunc(effectiveAddress(operand), intType(bits));
    return load(operandAddress(index), intType(bits));
  case Operand::Kind::Imm:
    return constant(bits, operand.imm);
  default:
    return llvm::PoisonValue::get(intType(bits));
  }
}

void LiftContext::writeOperand(unsigned index, llvm::Value *value) {
  const Operand &operand = instr_->op(index);
  if (operand.isReg() && isVectorRegister(operand.reg)) {
    // An integer narrower than the register zero-extends into it (movd, movq, vmovd).
    unsigned registerBits = vectorRegisterBits(operand.reg);
    unsigned bits = value->getType()->getPrimitiveSizeInBits();
    if (bits < registerBits)
      value = ir.CreateZExt(ir.CreateBitCast(value, intType(bits)), intType(registerBits));
    writeVectorReg(operand.reg, value);
    return;
  }
  if (operand.isReg()) {
    writeReg(operand.reg, value);
    return;
  }
  assert(operand.isMem() && "write to an operand that is neither register nor memory");
  if (storedAtomically_[index])
    return;
  store(operandAddress(index), value);
}

} // namespace hoist
