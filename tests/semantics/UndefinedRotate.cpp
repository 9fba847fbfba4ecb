// Operand-dependent undefined results of rotates and double shifts (rol ror rcl rcr shld shrd).
#include "UndefinedFlags.h"

namespace hoist::test {

bool rotateUndefined(const Instr &instr, const CpuState &in, Undefined &out) {
  return false;
}

} // namespace hoist::test
