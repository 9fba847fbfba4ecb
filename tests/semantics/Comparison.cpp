#include "Comparison.h"

#include "StateGenerator.h"

#include <llvm/Support/FormatVariadic.h>

namespace hoist::test {
namespace {

const char *const GprNames[16] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                  "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};

uint64_t operandValue(const Instr &instr, const Operand &operand, const CpuState &in) {
  if (operand.isImm())
    return operand.imm;
  if (operand.isReg()) {
    int index = gprIndex(operand.reg);
    if (index < 0)
      return 0;
    uint64_t value = in.gpr[index];
    bool highByte = operand.reg == ZYDIS_REGISTER_AH || operand.reg == ZYDIS_REGISTER_CH ||
                    operand.reg == ZYDIS_REGISTER_DH || operand.reg == ZYDIS_REGISTER_BH;
    return highByte ? value >> 8 : value;
  }
  return 0;
}

bool isShift(ZydisMnemonic m) {
  return m == ZYDIS_MNEMONIC_SHL || m == ZYDIS_MNEMONIC_SHR || m == ZYDIS_MNEMONIC_SAR;
}

} // namespace

uint32_t undefinedFlags(const Instr &instr, const CpuState &in) {
  if (isShift(instr.mnemonic)) {
    // SDM vol. 2, SAL/SAR/SHL/SHR: with a masked count of 0 no flag changes; otherwise AF is
    // undefined, OF is undefined unless the count is 1, and CF is undefined for shl/shr when
    // the count is at least the operand width (only reachable for 8- and 16-bit operands).
    unsigned bits = instr.op(0).bits;
    uint64_t count = operandValue(instr, instr.op(1), in) & (bits == 64 ? 63 : 31);
    if (count == 0)
      return 0;
    uint32_t undefined = FlagAF;
    if (count > 1)
      undefined |= FlagOF;
    if (count >= bits && instr.mnemonic != ZYDIS_MNEMONIC_SAR)
      undefined |= FlagCF;
    return undefined;
  }
  return instr.flagsUndefined;
}

std::string describeState(const CpuState &s) {
  std::string out;
  for (unsigned i = 0; i < 16; ++i)
    out += llvm::formatv("{0}={1:x} ", GprNames[i], s.gpr[i]).str();
  out += llvm::formatv("cf={0} pf={1} af={2} zf={3} sf={4} df={5} of={6}", s.cf, s.pf, s.af,
                       s.zf, s.sf, s.df, s.of)
             .str();
  return out;
}

std::string compareRuns(const Instr &instr, const CpuState &in, const CpuState &native,
                        const CpuState &lifted, const std::vector<uint8_t> &nativeArena,
                        const std::vector<uint8_t> &liftedArena, uint64_t arenaAddress) {
  std::string differences;
  auto differ = [&](const char *name, uint64_t a, uint64_t b) {
    if (a != b)
      differences += llvm::formatv("{0} native={1:x} lifted={2:x}; ", name, a, b).str();
  };
  for (unsigned i = 0; i < 16; ++i)
    differ(GprNames[i], native.gpr[i], lifted.gpr[i]);
  differ("rip", native.rip, lifted.rip);
  uint32_t undefined = undefinedFlags(instr, in);
  struct FlagField {
    const char *name;
    uint32_t mask;
    uint8_t CpuState::*field;
  };
  static const FlagField Flags[] = {{"cf", FlagCF, &CpuState::cf}, {"pf", FlagPF, &CpuState::pf},
                                    {"af", FlagAF, &CpuState::af}, {"zf", FlagZF, &CpuState::zf},
                                    {"sf", FlagSF, &CpuState::sf}, {"df", FlagDF, &CpuState::df},
                                    {"of", FlagOF, &CpuState::of}};
  for (const FlagField &flag : Flags)
    if (!(undefined & flag.mask))
      differ(flag.name, native.*flag.field, lifted.*flag.field);
  for (size_t i = 0; i < nativeArena.size(); ++i)
    if (nativeArena[i] != liftedArena[i]) {
      differences += llvm::formatv("memory {0:x} native={1:x-2} lifted={2:x-2}; ",
                                   arenaAddress + i, nativeArena[i], liftedArena[i])
                         .str();
      break;
    }
  return differences;
}

} // namespace hoist::test
