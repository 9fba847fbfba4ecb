#include "XsaveArea.h"

#include "CodeLayout.h"
#include "JitRunner.h"
#include "StateGenerator.h"

#include <cstring>
#include <vector>

namespace hoist::test {
namespace {

struct Range {
  unsigned begin, end;
};

/// The bytes of component `index` of an area of `kind` and its values in the initial
/// configuration (SDM vol. 1, 13.4 and 13.6), as ranges with an initial image each.
struct Component {
  std::vector<Range> ranges;
  std::vector<uint8_t> initial;   ///< the initial bytes of the ranges, concatenated
};

Component componentBytes(unsigned index, AreaKind kind) {
  Component c;
  auto add = [&](unsigned begin, unsigned end, const std::vector<uint8_t> &initial) {
    c.ranges.push_back({begin, end});
    std::vector<uint8_t> bytes = initial;
    bytes.resize(end - begin, 0);
    c.initial.insert(c.initial.end(), bytes.begin(), bytes.end());
  };
  switch (index) {
  case xsave::X87:
    add(0, 24, {0x7f, 0x03});   // FCW 037FH, the rest zero (FSW, empty tags, pointers)
    add(32, 160, {});
    break;
  case xsave::Sse:
    // Compacted, MXCSR travels with the XMM registers; in the standard format it is saved
    // whenever SSE or AVX is requested (compared exactly).
    if (kind == AreaKind::Xsavec)
      add(24, 32, {0x80, 0x1f, 0, 0, 0xff, 0xff, 0, 0});
    add(160, 416, {});
    break;
  case xsave::Avx:
    add(xsave::AvxOffset, xsave::AvxOffset + 256, {});
    break;
  }
  return c;
}

uint64_t read64(const uint8_t *bytes) {
  uint64_t value;
  std::memcpy(&value, bytes, 8);
  return value;
}

} // namespace

uint64_t componentsInUse(const FpState &fp) {
  uint64_t inUse = 0;
  bool stZero = true;
  for (const auto &value : fp.st)
    for (uint8_t byte : value)
      stZero &= byte == 0;
  if (fp.fcw != 0x037f || fp.fsw != 0 || fp.ftw != 0 || !stZero)
    inUse |= 1u << xsave::X87;
  for (const auto &reg : fp.ymm) {
    if (reg[0] | reg[1])
      inUse |= 1u << xsave::Sse;
    if (reg[2] | reg[3])
      inUse |= 1u << xsave::Avx;
  }
  return inUse;
}

void toXsave(const FpState &fp, uint64_t xstateBv, uint8_t *image) {
  toFxsave(fp, image);
  std::memset(image + xsave::HeaderOffset, 0, 64);
  std::memcpy(image + xsave::HeaderOffset, &xstateBv, 8);
  for (unsigned i = 0; i < 16; ++i)
    std::memcpy(image + xsave::AvxOffset + 16 * i, &fp.ymm[i][2], 16);
}

AreaKind areaKind(const Instr &instr) {
  switch (instr.mnemonic) {
  case ZYDIS_MNEMONIC_FXSAVE:
  case ZYDIS_MNEMONIC_FXSAVE64:
    return AreaKind::Fxsave;
  case ZYDIS_MNEMONIC_FXRSTOR:
  case ZYDIS_MNEMONIC_FXRSTOR64:
    return AreaKind::Fxrstor;
  case ZYDIS_MNEMONIC_XSAVE:
  case ZYDIS_MNEMONIC_XSAVE64:
    return AreaKind::Xsave;
  case ZYDIS_MNEMONIC_XSAVEOPT:
  case ZYDIS_MNEMONIC_XSAVEOPT64:
    return AreaKind::Xsaveopt;
  case ZYDIS_MNEMONIC_XSAVEC:
  case ZYDIS_MNEMONIC_XSAVEC64:
    return AreaKind::Xsavec;
  case ZYDIS_MNEMONIC_XRSTOR:
  case ZYDIS_MNEMONIC_XRSTOR64:
    return AreaKind::Xrstor;
  default:
    return AreaKind::None;
  }
}

unsigned areaAlignment(AreaKind kind) {
  return kind == AreaKind::Fxsave || kind == AreaKind::Fxrstor ? 16 : 64;
}

bool isXsaveFamily(AreaKind kind) {
  return kind != AreaKind::None && kind != AreaKind::Fxsave && kind != AreaKind::Fxrstor;
}

uint64_t requestedFeatures(const CpuState &in) {
  uint64_t mask = (in.gpr[2] & 0xffffffff) << 32 | (in.gpr[0] & 0xffffffff);
  return mask & hostXcr0();
}

bool leavesToRuntime(const Instr &instr, const CpuState &in) {
  return isXsaveFamily(areaKind(instr)) && (requestedFeatures(in) & ~xsave::Modelled) != 0;
}

void acceptProcessorChoices(const Instr &instr, const CpuState &in, const uint8_t *native,
                            uint8_t *lifted) {
  AreaKind kind = areaKind(instr);
  if (kind != AreaKind::Xsave && kind != AreaKind::Xsaveopt && kind != AreaKind::Xsavec)
    return;
  uint64_t address = effectiveAddress(instr, instr.op(0), in);
  if (address < layout::ArenaAddress ||
      address + xsave::ModelledSize > layout::ArenaAddress + layout::ArenaSize)
    return;
  size_t area = address - layout::ArenaAddress;
  const uint8_t *nativeArea = native + area;
  uint8_t *liftedArea = lifted + area;
  uint64_t rfbm = requestedFeatures(in), inUse = componentsInUse(in.fp);
  if (kind == AreaKind::Xsavec && in.fp.mxcsr != 0x1f80)
    inUse |= 1u << xsave::Sse;
  uint64_t nativeBv = read64(nativeArea + xsave::HeaderOffset);
  uint64_t liftedBv = read64(liftedArea + xsave::HeaderOffset);
  for (unsigned i = 0; i < 3; ++i) {
    uint64_t bit = uint64_t(1) << i;
    if (!(rfbm & bit))
      continue;
    if ((nativeBv & bit) != (liftedBv & bit) && !(inUse & bit))
      liftedBv = (liftedBv & ~bit) | (nativeBv & bit);
    if (kind == AreaKind::Xsave || (nativeBv & bit))
      continue;
    // Skipped natively: the lifted bytes may be the untouched ones or the initial values.
    Component component = componentBytes(i, kind);
    bool untouchedOrInitial = true;
    size_t at = 0;
    for (Range range : component.ranges) {
      unsigned size = range.end - range.begin;
      bool untouched = std::memcmp(liftedArea + range.begin, nativeArea + range.begin, size) == 0;
      bool initial = std::memcmp(liftedArea + range.begin, &component.initial[at], size) == 0;
      untouchedOrInitial &= untouched || initial;
      at += size;
    }
    if (untouchedOrInitial)
      for (Range range : component.ranges)
        std::memcpy(liftedArea + range.begin, nativeArea + range.begin, range.end - range.begin);
  }
  std::memcpy(liftedArea + xsave::HeaderOffset, &liftedBv, 8);
}

void acceptPartialRestore(const Instr &instr, const CpuState &in, const uint8_t *arena,
                          const FpState &native, FpState &lifted) {
  if (areaKind(instr) != AreaKind::Xrstor)
    return;
  uint64_t address = effectiveAddress(instr, instr.op(0), in);
  if (address < layout::ArenaAddress ||
      address + xsave::ModelledSize > layout::ArenaAddress + layout::ArenaSize)
    return;
  const uint8_t *area = arena + (address - layout::ArenaAddress);
  uint64_t xstateBv = read64(area + xsave::HeaderOffset);
  uint64_t xcompBv = read64(area + xsave::XcompBvOffset);
  uint32_t mxcsr;
  std::memcpy(&mxcsr, area + 24, 4);
  uint64_t rfbm = requestedFeatures(in), sse = uint64_t(1) << xsave::Sse;
  if (!(xcompBv & xsave::CompactedFormat) || !(rfbm & xstateBv & sse) || !(mxcsr & ~0xffffu))
    return;
  if (rfbm & (uint64_t(1) << xsave::X87)) {
    lifted.fcw = native.fcw;
    lifted.fsw = native.fsw;
    lifted.ftw = native.ftw;
    std::memcpy(lifted.st, native.st, sizeof lifted.st);
  }
  for (unsigned i = 0; i < 16; ++i) {
    std::memcpy(&lifted.ymm[i][0], &native.ymm[i][0], 16);
    if (rfbm & (uint64_t(1) << xsave::Avx))
      std::memcpy(&lifted.ymm[i][2], &native.ymm[i][2], 16);
  }
}

} // namespace hoist::test
