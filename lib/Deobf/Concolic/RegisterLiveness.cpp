#include "Deobf/Concolic/RegisterLiveness.h"

#include "Arch/Registers.h"

namespace hoist {
namespace {

LiveSet bitOf(Var var) { return LiveSet(1) << static_cast<unsigned>(var); }

/// RFLAGS bit of each flag variable, in Var order (CF PF AF ZF SF DF OF).
constexpr unsigned FlagBits[] = {0, 2, 4, 6, 7, 10, 11};

LiveSet flagsOf(uint32_t rflags) {
  LiveSet set = 0;
  for (unsigned i = 0; i < 7; ++i)
    if (rflags & (1u << FlagBits[i]))
      set |= LiveSet(1) << (16 + i);
  return set;
}

void addRegister(ZydisRegister reg, LiveSet &set) {
  if (std::optional<RegisterSlice> slice = gprSlice(reg))
    set |= bitOf(slice->var);
}

struct Effect {
  LiveSet uses = 0;
  LiveSet defs = 0;
};

Effect effectOf(const Instr &instr, CallingConvention convention) {
  Effect effect;
  if (instr.category == ZYDIS_CATEGORY_CALL) {
    // The ABI's view: arguments (and RAX, the vector count of a variadic call) are read,
    // the caller-saved registers and the flags are clobbered.
    for (unsigned i = 0; i < 16; ++i) {
      Var var = gprVar(i);
      HoistStateField field = stateFieldOf(var);
      for (HoistStateField argument : integerArgumentRegisters(convention))
        if (argument == field)
          effect.uses |= bitOf(var);
      if (!isCalleeSaved(field, convention) && var != Var::RSP)
        effect.defs |= bitOf(var);
    }
    effect.uses |= bitOf(Var::RAX) | bitOf(Var::RSP);
    for (unsigned i = 0; i < instr.operandCount; ++i)
      if (instr.op(i).isMem() || instr.op(i).isReg())
        if (instr.op(i).read) {
          addRegister(instr.op(i).reg, effect.uses);
          addRegister(instr.op(i).base, effect.uses);
          addRegister(instr.op(i).index, effect.uses);
        }
    effect.defs |= flagsOf(0xffffffffu);
    return effect;
  }
  for (unsigned i = 0; i < instr.operandCount; ++i) {
    const Operand &operand = instr.op(i);
    if (operand.isMem()) {
      addRegister(operand.base, effect.uses);
      addRegister(operand.index, effect.uses);
    } else if (operand.isReg()) {
      std::optional<RegisterSlice> slice = gprSlice(operand.reg);
      if (!slice)
        continue;
      if (operand.read)
        effect.uses |= bitOf(slice->var);
      if (operand.written) {
        // A write of 32 bits or more replaces the whole register; a narrower one keeps the
        // rest, so the old value is read.
        if (slice->bits >= 32)
          effect.defs |= bitOf(slice->var);
        else
          effect.uses |= bitOf(slice->var);
      }
    }
  }
  effect.uses |= flagsOf(instr.flagsTested);
  effect.defs |= flagsOf(instr.flagsModified | instr.flagsUndefined);
  return effect;
}

/// A block that ends the process (ud2, hlt, a call that never returns) reads nothing after.
bool endsProcess(const MachineBlock &block) {
  if (block.end == MachineBlock::End::NoReturnCall)
    return true;
  if (block.end != MachineBlock::End::Terminator || block.instrs.empty())
    return false;
  ZydisMnemonic last = block.instrs.back()->mnemonic;
  return last == ZYDIS_MNEMONIC_UD2 || last == ZYDIS_MNEMONIC_HLT;
}

} // namespace

RegisterLiveness::RegisterLiveness(const ExploredFunction &function,
                                   CallingConvention convention) {
  // Per block: what it reads before writing (gen) and what it writes (kill).
  std::map<uint64_t, Effect> summary;
  for (const auto &[start, block] : function.blocks) {
    Effect total;
    for (auto it = block.instrs.rbegin(); it != block.instrs.rend(); ++it) {
      Effect effect = effectOf(**it, convention);
      total.uses = (total.uses & ~effect.defs) | effect.uses;
      total.defs |= effect.defs;
    }
    summary[start] = total;
    liveIn_[start] = 0;
  }
  // Backward dataflow to the fixed point; sets only grow, so it ends.
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = function.blocks.rbegin(); it != function.blocks.rend(); ++it) {
      const MachineBlock &block = it->second;
      LiveSet out = 0;
      bool known = !block.successors.empty() || block.end == MachineBlock::End::Fallthrough;
      if (!known && !endsProcess(block))
        out = AllLive;   // a return, an unresolved jump: anything may be read
      for (uint64_t successor : block.successors) {
        auto found = liveIn_.find(successor);
        out |= found == liveIn_.end() ? AllLive : found->second;
      }
      const Effect &effect = summary[it->first];
      LiveSet in = (out & ~effect.defs) | effect.uses;
      LiveSet &current = liveIn_[it->first];
      if ((in | current) != current) {
        current |= in;
        changed = true;
      }
    }
  }
}

std::optional<LiveSet> RegisterLiveness::liveAt(uint64_t address) const {
  auto found = liveIn_.find(address);
  if (found == liveIn_.end())
    return std::nullopt;
  return found->second | bitOf(Var::RSP);
}

} // namespace hoist
