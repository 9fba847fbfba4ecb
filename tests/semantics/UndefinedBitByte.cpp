// Operand-dependent undefined results of bit and byte instructions (bt*, bsf/bsr, lzcnt/tzcnt/popcnt, BMI).
#include "UndefinedFlags.h"

namespace hoist::test {

bool bitByteUndefined(const Instr &instr, const CpuState &in, Undefined &out) {
  return false;
}

} // namespace hoist::test
