// States for the instructions that save or load a whole area (fxsave/fxrstor and the xsave
// family): the area mostly aligned (a misaligned one faults), EDX:EAX selecting subsets of the
// components, components in their initial configuration, and for the loads an image worth
// loading: a valid MXCSR mostly, and for xrstor headers of both forms, valid and not.
#include "StateGenerator.h"

#include "CodeLayout.h"
#include "JitRunner.h"
#include "XsaveArea.h"

#include <cstring>

namespace hoist::test {
namespace {

/// Puts component `index` of `fp` into its initial configuration.
void initialize(FpState &fp, unsigned index) {
  switch (index) {
  case xsave::X87:
    fp.fcw = 0x037f;
    fp.fsw = 0;
    fp.ftw = 0;
    std::memset(fp.st, 0, sizeof fp.st);
    break;
  case xsave::Sse:
    for (auto &reg : fp.ymm)
      reg[0] = reg[1] = 0;
    break;
  case xsave::Avx:
    for (auto &reg : fp.ymm)
      reg[2] = reg[3] = 0;
    break;
  }
}

} // namespace

void StateGenerator::initializeSomeComponents(FpState &fp) {
  for (unsigned i = 0; i < 3; ++i)
    if (random_.below(4) == 0)
      initialize(fp, i);
  if (random_.below(4) == 0)
    fp.mxcsr = 0x1f80;
}

uint64_t StateGenerator::xrstorHeader(uint8_t *header) {
  uint64_t xcr0 = hostXcr0();
  uint64_t xstateBv = random_.below(8), xcompBv = 0;
  switch (random_.below(16)) {
  case 0:   // a component this machine has that Hoist does not model: valid, not loaded
    xstateBv |= xcr0 & (uint64_t(1) << (5 + random_.below(3)));
    break;
  case 1:   // a component not enabled in XCR0: #GP
    xstateBv |= random_.below(2) ? uint64_t(1) << 3 : uint64_t(1) << 63;
    break;
  }
  if (random_.below(3) == 0) {
    // Compacted: XCOMP_BV names at least XSTATE_BV's components, sometimes more.
    xcompBv = xsave::CompactedFormat | xstateBv | (xcr0 & random_.next() & 0xe7);
    if (random_.below(8) == 0)
      xcompBv &= ~(uint64_t(1) << random_.below(3));   // XSTATE_BV outside XCOMP_BV: #GP
    if (random_.below(8) == 0)
      xcompBv |= uint64_t(1) << 4;                      // not in XCR0: #GP
  } else if (random_.below(16) == 0) {
    xcompBv = random_.next() & ~xsave::CompactedFormat;  // standard with XCOMP_BV set: #GP
  }
  std::memset(header, 0, 64);
  std::memcpy(header, &xstateBv, 8);
  std::memcpy(header + 8, &xcompBv, 8);
  // A reserved byte set: #GP in bytes 16..23 for both forms, in 24..63 for compacted only.
  if (random_.below(16) == 0)
    header[16 + random_.below(48)] = uint8_t(1 + random_.below(255));
  return xstateBv;
}

bool StateGenerator::shapeStateArea(CpuState &state, std::vector<uint8_t> &arena) {
  AreaKind kind = areaKind(instr_);
  if (kind == AreaKind::None)
    return true;
  const Operand &memory = instr_.op(0);
  int base = gprIndex(memory.base);
  constexpr int Rsp = 4;
  if (base < 0 || base == Rsp)
    return false;
  // Aligned in seven states of eight, anywhere in the data page's first 3 KiB, so that the
  // largest image (832 bytes) stays in the data page.
  unsigned alignment = areaAlignment(kind);
  uint64_t address = layout::DataAddress + 64 * random_.below((layout::DataSize - 1024) / 64);
  if (random_.below(8) == 0)
    address += 1 + random_.below(alignment - 1);
  state.gpr[base] += address - effectiveAddress(instr_, memory, state);

  if (isXsaveFamily(kind)) {
    // EAX: a subset of x87, SSE and AVX, at times with bits outside XCR0 (ignored) or a
    // component Hoist leaves to the runtime (AVX-512's); EDX's bits are XCR0 bits 32..63,
    // which no machine enables. RAX's and RDX's upper halves are ignored.
    uint64_t xcr0 = hostXcr0(), mask = random_.below(8);
    if (random_.below(4) == 0)
      mask |= random_.next() & ~xcr0 & 0xffffffff;
    if (random_.below(8) == 0)
      mask |= xcr0 & (uint64_t(1) << (5 + random_.below(3)));
    state.gpr[0] = (state.gpr[0] & ~uint64_t(0xffffffff)) | mask;
    if (random_.below(2))
      state.gpr[2] &= ~uint64_t(0xffffffff);
  }
  if (kind != AreaKind::Fxrstor && kind != AreaKind::Xrstor) {
    initializeSomeComponents(state.fp);
    return true;
  }
  // An image to load, from another FP state.
  CpuState source{};
  generateFpState(source);
  initializeSomeComponents(source.fp);
  if (random_.below(8) == 0)
    source.fp.fcw = static_cast<uint16_t>(random_.next());
  if (random_.below(16) == 0)
    source.fp.mxcsr |= uint32_t(1) << (16 + random_.below(16));   // reserved: #GP
  uint8_t *area = arena.data() + (address - layout::ArenaAddress);
  if (kind == AreaKind::Fxrstor) {
    toFxsave(source.fp, area);
    return true;
  }
  toXsave(source.fp, 0, area);
  xrstorHeader(area + xsave::HeaderOffset);
  return true;
}

} // namespace hoist::test
