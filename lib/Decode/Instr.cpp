#include "Decode/Instr.h"

#include <cinttypes>
#include <cstdio>

namespace hoist {

const char *mnemonicName(ZydisMnemonic mnemonic) {
  const char *name = ZydisMnemonicGetString(mnemonic);
  return name ? name : "invalid";
}

const char *registerName(ZydisRegister reg) {
  const char *name = ZydisRegisterGetString(reg);
  return name ? name : "none";
}

const char *Instr::mnemonicName() const { return hoist::mnemonicName(mnemonic); }

bool Instr::isGeneralPurpose() const {
  switch (isaExt) {
  case ZYDIS_ISA_EXT_BASE:
  case ZYDIS_ISA_EXT_LONGMODE:
  case ZYDIS_ISA_EXT_BMI1:
  case ZYDIS_ISA_EXT_BMI2:
  case ZYDIS_ISA_EXT_ADOX_ADCX:
  case ZYDIS_ISA_EXT_LZCNT:
  case ZYDIS_ISA_EXT_MOVBE:
  case ZYDIS_ISA_EXT_RDRAND:
  case ZYDIS_ISA_EXT_RDSEED:
  case ZYDIS_ISA_EXT_RDPID:
  case ZYDIS_ISA_EXT_RDTSCP:
  case ZYDIS_ISA_EXT_PAUSE:
  case ZYDIS_ISA_EXT_CET:
  case ZYDIS_ISA_EXT_TBM:
    return true;
  default:
    return false;
  }
}

std::string Instr::text() const {
  // Formatting is for messages only, so decoding the bytes again here keeps Instr small.
  ZydisDisassembledInstruction disassembled;
  if (!ZYAN_SUCCESS(ZydisDisassembleIntel(ZYDIS_MACHINE_MODE_LONG_64, address, bytes.data(),
                                          length, &disassembled)))
    return "<undecodable>";
  return disassembled.text;
}

std::string Instr::describe() const {
  char prefix[32];
  std::snprintf(prefix, sizeof prefix, "0x%" PRIx64 ": ", address);
  return prefix + text();
}

} // namespace hoist
