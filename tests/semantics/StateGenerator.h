// Input states for one instruction form: boundary values, every combination of the status
// flags, and random values, with the registers that form memory addresses pointed into the
// data page and the stack pointer into the stack, so that both runs touch only the arena.
#pragma once

#include "Decode/Instr.h"
#include "NativeRunner.h"

#include <cstdint>
#include <random>
#include <vector>

namespace hoist::test {

class StateGenerator {
public:
  StateGenerator(const Instr &instr, const NativeRunner &runner, uint64_t seed);

  /// Input state number `index` (flag combinations come first) and the arena it starts with.
  /// False when no state that keeps memory inside the arena was found.
  bool generate(unsigned index, CpuState &state, std::vector<uint8_t> &arena);

private:
  uint64_t interestingValue();
  bool placeMemoryOperands(CpuState &state);
  void plantBranchTargets(CpuState &state, std::vector<uint8_t> &arena);
  uint64_t effectiveAddress(const Operand &operand, const CpuState &state) const;

  const Instr &instr_;
  const NativeRunner &runner_;
  std::mt19937_64 random_;
};

/// The register-file index (RAX=0 ... R15=15) of a 64-bit GPR or one of its parts, or -1.
int gprIndex(ZydisRegister reg);

} // namespace hoist::test
