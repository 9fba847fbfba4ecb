// Which status flags an instruction sequence may leave undefined, instruction by instruction,
// so that the sequence tests compare exactly the flags the manual defines at the point where
// a run stops, and so that the generator never lets an instruction test an undefined flag.
//
// An instruction's undefined flags can depend on its operands (a shift by cl leaves AF and OF
// undefined for some counts, none for a count of 0), and the sequence tests do not know the
// operands each instruction sees. So the effect of an instruction is summarized over sample
// states (UndefinedFlags.h's rules for every count 0..255 and some random states): the flags it
// may leave undefined, and the flags it surely defines. A flag is masked where some path to
// that point may have left it undefined and no instruction on the path surely defined it after.
#pragma once

#include "Decode/Instr.h"

#include <cstdint>
#include <vector>

namespace hoist::test {

struct FlagEffect {
  uint32_t tested = 0;        ///< flags it reads (Zydis)
  uint32_t defines = 0;       ///< flags it writes with a defined value from every input
  uint32_t mayUndefine = 0;   ///< flags it leaves undefined for some input
  /// Some input leaves part of a register undefined (bsf with a zero source on Intel, a
  /// 16-bit shld by more than 16): such forms are not used in sequences.
  bool undefinesRegister = false;
  uint32_t mxcsr = 0;   ///< MXCSR bits not compared after it (exception flags)
  uint16_t fsw = 0;

  /// The maybe-undefined flags after the instruction, from those before it.
  uint32_t apply(uint32_t undefinedBefore) const {
    return (undefinedBefore & ~defines) | mayUndefine;
  }
};

FlagEffect flagEffect(const Instr &instr);

/// The maybe-undefined flags of straight-line code with forward conditional jumps: entry i is
/// at the start of instruction i, and the last entry (index code.size()) at `end`, the address
/// after the last instruction. Jumps to `end` or between instructions join their paths.
struct SequenceFlags {
  std::vector<uint32_t> undefinedBefore;
  uint32_t mxcsr = 0;   ///< union over the instructions
  uint16_t fsw = 0;
  /// Index of the first instruction that tests a flag some path leaves undefined; -1 if none.
  int readsUndefined = -1;
};
SequenceFlags sequenceFlags(const std::vector<Instr> &code);

} // namespace hoist::test
