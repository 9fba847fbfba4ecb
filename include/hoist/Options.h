// Options that steer lifting. Every loop that input can drive has a budget here.
#pragma once

#include <cstdint>

namespace hoist {

struct LiftOptions {
  uint64_t maxInstructionsPerFunction = 200000;
  uint64_t maxBlocksPerFunction = 50000;
};

} // namespace hoist
