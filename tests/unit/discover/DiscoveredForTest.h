// One function discovered from raw bytes at 0x1000 (a read-only, executable image), for the
// discovery unit tests.
#pragma once

#include "Discover/FunctionDiscovery.h"
#include "Support/Diagnostics.h"

#include <set>

namespace hoist::test {

constexpr uint64_t Base = 0x1000;

struct Discovered {
  std::unique_ptr<Image> image;
  DiagnosticSink diagnostics;
  std::set<uint64_t> functionStarts; ///< what program discovery would know; may be empty
  DiscoveredFunction function;

  /// `extentEnd`: where program discovery would see the function end (its unwind range), 0
  /// when unknown.
  explicit Discovered(const std::vector<uint8_t> &code, std::set<uint64_t> starts = {},
                      const LiftOptions &options = {}, uint64_t extentEnd = 0)
      : image(Image::fromRawBytes(code, Base)), functionStarts(std::move(starts)) {
    InstructionCache cache(*image);
    ExploreHints hints;
    hints.extentEnd = extentEnd;
    if (!functionStarts.empty())
      hints.functionStarts = &functionStarts;
    function = discoverFunction(*image, cache, Base, options, diagnostics, hints);
  }

  const JumpTable *onlyTable() const {
    if (function.explored.jumpTables.size() != 1)
      return nullptr;
    return &function.explored.jumpTables.begin()->second;
  }
};

} // namespace hoist::test
