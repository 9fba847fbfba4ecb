#include "SequenceFlags.h"

#include "Random.h"
#include "UndefinedFlags.h"

#include <map>
#include <string>

namespace hoist::test {
namespace {

/// The instructions whose count can be 0 after masking (shifts, rotates, shld/shrd), which then
/// change no flag at all: they define no flag for every input, whatever Zydis lists.
bool mayChangeNoFlag(const Instr &instr) {
  return instr.category == ZYDIS_CATEGORY_SHIFT || instr.category == ZYDIS_CATEGORY_ROTATE ||
         instr.mnemonic == ZYDIS_MNEMONIC_SHLD || instr.mnemonic == ZYDIS_MNEMONIC_SHRD;
}

} // namespace

FlagEffect flagEffect(const Instr &instr) {
  FlagEffect effect;
  effect.tested = instr.flagsTested;
  // Every count 0..255 in every register (so cl and any source see it), then random values
  // for the rules that look at whole registers.
  Random random(0x5e9);
  for (unsigned sample = 0; sample < 256 + 64; ++sample) {
    CpuState in{};
    for (uint64_t &gpr : in.gpr)
      gpr = sample < 256 ? sample : random.next();
    Undefined undefined = undefinedEffects(instr, in);
    effect.mayUndefine |= undefined.flags;
    effect.mxcsr |= undefined.mxcsr;
    effect.fsw |= undefined.fsw;
    for (uint64_t bits : undefined.registerBits)
      effect.undefinesRegister |= bits != 0;
  }
  effect.mayUndefine &= StatusFlags;
  if (!mayChangeNoFlag(instr))
    effect.defines = (instr.flagsModified | instr.flagsSet0 | instr.flagsSet1) &
                     ~effect.mayUndefine & (StatusFlags | FlagDF);
  return effect;
}

SequenceFlags sequenceFlags(const std::vector<Instr> &code) {
  SequenceFlags result;
  result.undefinedBefore.assign(code.size() + 1, 0);
  // Address of each instruction start (and the end) to its index, for the jumps' targets.
  std::map<uint64_t, size_t> indexAt;
  for (size_t i = 0; i < code.size(); ++i)
    indexAt[code[i].address] = i;
  if (!code.empty())
    indexAt[code.back().next()] = code.size();
  // Every jump goes forward, so one pass in address order sees each join's paths before it.
  std::vector<uint32_t> joined(code.size() + 1, 0);
  uint32_t undefined = 0;
  for (size_t i = 0; i < code.size(); ++i) {
    undefined |= joined[i];
    result.undefinedBefore[i] = undefined;
    const Instr &instr = code[i];
    // Summarizing takes hundreds of rule evaluations; the same bytes have the same effect.
    static std::map<std::string, FlagEffect> effects;
    std::string key(reinterpret_cast<const char *>(instr.bytes.data()), instr.length);
    auto known = effects.find(key);
    if (known == effects.end()) {
      if (effects.size() > 100000)
        effects.clear();   // setup lines with random immediates would grow it without end
      known = effects.emplace(key, flagEffect(instr)).first;
    }
    const FlagEffect &effect = known->second;
    if (result.readsUndefined < 0 && (effect.tested & undefined))
      result.readsUndefined = int(i);
    result.mxcsr |= effect.mxcsr;
    result.fsw |= effect.fsw;
    if (instr.category == ZYDIS_CATEGORY_COND_BR && instr.op(0).isImm() &&
        instr.op(0).immRelative) {
      auto target = indexAt.find(instr.next() + instr.op(0).imm);
      if (target != indexAt.end() && target->second > i)
        joined[target->second] |= undefined;   // a jcc changes no flag
    }
    undefined = effect.apply(undefined);
  }
  result.undefinedBefore[code.size()] = undefined | joined[code.size()];
  return result;
}

} // namespace hoist::test
