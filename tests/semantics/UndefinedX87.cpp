// Per-instruction refinements of the x87 status-word mask (see UndefinedFp.cpp).
#include "UndefinedFlags.h"

namespace hoist::test {

void x87Undefined(const Instr &instr, const CpuState &in, Undefined &out) {
  (void)instr;
  (void)in;
  (void)out;
}

} // namespace hoist::test
