// Vector registers and operands for LiftContext: typed views of the vector variables (a zmm
// register below 16 is its <4 x i64> YMM and <4 x i64> upper half, zmm16-31 one <8 x i64>),
// the upper-lane rules of legacy, VEX and EVEX writes, and the alignment faults of SSE memory
// forms.
#include "Arch/LiftContext.h"

#include "Arch/Registers.h"

#include <llvm/ADT/SmallVector.h>

namespace hoist {
namespace {

int vectorRegisterNumber(ZydisRegister reg) {
  ZydisRegisterClass regClass = ZydisRegisterGetClass(reg);
  if (regClass != ZYDIS_REGCLASS_XMM && regClass != ZYDIS_REGCLASS_YMM &&
      regClass != ZYDIS_REGCLASS_ZMM)
    return -1;
  int id = ZydisRegisterGetId(reg);
  return id >= 0 && id < 32 ? id : -1;
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

/// VEX and EVEX forms check alignment only where the mnemonic says so (SDM vol. 2, 2.4.1),
/// to the operand's whole size.
bool vexRequiresAlignment(ZydisMnemonic mnemonic) {
  switch (mnemonic) {
  case ZYDIS_MNEMONIC_VMOVAPS:
  case ZYDIS_MNEMONIC_VMOVAPD:
  case ZYDIS_MNEMONIC_VMOVDQA:
  case ZYDIS_MNEMONIC_VMOVNTPS:
  case ZYDIS_MNEMONIC_VMOVNTPD:
  case ZYDIS_MNEMONIC_VMOVNTDQ:
  case ZYDIS_MNEMONIC_VMOVNTDQA:
  case ZYDIS_MNEMONIC_VMOVDQA32:
  case ZYDIS_MNEMONIC_VMOVDQA64:
    return true;
  default:
    return false;
  }
}

} // namespace

bool LiftContext::isVectorRegister(ZydisRegister reg) { return vectorRegisterNumber(reg) >= 0; }

unsigned LiftContext::vectorRegisterBits(ZydisRegister reg) {
  switch (ZydisRegisterGetClass(reg)) {
  case ZYDIS_REGCLASS_ZMM: return 512;
  case ZYDIS_REGCLASS_YMM: return 256;
  default: return 128;
  }
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
  assert(number >= 0 && "readVectorReg on a register that is not xmm, ymm or zmm 0-31");
  unsigned lanes = vectorRegisterBits(reg) / 64;
  llvm::Value *full;
  if (number >= 16) {
    full = readVar(zmmVar(number));
  } else {
    full = readVar(ymmVar(number));
    if (lanes == 8)
      full = ir.CreateShuffleVector(full, readVar(zmmHighVar(number)), {0, 1, 2, 3, 4, 5, 6, 7});
  }
  unsigned have = llvm::cast<llvm::FixedVectorType>(full->getType())->getNumElements();
  if (lanes < have) {
    llvm::SmallVector<int, 8> low;
    for (unsigned i = 0; i < lanes; ++i)
      low.push_back(int(i));
    full = ir.CreateShuffleVector(full, low);
  }
  return vectorView(full, element);
}

void LiftContext::writeVectorReg(ZydisRegister reg, llvm::Value *value) {
  int number = vectorRegisterNumber(reg);
  assert(number >= 0 && "writeVectorReg on a register that is not xmm, ymm or zmm 0-31");
  unsigned bits = value->getType()->getPrimitiveSizeInBits();
  assert(bits == vectorRegisterBits(reg) && "vector register width mismatch");
  llvm::Value *lanes = vectorView(value, ir.getInt64Ty());
  auto *i64x4 = llvm::FixedVectorType::get(ir.getInt64Ty(), 4);
  llvm::Constant *zero4 = llvm::Constant::getNullValue(i64x4);
  // Legacy SSE keeps every bit above its xmm destination; VEX and EVEX zero every bit above
  // the vector length up to the widest register (SDM vol. 1, 15.5: "bits MAXVL-1:VL").
  bool zeroesAbove = instr_->isVexOrEvex();
  if (number >= 16) {
    // Only EVEX names zmm16-31.
    llvm::SmallVector<int, 8> widen;
    for (unsigned i = 0; i < 8; ++i)
      widen.push_back(i < bits / 64 ? int(i) : int(bits / 64));
    llvm::Value *zero = llvm::Constant::getNullValue(lanes->getType());
    writeVar(zmmVar(number), bits == 512 ? lanes : ir.CreateShuffleVector(lanes, zero, widen));
    return;
  }
  Var var = ymmVar(number);
  if (bits == 512) {
    writeVar(var, ir.CreateShuffleVector(lanes, {0, 1, 2, 3}));
    writeVar(zmmHighVar(number), ir.CreateShuffleVector(lanes, {4, 5, 6, 7}));
    return;
  }
  if (bits == 128) {
    llvm::Value *upper = zeroesAbove ? llvm::Constant::getNullValue(lanes->getType())
                                     : ir.CreateShuffleVector(readVar(var), {2, 3});
    lanes = ir.CreateShuffleVector(lanes, upper, {0, 1, 2, 3});
  }
  writeVar(var, lanes);
  if (zeroesAbove)
    writeVar(zmmHighVar(number), zero4);
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
