// One function's control flow, found in rounds: explore the blocks reachable from the entry,
// resolve the indirect jmps that cheap pattern analysis can (jump tables), explore again with
// the new targets, until a round resolves nothing new or the round budget runs out.
#pragma once

#include "Discover/FunctionExplorer.h"
#include "hoist/Image.h"
#include "hoist/Options.h"

#include <optional>
#include <string>
#include <vector>

namespace hoist {

class DiagnosticSink;

struct CallSite {
  uint64_t at = 0;
  std::optional<uint64_t> target;   ///< a direct call's target (for a PLT stub too)
  std::string import;               ///< the import called through a stub or slot, if any
  bool noreturn = false;            ///< the fallthrough was detached
};

/// An indirect jmp neither the jump-table matcher nor the value analysis resolved.
struct UnresolvedJump {
  uint64_t jump = 0;
  std::string reason;   ///< what the value analysis found the target to be
  /// The target may be computed as a jump table's is (IndirectJumpValue::computed), or was not
  /// analysed: the function may have case labels nothing else reaches.
  bool computed = true;
};

/// An indirect jmp the value analysis resolved (IndirectJumpAnalysis.h): to constant code
/// addresses (blocks of the function, or other functions' entries: tail calls), or to an import.
struct ComputedJump {
  uint64_t jump = 0;
  std::vector<uint64_t> targets;
  std::string import;   ///< the import whose slot the target is loaded from, if any
};

struct DiscoveredFunction {
  ExploredFunction explored;
  std::vector<CallSite> calls;
  std::vector<uint64_t> tailCalls;         ///< targets of direct jmps to other functions
  std::vector<UnresolvedJump> unresolvedJumps;   ///< indirect jmps lifted as __hoist_jmp
  std::vector<ComputedJump> computedJumps;
  std::vector<Import> importJumps;         ///< imports jumped to through their slot (thunks)
  /// Functions called through an address the code takes (`lea rax, [rip+f]; call rax`).
  std::vector<uint64_t> calledThrough;
  bool noreturn = false;                   ///< every way out is a noreturn call or a trap
  unsigned rounds = 0;
};

/// Discovers the function at `entry`. `hints.jumpTables` is ignored (the rounds fill it).
DiscoveredFunction discoverFunction(const Image &image, InstructionCache &cache, uint64_t entry,
                                    const LiftOptions &options, DiagnosticSink &diagnostics,
                                    ExploreHints hints = {});

} // namespace hoist
