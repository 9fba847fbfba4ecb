#include "Semantics/Semantics.h"

namespace hoist {

// Each family lists its mnemonics in the encoding order of the conditions.
static constexpr std::array<ZydisMnemonic, 16> Jcc = { {
    ZYDIS_MNEMONIC_JO, ZYDIS_MNEMONIC_JNO, ZYDIS_MNEMONIC_JB,  ZYDIS_MNEMONIC_JNB,
      ZYDIS_MNEMONIC_JZ, ZYDIS_MNEMONIC_JNZ, ZYDIS_MNEMONIC_JBE, ZYDIS_MNEMONIC_JNBE,
      ZYDIS_MNEMONIC_JS, ZYDIS_MNEMONIC_JNS, ZYDIS_MNEMONIC_JP,  ZYDIS_MNEMONIC_JNP,
      ZYDIS_MNEMONIC_JL, ZYDIS_MNEMONIC_JNL, ZYDIS_MNEMONIC_JLE, ZYDIS_MNEMONIC_JNLE}};
static constexpr std::array<ZydisMnemonic, 16> Setcc = { {
    ZYDIS_MNEMONIC_SETO, ZYDIS_MNEMONIC_SETNO, ZYDIS_MNEMONIC_SETB,  ZYDIS_MNEMONIC_SETNB,
      ZYDIS_MNEMONIC_SETZ, ZYDIS_MNEMONIC_SETNZ, ZYDIS_MNEMONIC_SETBE, ZYDIS_MNEMONIC_SETNBE,
      ZYDIS_MNEMONIC_SETS, ZYDIS_MNEMONIC_SETNS, ZYDIS_MNEMONIC_SETP,  ZYDIS_MNEMONIC_SETNP,
      ZYDIS_MNEMONIC_SETL, ZYDIS_MNEMONIC_SETNL, ZYDIS_MNEMONIC_SETLE, ZYDIS_MNEMONIC_SETNLE}};
static constexpr std::array<ZydisMnemonic, 16> Cmovcc = { {
    ZYDIS_MNEMONIC_CMOVO, ZYDIS_MNEMONIC_CMOVNO, ZYDIS_MNEMONIC_CMOVB,  ZYDIS_MNEMONIC_CMOVNB,
      ZYDIS_MNEMONIC_CMOVZ, ZYDIS_MNEMONIC_CMOVNZ, ZYDIS_MNEMONIC_CMOVBE, ZYDIS_MNEMONIC_CMOVNBE,
      ZYDIS_MNEMONIC_CMOVS, ZYDIS_MNEMONIC_CMOVNS, ZYDIS_MNEMONIC_CMOVP,  ZYDIS_MNEMONIC_CMOVNP,
      ZYDIS_MNEMONIC_CMOVL, ZYDIS_MNEMONIC_CMOVNL, ZYDIS_MNEMONIC_CMOVLE, ZYDIS_MNEMONIC_CMOVNLE}};

const std::array<ZydisMnemonic, 16> &conditionalMnemonics(ConditionalFamily family) {
  switch (family) {
  case ConditionalFamily::Jcc:
    return Jcc;
  case ConditionalFamily::Setcc:
    return Setcc;
  case ConditionalFamily::Cmovcc:
    break;
  }
  return Cmovcc;
}

std::optional<Condition> conditionOf(ZydisMnemonic mnemonic) {
  for (ConditionalFamily family :
       {ConditionalFamily::Jcc, ConditionalFamily::Setcc, ConditionalFamily::Cmovcc}) {
    const auto &mnemonics = conditionalMnemonics(family);
    for (unsigned code = 0; code < mnemonics.size(); ++code)
      if (mnemonics[code] == mnemonic)
        return static_cast<Condition>(code);
  }
  return std::nullopt;
}

} // namespace hoist
