// Input states for one instruction form: boundary values, every combination of the status
// flags, and random values, with the registers that form memory addresses pointed into the
// data page and the stack pointer into the stack, so that both runs touch only the arena.
#pragma once

#include "CpuState.h"
#include "Decode/Instr.h"
#include "Random.h"

#include <cstdint>
#include <vector>

namespace hoist::test {

struct FloatFormat;

class StateGenerator {
public:
  StateGenerator(const Instr &instr, uint64_t seed);

  /// Input state number `index` (the 64 flag combinations come first) and the arena bytes it
  /// starts with. False when no state that keeps memory inside the arena was found.
  bool generate(unsigned index, CpuState &state, std::vector<uint8_t> &arena);

private:
  uint64_t interestingValue();
  // FpStateGenerator.cpp
  void generateFpState(CpuState &state);
  uint64_t vectorLane();
  void extendedValue(uint8_t out[10]);
  void plantFloatingPointOperand(const CpuState &state, std::vector<uint8_t> &arena);
  bool placeMemoryOperands(CpuState &state);
  bool placeVsibOperands(CpuState &state);
  bool placeVsibOperand(const Operand &operand, CpuState &state);
  void shapeStringState(unsigned index, CpuState &state, std::vector<uint8_t> &arena);
  void plantBranchTargets(CpuState &state, std::vector<uint8_t> &arena);
  // Avx512StateGenerator.cpp: the zmm upper halves, zmm16-31 and the opmask registers.
  bool usesAvx512State(unsigned index) const;
  void generateAvx512State(unsigned index, CpuState &state, std::vector<uint8_t> &arena);
  // RoundingStateGenerator.cpp: lanes at the edges of the static roundings' arithmetic.
  void shapeRoundingLanes(unsigned index, CpuState &state);
  uint64_t boundaryFloat(const FloatFormat &format);
  // AreaStateGenerator.cpp: fxsave/fxrstor and the xsave family.
  bool shapeStateArea(CpuState &state, std::vector<uint8_t> &arena);
  void initializeSomeComponents(FpState &fp);
  uint64_t xrstorHeader(uint8_t *header);

  const Instr &instr_;
  Random random_;
};

/// Instructions whose results Hoist computes for every rounding mode (conversions to integer,
/// round*, fist, frndint): their states vary MXCSR.RC and the x87 RC; every other form runs in
/// round-to-nearest, the only mode Hoist's arithmetic models (docs/DESIGN.md).
bool roundingControlVaries(const Instr &instr);

/// The register-file index (RAX=0 ... R15=15) of a 64-bit GPR or one of its parts, or -1.
int gprIndex(ZydisRegister reg);

/// The address `operand` (a memory operand of `instr`) accesses from `state`.
uint64_t effectiveAddress(const Instr &instr, const Operand &operand, const CpuState &state);
/// The segment base an operand's address adds: layout::GsBase for GS, else 0 (FS stays the
/// host's thread pointer, which the harness cannot move, so no form uses it).
uint64_t segmentBase(const Operand &operand);

} // namespace hoist::test
