// The jump-target registry: every address discovery knows, registered once, with the set of
// reasons it was found. Sets only grow; the addresses whose reasons grew since the last round
// drive the next one, so discovery ends when a round adds nothing.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace hoist {

enum Reason : uint32_t {
  ReasonEntry = 1u << 0,        ///< the image's entry point
  ReasonSymbol = 1u << 1,       ///< a function symbol
  ReasonExport = 1u << 2,       ///< an export
  ReasonCallTarget = 1u << 3,   ///< the target of a direct call
  ReasonEhFrame = 1u << 4,      ///< the start of an ELF .eh_frame FDE
  ReasonPdata = 1u << 5,        ///< the start of a PE .pdata RUNTIME_FUNCTION
  ReasonInitSection = 1u << 6,  ///< the start of ELF .init or .fini, or an .init_array entry
  ReasonJumpTarget = 1u << 7,   ///< the target of a direct jump
  ReasonJumpTable = 1u << 8,    ///< an entry of a resolved jump table
  ReasonTailCall = 1u << 9,     ///< the target of a direct jmp to a function start
  ReasonLeavesFunction = 1u << 10,  ///< a direct jmp leaves its function's known extent
  ReasonDataPointer = 1u << 11,     ///< an accepted code pointer stored in data
  ReasonCodeReference = 1u << 12,   ///< an accepted code address computed by code (lea)
  ReasonCodeGap = 1u << 13,         ///< aligned code in a gap between the functions found
  ReasonCalledThrough = 1u << 14,   ///< an address taken in code and called through
};

/// Reasons that make an address the start of a function.
constexpr uint32_t FunctionStartReasons = ReasonEntry | ReasonSymbol | ReasonExport |
                                          ReasonCallTarget | ReasonEhFrame | ReasonPdata |
                                          ReasonInitSection | ReasonLeavesFunction |
                                          ReasonDataPointer | ReasonCodeReference |
                                          ReasonCodeGap | ReasonCalledThrough;

/// "symbol", "call", ...: one name per reason bit set, in bit order.
std::vector<std::string> reasonNames(uint32_t reasons);

class JumpTargetRegistry {
public:
  /// Adds `reasons` to `address`; true if any of them is new there.
  bool add(uint64_t address, uint32_t reasons);
  uint32_t reasons(uint64_t address) const;
  bool isFunctionStart(uint64_t address) const {
    return reasons(address) & FunctionStartReasons;
  }
  /// The addresses whose reasons grew since the last call, in address order.
  std::vector<uint64_t> takeChanged();
  bool hasChanges() const { return !changed_.empty(); }
  const std::map<uint64_t, uint32_t> &all() const { return reasons_; }
  std::set<uint64_t> functionStarts() const;

private:
  std::map<uint64_t, uint32_t> reasons_;
  std::set<uint64_t> changed_;
};

} // namespace hoist
