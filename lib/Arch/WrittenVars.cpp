#include "Arch/WrittenVars.h"

namespace hoist {

namespace {

constexpr std::pair<FlagMask, Var> FlagVars[] = {
    {FlagCF, Var::CF}, {FlagPF, Var::PF}, {FlagAF, Var::AF}, {FlagZF, Var::ZF},
    {FlagSF, Var::SF}, {FlagDF, Var::DF}, {FlagOF, Var::OF},
};

void addRange(VarSet &set, Var first, Var last) {
  for (unsigned i = static_cast<unsigned>(first); i <= static_cast<unsigned>(last); ++i)
    set.set(i);
}

/// The x87 stack renames its registers on push and pop (Registers.h), so an instruction on
/// any of them may write all of them, and the status and tag words.
void addX87(VarSet &set) {
  addRange(set, Var::ST0, Var::ST7);
  set.set(static_cast<unsigned>(Var::FPU_SW));
  set.set(static_cast<unsigned>(Var::FPU_TW));
}

void addRegister(VarSet &set, ZydisRegister reg) {
  if (std::optional<RegisterSlice> slice = gprSlice(reg)) {
    set.set(static_cast<unsigned>(slice->var));
    return;
  }
  switch (ZydisRegisterGetClass(reg)) {
  case ZYDIS_REGCLASS_XMM:
  case ZYDIS_REGCLASS_YMM:
  case ZYDIS_REGCLASS_ZMM: {
    // A VEX or EVEX write zeroes the upper half of zmm 0-15 too; a legacy one leaves it as
    // State holds it, which storeAll does not store back.
    unsigned id = ZydisRegisterGetId(reg);
    if (id < 16) {
      set.set(static_cast<unsigned>(ymmVar(id)));
      set.set(static_cast<unsigned>(zmmHighVar(id)));
    } else if (id < 32) {
      set.set(static_cast<unsigned>(zmmVar(id)));
    }
    return;
  }
  case ZYDIS_REGCLASS_MASK: {
    unsigned id = ZydisRegisterGetId(reg);
    if (id < 8)
      set.set(static_cast<unsigned>(maskVar(id)));
    return;
  }
  case ZYDIS_REGCLASS_X87:
  case ZYDIS_REGCLASS_MMX:
    addX87(set);
    return;
  case ZYDIS_REGCLASS_FLAGS:
    return;   // listed as written by every flag-setting instruction: the flag masks say which
  default:
    break;
  }
  switch (reg) {
  case ZYDIS_REGISTER_MXCSR: set.set(static_cast<unsigned>(Var::MXCSR)); return;
  case ZYDIS_REGISTER_X87CONTROL: set.set(static_cast<unsigned>(Var::FPU_CW)); return;
  case ZYDIS_REGISTER_X87STATUS: set.set(static_cast<unsigned>(Var::FPU_SW)); return;
  case ZYDIS_REGISTER_X87TAG: set.set(static_cast<unsigned>(Var::FPU_TW)); return;
  case ZYDIS_REGISTER_FS: set.set(static_cast<unsigned>(Var::FS_BASE)); return;
  case ZYDIS_REGISTER_GS: set.set(static_cast<unsigned>(Var::GS_BASE)); return;
  default: return;
  }
}

/// Instructions that load a whole saved register state (xrstor, fxrstor, ...) or clear the
/// vector registers without naming them as operands.
bool writesBeyondItsOperands(const Instr &instr) {
  switch (instr.isaExt) {
  case ZYDIS_ISA_EXT_XSAVE:
  case ZYDIS_ISA_EXT_XSAVEC:
  case ZYDIS_ISA_EXT_XSAVEOPT:
  case ZYDIS_ISA_EXT_XSAVES:
    return true;
  default:
    break;
  }
  switch (instr.mnemonic) {
  case ZYDIS_MNEMONIC_FXRSTOR:
  case ZYDIS_MNEMONIC_FXRSTOR64:
  case ZYDIS_MNEMONIC_VZEROUPPER:
  case ZYDIS_MNEMONIC_VZEROALL:
    return true;
  default:
    return false;
  }
}

} // namespace

VarSet varsWrittenBy(const Instr &instr) {
  VarSet set;
  if (writesBeyondItsOperands(instr))
    return set.set();
  for (unsigned i = 0; i < instr.operandCount; ++i) {
    const Operand &operand = instr.operands[i];
    if (operand.isReg() && operand.written)
      addRegister(set, operand.reg);
  }
  if (instr.category == ZYDIS_CATEGORY_STRINGOP) {
    // The decoder lists the string operands as memory at [rsi] and [rdi], not the pointers'
    // (and with a rep prefix the count's) updates.
    set.set(static_cast<unsigned>(Var::RSI));
    set.set(static_cast<unsigned>(Var::RDI));
    set.set(static_cast<unsigned>(Var::RCX));
  }
  uint32_t flags =
      instr.flagsModified | instr.flagsSet0 | instr.flagsSet1 | instr.flagsUndefined;
  for (auto [mask, var] : FlagVars)
    if (flags & mask)
      set.set(static_cast<unsigned>(var));
  if (instr.isaExt == ZYDIS_ISA_EXT_X87 || instr.isaExt == ZYDIS_ISA_EXT_MMX ||
      instr.fpuFlagsModified || instr.fpuFlagsUndefined) {
    addX87(set);
    set.set(static_cast<unsigned>(Var::FPU_CW));
  }
  return set;
}

} // namespace hoist
