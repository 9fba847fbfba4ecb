// The forms whose states vary the rounding control (see roundingControlVaries).
#include "StateGenerator.h"

namespace hoist::test {

bool roundingControlVaries(const Instr &instr) {
  switch (instr.mnemonic) {
  default:
    return false;
  }
}

} // namespace hoist::test
