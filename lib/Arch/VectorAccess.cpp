// Vector registers and operands for LiftContext: typed views of the <4 x i64> YMM variables,
// the upper-lane rules of legacy and VEX writes, and the alignment faults of SSE memory forms.
#include "Arch/LiftContext.h"

#include "Arch/Registers.h"

namespace hoist {
namespace {

int vectorRegisterNumber(ZydisRegister reg) {
  ZydisRegisterClass regClass = ZydisRegisterGetClass(reg);
  if (regClass != ZYDIS_REGCLASS_XMM && regClass != ZYDIS_REGCLASS_YMM)
    return -1;
  int id = ZydisRegisterGetId(reg);
  return id >= 0 && id < 16 ? id : -1;
}

/// Legacy SSE forms whose 128-bit memory operand may be unaligned (SDM vol. 1, 12.6 and the
/// instruction pages); every other legacy 128-bit memory operand must be 16-byte aligned.
bool legacyAllowsUnaligned(ZydisMnemonic mnemonic) {
  switch (mnemonic) {
  case ZYDIS_MNEMONIC_MOVUPS:
  case ZYDIS_MNEMONIC_MOVUPD:
  case ZYDIS_MNEMONIC_MOVDQU:
  case ZYDIS_MNEMONIC_LDDQU:
  case ZYDIS_MNEMONIC_MASKMOVDQU:
  case ZYDIS_MNEMONIC_PCMPESTRI:
  case ZYDIS_MNEMONIC_PCMPESTRM:
  case ZYDIS_MNEMONIC_PCMPISTRI:
  case ZYDIS_MNEMONIC_PCMPISTRM:
    return true;
  default:
    return false;
  }
}

/// VEX forms check alignment only where the mnemonic says so (SDM vol. 2, 2.4.1).
bool vexRequiresAlignment(ZydisMnemonic mnemonic) {
  switch (mnemonic) {
  case ZYDIS_MNEMONIC_VMOVAPS:
  case ZYDIS_MNEMONIC_VMOVAPD:
  case ZYDIS_MNEMONIC_VMOVDQA:
  case ZYDIS_MNEMONIC_VMOVNTPS:
  case ZYDIS_MNEMONIC_VMOVNTPD:
  case ZYDIS_MNEMONIC_VMOVNTDQ:
  case ZYDIS_MNEMONIC_VMOVNTDQA:
    return true;
  default:
    return false;
  }
}

} // namespace

bool LiftContext::isVectorRegister(ZydisRegister reg) { return vectorRegisterNumber(reg) >= 0; }

unsigned LiftContext::vectorRegisterBits(ZydisRegister reg) {
  return ZydisRegisterGetClass(reg) == ZYDIS_REGCLASS_YMM ? 256 : 128;
}

llvm::FixedVectorType *LiftContext::vectorType(llvm::Type *element, unsigned bits) {
  unsigned elementBits = element->getPrimitiveSizeInBits();
  assert(elementBits && bits % elementBits == 0 && "a view must fill the value");
  return llvm::FixedVectorType::get(element, bits / elementBits);
}

llvm::Value *LiftContext::vectorView(llvm::Value *value, llvm::Type *element) {
  unsigned bits = value->getType()->getPrimitiveSizeInBits();
  llvm::Type *type = vectorType(element, bits);
  return value->getType() == type ? value : ir.CreateBitCast(value, type);
}

llvm::Value *LiftContext::readVectorReg(ZydisRegister reg, llvm::Type *element) {
  int number = vectorRegisterNumber(reg);
  assert(number >= 0 && "readVectorReg on a register that is not xmm0-15 or ymm0-15");
  llvm::Value *full = readVar(ymmVar(number));
  if (vectorRegisterBits(reg) == 128)
    full = ir.CreateShuffleVector(full, {0, 1});
  return vectorView(full, element);
}

void LiftContext::writeVectorReg(ZydisRegister reg, llvm::Value *value) {
  int number = vectorRegisterNumber(reg);
  assert(number >= 0 && "writeVectorReg on a register that is not xmm0-15 or ymm0-15");
  unsigned bits = value->getType()->getPrimitiveSizeInBits();
  assert(bits == vectorRegisterBits(reg) && "vector register width mismatch");
  llvm::Value *lanes = vectorView(value, ir.getInt64Ty());
  Var var = ymmVar(number);
  if (bits == 128) {
    llvm::Value *upper = instr_->isVexOrEvex()
                             ? llvm::Constant::getNullValue(lanes->getType())
                             : ir.CreateShuffleVector(readVar(var), {2, 3});
    lanes = ir.CreateShuffleVector(lanes, upper, {0, 1, 2, 3});
  }
  writeVar(var, lanes);
}

void LiftContext::checkAlignment(const Operand &operand, llvm::Value *address) {
  unsigned bytes = operand.bits / 8;
  bool required = instr_->isVexOrEvex()
                      ? vexRequiresAlignment(instr_->mnemonic)
                      : bytes == 16 && !legacyAllowsUnaligned(instr_->mnemonic);
  if (required)
    trapIfMisaligned(address, bytes);
}

llvm::Value *LiftContext::readVector(unsigned index, llvm::Type *element) {
  const Operand &operand = instr_->op(index);
  if (operand.isReg())
    return readVectorReg(operand.reg, element);
  assert(operand.isMem() && "readVector on an operand that is neither register nor memory");
  llvm::Value *address = effectiveAddress(operand);
  checkAlignment(operand, address);
  return load(address, vectorType(element, operand.bits));
}

void LiftContext::writeVector(unsigned index, llvm::Value *value) {
  const Operand &operand = instr_->op(index);
  if (operand.isReg()) {
    writeVectorReg(operand.reg, value);
    return;
  }
  assert(operand.isMem() && "writeVector on an operand that is neither register nor memory");
  llvm::Value *address = effectiveAddress(operand);
  checkAlignment(operand, address);
  store(address, value);
}

llvm::Value *LiftContext::readScalar(unsigned index, llvm::Type *type) {
  const Operand &operand = instr_->op(index);
  unsigned bits = type->getPrimitiveSizeInBits();
  if (operand.isReg() && isVectorRegister(operand.reg)) {
    llvm::Value *view = readVectorReg(operand.reg, type);
    return ir.CreateExtractElement(view, uint64_t(0));
  }
  if (operand.isMem() && !operand.isAgen) {
    llvm::Value *address = effectiveAddress(operand);
    checkAlignment(operand, address);
    return load(address, type);
  }
  llvm::Value *integer = readOperand(index, bits);
  return integer->getType() == type ? integer : ir.CreateBitCast(integer, type);
}

} // namespace hoist
