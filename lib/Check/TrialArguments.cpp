#include "Check/TrialArguments.h"

#include <llvm/Support/FormatVariadic.h>

#include <bit>
#include <limits>

namespace hoist::check {
namespace {

uint64_t maskTo(uint64_t value, unsigned bits) {
  return bits >= 64 ? value : value & ((uint64_t(1) << bits) - 1);
}

/// A pointer into the heap's argument half, with room both ways for negative offsets.
Canonical heapPointer(std::mt19937_64 &random) {
  uint64_t quarter = ScratchMemory::ArgumentHeapBytes / 4;
  uint64_t offset = quarter + random() % (2 * quarter);
  // Aligned most of the time, as pointers to objects are.
  if (random() % 4)
    offset &= ~uint64_t(15);
  return {Canonical::Kind::Heap, offset};
}

uint64_t interestingInteger(std::mt19937_64 &random, unsigned bits) {
  static constexpr int64_t Small[] = {0, 1, 2, 3, 4, 5, 7, 8, 10, 16, 31, 32, 63, 64, 100, -1, -2};
  uint64_t top = bits >= 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t(1) << bits) - 1;
  uint64_t signBit = uint64_t(1) << (std::min(bits, 64u) - 1);
  switch (random() % 4) {
  case 0:
  case 1:
    return maskTo(uint64_t(Small[random() % std::size(Small)]), bits);
  case 2: {
    const uint64_t boundary[] = {0, 1, top, signBit, signBit - 1, signBit + 1, top - 1};
    return boundary[random() % std::size(boundary)];
  }
  default:
    return maskTo(random(), bits);
  }
}

uint64_t interestingDouble(std::mt19937_64 &random) {
  static constexpr double Values[] = {0.0,
                                      -0.0,
                                      1.0,
                                      -1.0,
                                      0.5,
                                      2.5,
                                      3.0,
                                      100.0,
                                      -7.25,
                                      1e300,
                                      1e-310,
                                      std::numeric_limits<double>::infinity(),
                                      -std::numeric_limits<double>::infinity()};
  switch (random() % 4) {
  case 0:
    return std::bit_cast<uint64_t>(std::numeric_limits<double>::quiet_NaN());
  case 1:
    return random();
  default:
    return std::bit_cast<uint64_t>(Values[random() % std::size(Values)]);
  }
}

uint64_t interestingFloat(std::mt19937_64 &random) {
  static constexpr float Values[] = {0.0f,
                                     -0.0f,
                                     1.0f,
                                     -1.0f,
                                     0.5f,
                                     2.5f,
                                     3.0f,
                                     100.0f,
                                     -7.25f,
                                     1e30f,
                                     std::numeric_limits<float>::infinity()};
  switch (random() % 4) {
  case 0:
    return std::bit_cast<uint32_t>(std::numeric_limits<float>::quiet_NaN());
  case 1:
    return random() & 0xffffffffu;
  default:
    return std::bit_cast<uint32_t>(Values[random() % std::size(Values)]);
  }
}

} // namespace

std::vector<TrialArgument> drawArguments(const Signature &signature, std::mt19937_64 &random) {
  std::vector<TrialArgument> arguments;
  for (const Signature::Argument &parameter : signature.arguments) {
    TrialArgument argument;
    argument.parameter = &parameter;
    if (parameter.isFloat) {
      if (parameter.bits == 32)
        argument.bits[0] = interestingFloat(random);
      else if (parameter.bits == 64)
        argument.bits[0] = interestingDouble(random);
      else
        argument.bits[0] = random(), argument.bits[1] = random();
    } else if (parameter.isPointer) {
      // Only where the function uses the value as an address: a number that happens to be a
      // heap pointer is a different number in each run (ScratchMemory.h).
      unsigned draw = unsigned(random() % 16);
      argument.value = draw == 0 ? Canonical{Canonical::Kind::Number, 0}
                       : draw == 1
                           ? Canonical{Canonical::Kind::Number, interestingInteger(random, 64)}
                           : heapPointer(random);
    } else {
      argument.value = {Canonical::Kind::Number, interestingInteger(random, parameter.bits)};
      if (parameter.bits == 32)
        argument.upperGarbage = random() & 0xffffffff00000000u;
    }
    arguments.push_back(argument);
  }
  return arguments;
}

std::string parameterName(const Signature::Argument &parameter) {
  if (parameter.onStack)
    return llvm::formatv("stack slot {0}", parameter.element).str();
  switch (parameter.field) {
  case HOIST_FIELD_RDI:
    return "rdi";
  case HOIST_FIELD_RSI:
    return "rsi";
  case HOIST_FIELD_RDX:
    return "rdx";
  case HOIST_FIELD_RCX:
    return "rcx";
  case HOIST_FIELD_R8:
    return "r8";
  case HOIST_FIELD_R9:
    return "r9";
  case HOIST_FIELD_YMM:
    return llvm::formatv("xmm{0}", parameter.element).str();
  default:
    return llvm::formatv("state field {0}", unsigned(parameter.field)).str();
  }
}

std::string describeArguments(const std::vector<TrialArgument> &arguments) {
  if (arguments.empty())
    return "no arguments";
  std::string text;
  for (const TrialArgument &argument : arguments) {
    if (!text.empty())
      text += ", ";
    text += parameterName(*argument.parameter) + "=";
    if (!argument.parameter->isFloat)
      text += argument.value.describe();
    else if (argument.parameter->bits == 128)
      text += llvm::formatv("{0:x}:{1:x}", argument.bits[1], argument.bits[0]).str();
    else
      text += llvm::formatv("{0:x}", argument.bits[0]).str();
  }
  return text;
}

} // namespace hoist::check
