// The SIMD and x87 part of the input states: lanes of floating-point specials (zeros,
// infinities, quiet and signalling NaNs with payloads, denormals, ties, integer boundaries),
// integer edges, random bits; an x87 stack of random depth holding extended specials.
#include "StateGenerator.h"

#include "CodeLayout.h"

#include <cstring>
#include <iterator>

namespace hoist::test {
namespace {

const uint64_t DoubleSpecials[] = {
    0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000,
    0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0xfff4000000000abc,
    0x7ffc0000deadbeef, 0x0000000000000001, 0x800fffffffffffff, 0x0010000000000000,
    0x3ff0000000000000, 0xbff0000000000000, 0x7fefffffffffffff, 0x43e0000000000000,
    0xc3e0000000000000, 0x41e0000000000000, 0xc1e0000000000000, 0x3fe0000000000000,
    0x3ff8000000000000, 0x4004000000000000, 0xbfe0000000000000, 0x4340000000000000,
    0x41dfffffffc00000, 0xc1e0000000200000, 0x43dfffffffffffff, 0x3ca0000000000000,
    // The unsigned boundaries (vcvtsd2usi, vcvtpd2uqq): 2^32, 2^32 - 1, 2^32 - 0.5 (a tie
    // that rounds out of range or not by mode), 2^64, the double below it, the one above -1.
    0x41f0000000000000, 0x41efffffffe00000, 0x41effffffff00000, 0x43f0000000000000,
    0x43efffffffffffff, 0xbfefffffffffffff};
const uint32_t FloatSpecials[] = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001,
    0xffa0abcd, 0x00000001, 0x807fffff, 0x00800000, 0x3f800000, 0xbf800000, 0x7f7fffff,
    0x4f000000, 0xcf000000, 0x3f000000, 0x3fc00000, 0x40200000, 0x5f000000, 0xdf000000,
    0x4effffff, 0xbf000000, 0x4b000000, 0x33800000,
    // The unsigned boundaries (vcvtss2usi, vcvtps2udq): 2^32 and the float below it, 2^64 and
    // the float below it, the float above -1.
    0x4f800000, 0x4f7fffff, 0x5f800000, 0x5f7fffff, 0xbf7fffff};

uint64_t pick(Random &random, const uint64_t *values, size_t count) {
  return values[random.below(count)];
}

} // namespace

uint64_t StateGenerator::vectorLane() {
  auto floatValue = [&]() -> uint64_t {
    if (random_.below(2))
      return FloatSpecials[random_.below(std::size(FloatSpecials))];
    // A float near 1 (exponent 127 +- 31) with random sign and mantissa.
    uint64_t exponent = 96 + random_.below(64);
    return (random_.next() & 0x807fffff) | exponent << 23;
  };
  switch (random_.below(9)) {
  case 0:
  case 1:
    return pick(random_, DoubleSpecials, std::size(DoubleSpecials));
  case 8: {
    // Small elements (0..69) of one width: shift counts by register and per element, indices.
    static const unsigned Widths[] = {8, 16, 32, 64};
    unsigned width = Widths[random_.below(4)];
    uint64_t lane = 0;
    for (unsigned bit = 0; bit < 64; bit += width)
      lane |= random_.below(70) << bit;
    return lane;
  }
  case 2: {
    uint64_t exponent = 0x3ff - 64 + random_.below(128);
    return (random_.next() & 0x800fffffffffffff) | exponent << 52;
  }
  case 3:
  case 4:
    return floatValue() | floatValue() << 32;
  case 5: {
    // Integer edges of every element width, so that saturation and signed compares meet them.
    static const uint64_t Edges[] = {0x7f7f7f7f7f7f7f7f, 0x8080808080808080, 0xff00ff00ff00ff00,
                                     0x7fff80007fff8000, 0x00000000ffffffff, 0x7fffffff80000000,
                                     0xffffffffffffffff, 0x0001000100010001, 0x8000000000000000};
    uint64_t edge = Edges[random_.below(std::size(Edges))];
    return random_.below(2) ? edge : edge ^ (random_.next() & random_.next());
  }
  default:
    return random_.next();
  }
}

