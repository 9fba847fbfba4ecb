#include "Arch/Registers.h"

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
  default: return HOIST_FIELD_COUNT;
  }
}

llvm::Type *varType(llvm::LLVMContext &context, Var var) {
  return isFlagVar(var) ? llvm::Type::getInt1Ty(context) : llvm::Type::getInt64Ty(context);
}

const char *varName(Var var) {
  static const char *const Names[] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                      "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15",
                                      "cf",  "pf",  "af",  "zf",  "sf",  "df",  "of",
                                      "fs_base", "gs_base"};
  return Names[static_cast<unsigned>(var)];
}

std::optional<RegisterSlice> gprSlice(ZydisRegister reg) {
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

} // namespace hoist
