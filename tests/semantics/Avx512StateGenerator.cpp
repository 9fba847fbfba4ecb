// AVX-512 state for the forms that use it: the upper halves of zmm0-15, zmm16-31 and the
// opmask registers, with masks all ones, all zeros or random; every fourth state made of a
// few byte values so that compares find equal, greater and smaller elements, and every eighth
// of small quadwords, so that shift counts fall inside the element width.
#include "HostModel.h"
#include "StateGenerator.h"

#include "CodeLayout.h"

#include <cstring>
#include <iterator>

namespace hoist::test {
namespace {

/// Bytes where element compares of every width meet equality, signs and the extremes.
constexpr uint8_t FewBytes[] = {0x00, 0x01, 0x7f, 0x80, 0xff};

uint64_t fewBytesLane(Random &random) {
  uint64_t lane = 0;
  for (unsigned i = 0; i < 8; ++i)
    lane |= uint64_t(FewBytes[random.below(std::size(FewBytes))]) << (8 * i);
  return lane;
}

} // namespace

bool StateGenerator::usesAvx512State(unsigned index) const {
  if (!hostRunsAvx512())
    return false;
  if (instr_.isAvx512())
    return true;
  // Now and then a form of SSE or AVX runs with the AVX-512 state loaded too: its writes
  // must keep (legacy) or zero (VEX) the zmm bits above its register, as the CPU does.
  for (unsigned i = 0; i < instr_.operandCount; ++i) {
    const Operand &operand = instr_.op(i);
    ZydisRegisterClass regClass =
        operand.isReg() ? ZydisRegisterGetClass(operand.reg) : ZYDIS_REGCLASS_INVALID;
    if (regClass == ZYDIS_REGCLASS_XMM || regClass == ZYDIS_REGCLASS_YMM)
      return index % 16 == 15;
  }
  return false;
}

void StateGenerator::generateAvx512State(unsigned index, CpuState &state,
                                         std::vector<uint8_t> &arena) {
  FpState &fp = state.fp;
  fp.avx512 = true;
  bool fewBytes = instr_.isAvx512() && index % 4 == 3;
  // Small quadwords: shift counts (vpsrlq by xmm, vpsllvd) inside the element width.
  bool small = instr_.isAvx512() && index % 8 == 6;
  auto lane = [&] {
    return fewBytes ? fewBytesLane(random_) : small ? random_.below(80) : vectorLane();
  };
  if (fewBytes || small)
    for (auto &reg : fp.ymm)
      for (uint64_t &value : reg)
        value = lane();
  for (auto &reg : fp.zmmHigh)
    for (uint64_t &value : reg)
      value = lane();
  for (auto &reg : fp.zmm16)
    for (uint64_t &value : reg)
      value = lane();
  for (uint64_t &mask : fp.k) {
    switch (index % 4) {
    case 0: mask = ~uint64_t(0); break;
    case 1: mask = 0; break;
    default: mask = random_.next(); break;
    }
  }
  if (!fewBytes && !small)
    return;
  for (unsigned i = 0; i < instr_.operandCount; ++i) {
    const Operand &operand = instr_.op(i);
    if (!operand.isMem() || operand.isAgen)
      continue;
    uint64_t offset = effectiveAddress(instr_, operand, state) - layout::ArenaAddress;
    for (uint64_t at = offset; at < offset + 64 && at + 8 <= arena.size(); at += 8) {
      uint64_t value = fewBytes ? fewBytesLane(random_) : random_.below(80);
      std::memcpy(arena.data() + at, &value, 8);
    }
  }
}

} // namespace hoist::test
