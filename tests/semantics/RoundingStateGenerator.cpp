// The floating-point lanes of the forms with an embedded rounding ({rn-sae} ... {rz-sae}):
// where a static rounding can go wrong is at the edges of the error-free transformations that
// compute it (lib/Semantics/DirectedRounding.cpp), so three states in four draw their source
// lanes there: near overflow and its square root, denormals and the square root of the
// denormal range, short significands (exact results and ties), and lanes of one source tied
// to another's (x and -x, products cancelled by the addend, a few ulps apart).
#include "StateGenerator.h"

#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <bit>
#include <cmath>

namespace hoist::test {

struct FloatFormat {
  unsigned bits, mantissa;
  int bias;
};

namespace {

constexpr FloatFormat Single{32, 23, 127}, Double{64, 52, 1023};

/// The floating-point element width of the form's vector source, 0 for an integer source:
/// the suffix of arithmetic (vaddps, vfmadd213sd), the part before the 2 of a conversion
/// (vcvtsd2ss, vcvtps2udq).
unsigned sourceElementBits(const Instr &instr) {
  llvm::StringRef name = ZydisMnemonicGetString(instr.mnemonic);
  llvm::StringRef type = name.take_back(2);
  if (name.consume_front("vcvt"))
    type = name.split('2').first;
  if (type == "ps" || type == "ss")
    return 32;
  if (type == "pd" || type == "sd")
    return 64;
  return 0;
}

/// Element `index` of zmm `reg` as the state holds it, `bits` wide.
uint64_t *laneWord(FpState &fp, unsigned reg, unsigned index, unsigned bits) {
  unsigned word = index * bits / 64;
  if (reg >= 16)
    return &fp.zmm16[reg - 16][word];
  return word < 4 ? &fp.ymm[reg][word] : &fp.zmmHigh[reg][word - 4];
}

uint64_t readLane(FpState &fp, unsigned reg, unsigned index, unsigned bits) {
  uint64_t word = *laneWord(fp, reg, index, bits);
  return bits == 64 ? word : word >> (index % 2 * 32) & 0xffffffff;
}

void writeLane(FpState &fp, unsigned reg, unsigned index, unsigned bits, uint64_t value) {
  uint64_t &word = *laneWord(fp, reg, index, bits);
  if (bits == 64) {
    word = value;
    return;
  }
  unsigned shift = index % 2 * 32;
  word = (word & ~(uint64_t(0xffffffff) << shift)) | (value & 0xffffffff) << shift;
}

double toDouble(uint64_t bits, const FloatFormat &format) {
  return format.bits == 64 ? std::bit_cast<double>(bits) : std::bit_cast<float>(uint32_t(bits));
}

uint64_t fromDouble(double value, const FloatFormat &format) {
  return format.bits == 64 ? std::bit_cast<uint64_t>(value)
                           : std::bit_cast<uint32_t>(float(value));
}

} // namespace

uint64_t StateGenerator::boundaryFloat(const FloatFormat &format) {
  int maxExponent = 2 * format.bias;
  int exponent;
  uint64_t mantissaMask = (uint64_t(1) << format.mantissa) - 1;
  uint64_t mantissa = random_.next() & mantissaMask;
  switch (random_.below(7)) {
  case 0:   // near overflow
    exponent = maxExponent - int(random_.below(3));
    break;
  case 1:   // denormals and the smallest normals
    exponent = int(random_.below(3));
    break;
  case 2:   // around the square root of the denormal range: products and quotients there
    exponent = format.bias / 2 + int(random_.below(format.mantissa + 12)) - 6;
    break;
  case 3:   // around the square root of the largest value: products that overflow
    exponent = format.bias + format.bias / 2 + int(random_.below(8)) - 4;
    break;
  case 4:   // short significands near 1: exact results and ties
    exponent = format.bias - 2 + int(random_.below(5));
    mantissa &= mantissaMask << (format.mantissa - 3);
    break;
  case 5:   // the double FMA's scaling thresholds (2^-910, 2^990)
    exponent = format.bias + (random_.below(2) ? 990 : -910) + int(random_.below(9)) - 4;
    exponent = std::clamp(exponent, 0, maxExponent);
    break;
  default:   // near 1
    exponent = format.bias - 8 + int(random_.below(16));
    break;
  }
  uint64_t sign = random_.below(2);
  return sign << (format.bits - 1) | uint64_t(exponent) << format.mantissa | mantissa;
}

void StateGenerator::shapeRoundingLanes(unsigned index, CpuState &state) {
  if (!instr_.evex.embeddedRounding || instr_.evex.staticRounding == ZYDIS_ROUNDING_MODE_INVALID ||
      index % 4 == 3 || !state.fp.avx512)
    return;
  unsigned bits = sourceElementBits(instr_);
  if (bits == 0)
    return;
  const FloatFormat &format = bits == 32 ? Single : Double;
  unsigned registers[4], count = 0;
  // The destination is a source only for FMA.
  bool fused = llvm::StringRef(ZydisMnemonicGetString(instr_.mnemonic)).starts_with("vf");
  for (unsigned i = fused ? 0 : 1; i < instr_.operandCount && count < 4; ++i) {
    const Operand &operand = instr_.op(i);
    ZydisRegisterClass regClass =
        operand.isReg() ? ZydisRegisterGetClass(operand.reg) : ZYDIS_REGCLASS_INVALID;
    if (regClass == ZYDIS_REGCLASS_XMM || regClass == ZYDIS_REGCLASS_YMM ||
        regClass == ZYDIS_REGCLASS_ZMM)
      registers[count++] = ZydisRegisterGetId(operand.reg);
  }
  FpState &fp = state.fp;
  for (unsigned lane = 0; lane < 512 / bits; ++lane) {
    for (unsigned r = 0; r < count; ++r)
      writeLane(fp, registers[r], lane, bits, boundaryFloat(format));
    if (count < 2 || random_.below(3) == 0)
      continue;
    // One register's lane from the others': x or -x (+- a few ulps) for two sources, x*y or
    // -(x*y) for three, in any order of the registers: sums and differences that cancel.
    unsigned target = unsigned(random_.below(count));
    unsigned x = (target + 1) % count, y = (target + 2) % count;
    double value = toDouble(readLane(fp, registers[x], lane, bits), format);
    if (count >= 3)
      value *= toDouble(readLane(fp, registers[y], lane, bits), format);
    if (random_.below(2))
      value = -value;
    uint64_t tied = fromDouble(value, format) + (random_.below(2) ? 0 : random_.below(5) - 2);
    writeLane(fp, registers[target], lane, bits, tied);
  }
}

} // namespace hoist::test