void StateGenerator::extendedValue(uint8_t out[10]) {
  uint16_t signExponent;
  uint64_t significand;
  constexpr uint64_t Integer = uint64_t(1) << 63;
  switch (random_.below(10)) {
  case 0: {
    struct Special {
      uint16_t signExponent;
      uint64_t significand;
    };
    static const Special Specials[] = {
        {0x0000, 0},                       {0x8000, 0},                     // zeros
        {0x7fff, Integer},                 {0xffff, Integer},               // infinities
        {0x7fff, 0xc000000000000000},      {0xffff, 0xc000000000000000},    // QNaN, indefinite
        {0x7fff, 0x8000000000000001},      {0xffff, 0xa0000000deadbeef},    // SNaNs
        {0x0000, 0x0000000000000001},      {0x8000, 0x7fffffffffffffff},    // denormals
        {0x3fff, Integer},                 {0xbfff, Integer},               // +-1
        {0x7ffe, 0xffffffffffffffff},      {0x0001, Integer},               // max, min normal
        {0x403e, Integer},                 {0xc03e, Integer},               // +-2^63
        {0x401e, Integer},                 {0xc01e, 0x8000000100000000},    // 2^31 edges
        {0x400e, 0xfffe000000000000},      {0x3ffe, Integer},               // 32767, 0.5
        {0x4000, 0xa000000000000000},      {0x3fff, 0xc000000000000000}};   // 2.5, 1.5
    const Special &special = Specials[random_.below(std::size(Specials))];
    signExponent = special.signExponent;
    significand = special.significand;
    break;
  }
  case 1:
  case 2: {
    // An integer value below 2^40, for fist, frndint and fprem.
    uint64_t value = random_.next() >> (24 + random_.below(40));
    if (value == 0)
      value = 1;
    unsigned top = 63 - __builtin_clzll(value);
    signExponent = uint16_t(0x3fff + top) | uint16_t(random_.below(2) << 15);
    significand = value << (63 - top);
    break;
  }
  default:
    // A normal number near 1 (exponent +-70), random sign and significand.
    signExponent = uint16_t(0x3fff - 70 + random_.below(140)) | uint16_t(random_.below(2) << 15);
    significand = random_.next() | Integer;
    break;
  }
  std::memcpy(out, &significand, 8);
  std::memcpy(out + 8, &signExponent, 2);
}

void StateGenerator::plantFloatingPointOperand(const CpuState &state,
                                               std::vector<uint8_t> &arena) {
  // An x87 instruction's float, double or extended memory operand holds a special (NaNs of
  // both kinds with payloads, infinities, zeros, denormals) in half the states: random bytes
  // make a NaN once in 256 floats, so the NaN rules between a register and memory (an SNaN
  // operand against a QNaN st(0)) were checked almost never.
  switch (instr_.mnemonic) {
  case ZYDIS_MNEMONIC_FLD: case ZYDIS_MNEMONIC_FADD: case ZYDIS_MNEMONIC_FSUB:
  case ZYDIS_MNEMONIC_FSUBR: case ZYDIS_MNEMONIC_FMUL: case ZYDIS_MNEMONIC_FDIV:
  case ZYDIS_MNEMONIC_FDIVR: case ZYDIS_MNEMONIC_FCOM: case ZYDIS_MNEMONIC_FCOMP:
    break;
  default:
    return;
  }
  const Operand &operand = instr_.op(0);
  if (!operand.isMem() || random_.below(2))
    return;
  uint64_t offset = effectiveAddress(instr_, operand, state) - layout::ArenaAddress;
  if (offset + operand.bits / 8 > arena.size())
    return;
  uint8_t *bytes = arena.data() + offset;
  if (operand.bits == 32) {
    uint32_t value = FloatSpecials[random_.below(std::size(FloatSpecials))];
    std::memcpy(bytes, &value, 4);
  } else if (operand.bits == 64) {
    uint64_t value = pick(random_, DoubleSpecials, std::size(DoubleSpecials));
    std::memcpy(bytes, &value, 8);
  } else if (operand.bits == 80) {
    extendedValue(bytes);
  }
}

void StateGenerator::generateFpState(CpuState &state) {
  FpState &fp = state.fp;
  for (auto &reg : fp.ymm)
    for (uint64_t &lane : reg)
      lane = vectorLane();
  bool rounding = roundingControlVaries(instr_);
  // Default control (all exceptions masked, round to nearest, no DAZ/FTZ) and random sticky
  // exception flags, which no instruction may clear.
  fp.mxcsr = 0x1f80 | static_cast<uint32_t>(random_.below(64));
  if (rounding)
    fp.mxcsr |= static_cast<uint32_t>(random_.below(4)) << 13;
  fp.fcw = 0x037f;
  if (rounding)
    fp.fcw |= static_cast<uint16_t>(random_.below(4) << 10);
  unsigned top = random_.below(8);
  // A stack of random depth, mostly 1..7 deep so that both pushes and reads find room.
  unsigned depth = random_.below(8) ? 1 + random_.below(7) : (random_.below(2) ? 0 : 8);
  uint16_t conditionCodes = static_cast<uint16_t>(random_.next() & 0x4700);
  fp.fsw = static_cast<uint16_t>(top << 11) | conditionCodes;
  fp.ftw = 0;
  for (unsigned i = 0; i < depth; ++i)
    fp.ftw |= static_cast<uint8_t>(1u << ((top + i) & 7));
  for (auto &value : fp.st)
    extendedValue(value);
}

} // namespace hoist::test
