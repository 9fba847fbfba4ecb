#include "Arch/Registers.h"

#include <array>

#include <llvm/IR/DerivedTypes.h>

namespace hoist {

HoistStateField stateFieldOf(Var var) {
  unsigned index = static_cast<unsigned>(var);
  if (index <= static_cast<unsigned>(Var::R15))
    return static_cast<HoistStateField>(HOIST_FIELD_RAX + index);
  switch (var) {
  case Var::CF: return HOIST_FIELD_CF;
  case Var::PF: return HOIST_FIELD_PF;
  case Var::AF: return HOIST_FIELD_AF;
  case Var::ZF: return HOIST_FIELD_ZF;
  case Var::SF: return HOIST_FIELD_SF;
  case Var::DF: return HOIST_FIELD_DF;
  case Var::OF: return HOIST_FIELD_OF;
  case Var::FS_BASE: return HOIST_FIELD_FS_BASE;
  case Var::GS_BASE: return HOIST_FIELD_GS_BASE;
  case Var::MXCSR: return HOIST_FIELD_MXCSR;
  case Var::FPU_CW: return HOIST_FIELD_FPU_CW;
  case Var::FPU_SW: return HOIST_FIELD_FPU_SW;
  case Var::FPU_TW: return HOIST_FIELD_FPU_TW;
  default:
    if (isVectorVar(var))
      return HOIST_FIELD_YMM;
    if (isX87Var(var))
      return HOIST_FIELD_ST;
    if (isZmmHighVar(var))
      return HOIST_FIELD_ZMM_HI256;
    if (isZmmVar(var))
      return HOIST_FIELD_HI16_ZMM;
    if (isMaskVar(var))
      return HOIST_FIELD_K;
    return HOIST_FIELD_COUNT;
  }
}

unsigned stateIndexOf(Var var) {
  if (isVectorVar(var))
    return static_cast<unsigned>(var) - static_cast<unsigned>(Var::YMM0);
  if (isX87Var(var))
    return static_cast<unsigned>(var) - static_cast<unsigned>(Var::ST0);
  if (isZmmHighVar(var))
    return static_cast<unsigned>(var) - static_cast<unsigned>(Var::ZMMHI0);
  if (isZmmVar(var))
    return static_cast<unsigned>(var) - static_cast<unsigned>(Var::ZMM16);
  if (isMaskVar(var))
    return static_cast<unsigned>(var) - static_cast<unsigned>(Var::K0);
  return 0;
}

llvm::FixedVectorType *vectorVarType(llvm::LLVMContext &context) {
  return llvm::FixedVectorType::get(llvm::Type::getInt64Ty(context), 4);
}

llvm::Type *varType(llvm::LLVMContext &context, Var var) {
  if (isFlagVar(var))
    return llvm::Type::getInt1Ty(context);
  if (isVectorVar(var) || isZmmHighVar(var))
    return vectorVarType(context);
  if (isZmmVar(var))
    return llvm::FixedVectorType::get(llvm::Type::getInt64Ty(context), 8);
  if (isX87Var(var))
    return llvm::Type::getX86_FP80Ty(context);
  switch (var) {
  case Var::MXCSR: return llvm::Type::getInt32Ty(context);
  case Var::FPU_CW:
  case Var::FPU_SW:
  case Var::FPU_TW: return llvm::Type::getInt16Ty(context);
  default: return llvm::Type::getInt64Ty(context);
  }
}

const char *varName(Var var) {
  static const char *const Names[] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                      "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15",
                                      "cf",  "pf",  "af",  "zf",  "sf",  "df",  "of",
                                      "fs_base", "gs_base", "mxcsr", "fpu_cw", "fpu_sw", "fpu_tw",
                                      "ymm0", "ymm1", "ymm2", "ymm3", "ymm4", "ymm5", "ymm6",
                                      "ymm7", "ymm8", "ymm9", "ymm10", "ymm11", "ymm12", "ymm13",
                                      "ymm14", "ymm15", "st0", "st1", "st2", "st3", "st4", "st5",
                                      "st6", "st7",
                                      "zmmhi0", "zmmhi1", "zmmhi2", "zmmhi3", "zmmhi4",
                                      "zmmhi5", "zmmhi6", "zmmhi7", "zmmhi8", "zmmhi9",
                                      "zmmhi10", "zmmhi11", "zmmhi12", "zmmhi13", "zmmhi14",
                                      "zmmhi15", "zmm16", "zmm17", "zmm18", "zmm19", "zmm20",
                                      "zmm21", "zmm22", "zmm23", "zmm24", "zmm25", "zmm26",
                                      "zmm27", "zmm28", "zmm29", "zmm30", "zmm31", "k0", "k1",
                                      "k2", "k3", "k4", "k5", "k6", "k7"};
  static_assert(sizeof Names / sizeof *Names == NumVars);
  return Names[static_cast<unsigned>(var)];
}

namespace {

std::optional<RegisterSlice> computeGprSlice(ZydisRegister reg) {
  ZydisRegisterClass regClass = ZydisRegisterGetClass(reg);
  unsigned bits;
  switch (regClass) {
  case ZYDIS_REGCLASS_GPR8: bits = 8; break;
  case ZYDIS_REGCLASS_GPR16: bits = 16; break;
  case ZYDIS_REGCLASS_GPR32: bits = 32; break;
  case ZYDIS_REGCLASS_GPR64: bits = 64; break;
  default: return std::nullopt;
  }
  ZydisRegister full = ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, reg);
  int8_t id = ZydisRegisterGetId(full);
  if (id < 0 || id > 15)
    return std::nullopt;
  bool highByte = reg == ZYDIS_REGISTER_AH || reg == ZYDIS_REGISTER_CH ||
                  reg == ZYDIS_REGISTER_DH || reg == ZYDIS_REGISTER_BH;
  return RegisterSlice{gprVar(static_cast<unsigned>(id)), highByte ? 8u : 0u, bits, bits == 32};
}

} // namespace

std::optional<RegisterSlice> gprSlice(ZydisRegister reg) {
  // Asked for every register operand the lifter reads or writes: a table built once instead of
  // three Zydis look-ups each time (2% of the raw lift).
  using Table = std::array<std::optional<RegisterSlice>, ZYDIS_REGISTER_MAX_VALUE + 1>;
  static const Table table = [] {
    Table slices;
    for (unsigned reg = 0; reg <= ZYDIS_REGISTER_MAX_VALUE; ++reg)
      slices[reg] = computeGprSlice(static_cast<ZydisRegister>(reg));
    return slices;
  }();
  if (static_cast<unsigned>(reg) > ZYDIS_REGISTER_MAX_VALUE)
    return std::nullopt;
  return table[reg];
}

bool isSysVCalleeSaved(ZydisRegister reg) {
  switch (reg) {
  case ZYDIS_REGISTER_RBX:
  case ZYDIS_REGISTER_RBP:
  case ZYDIS_REGISTER_R12:
  case ZYDIS_REGISTER_R13:
  case ZYDIS_REGISTER_R14:
  case ZYDIS_REGISTER_R15:
    return true;
  default:
    return false;
  }
}

} // namespace hoist
