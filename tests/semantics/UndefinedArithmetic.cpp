// Operand-dependent undefined results of multiply and divide (mul, imul, div, idiv).
#include "UndefinedFlags.h"

namespace hoist::test {

bool arithmeticUndefined(const Instr &instr, const CpuState &in, Undefined &out) {
  return false;
}

} // namespace hoist::test
