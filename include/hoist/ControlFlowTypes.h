// The control flow program discovery recovers, as plain data (what `hoist cfg --json` prints):
// functions with the reasons they were found, their blocks and edges, jump tables, computed
// and unresolved jumps, calls and tail calls. docs/CFG.md explains each part. Standard C++
// only, like hoist/ImageTypes.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hoist {

struct CfgBlock {
  uint64_t start = 0;
  uint64_t end = 0;                   ///< the address after its last instruction
  std::vector<uint64_t> successors;
};

/// A jmp whose targets discovery found: a jump table (`table` its address) or a computed jump
/// a value analysis resolved (`table` 0), possibly to an import.
struct CfgIndirectJump {
  uint64_t jump = 0;
  uint64_t table = 0;
  std::vector<uint64_t> targets;
  std::string import;                 ///< a computed jump through an import's slot
};

struct CfgUnresolvedJump {
  uint64_t jump = 0;
  std::string reason;
};

struct CfgCall {
  uint64_t at = 0;
  std::optional<uint64_t> target;     ///< unset for an import or an unresolved call
  std::string import;
};

/// Code of a function the compiler moved away from it (gcc's `f.cold`): entered only by the
/// function's own jumps and running in its frame, so its blocks are among the function's.
struct CfgPart {
  uint64_t start = 0;
  uint64_t end = 0;                   ///< the end of the run of the function's blocks from start
  std::optional<std::string> name;    ///< its symbol (`f.cold`), if any
};

struct CfgFunction {
  uint64_t entry = 0;
  std::optional<std::string> name;
  std::vector<std::string> reasons;   ///< why discovery took it as a function ("symbol", "call", ...)
  bool noreturn = false;
  bool ifuncResolver = false;
  std::vector<CfgBlock> blocks;       ///< by start, the parts' blocks included
  std::vector<CfgPart> parts;         ///< by start
  std::vector<CfgIndirectJump> jumpTables;
  std::vector<CfgIndirectJump> computedJumps;
  std::vector<CfgUnresolvedJump> unresolvedJumps;
  std::vector<CfgCall> calls;
  std::vector<uint64_t> tailCalls;
};

struct ControlFlow {
  std::vector<CfgFunction> functions;   ///< by entry
  unsigned rounds = 0;
  bool budgetExhausted = false;         ///< a budget or the deadline stopped discovery
};

} // namespace hoist
