// What `hoist lift --deobfuscate` is told: which callees stay calls, which memory is concrete,
// and the budgets that bound every unrolling (docs/DEOBFUSCATE.md).
#pragma once

#include <llvm/Support/Error.h>
#include <llvm/Support/JSON.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace hoist {

/// [begin, end) of virtual addresses.
struct AddressRange {
  uint64_t begin = 0;
  uint64_t end = 0;
  bool contains(uint64_t address) const { return address >= begin && address < end; }
};

struct DeobfuscateOptions {
  /// Callees kept as calls (`--outline`); exports and imports are always calls.
  std::set<uint64_t> outline;
  /// Memory marked concrete or symbolic beyond the default (the image concrete, the stack
  /// concrete, everything else symbolic); symbolic wins where both name an address.
  std::vector<AddressRange> concrete;
  std::vector<AddressRange> symbolic;

  // Budgets: each ends its unrolling with a `deobfuscate-budget` warning and an exit through
  // __hoist_jmp, never a crash or runaway memory.
  uint64_t maxInstances = 20000;            ///< block instances per function
  uint64_t maxInstructions = 400000;        ///< instructions lifted per function
  uint64_t maxInstancesPerAddress = 2048;   ///< instances of one address
  uint64_t maxInstructionsPerInstance = 4096;
  unsigned loopSearchDepth = 4096;          ///< ancestors looked at for a repeating loop
  /// Contexts compared and instances searched per function to merge paths where they join
  /// (JoinMerging.h); at zero the rest is lifted without merging, as it would be anyway.
  uint64_t joinSearchBudget = 1000000;
  // A symbolic branch condition the tests find constant is proved by Z3 (BranchProver.h).
  unsigned proofResourceLimit = 200000;     ///< Z3's work units for one proof (deterministic)
  unsigned proofTimeoutMs = 2000;           ///< one proof, wall clock (a backstop)
  unsigned proofBudgetMs = 10000;           ///< all proofs of one function, wall clock
  unsigned maxProofNodes = 128;             ///< instructions of a condition a proof takes
  unsigned maxProofLeaves = 8;              ///< its inputs
};

/// Parses `--outline 0xA,0xB`, `--concrete-memory 0xLO-0xHI,...`, `--symbolic-memory ...`.
llvm::Expected<DeobfuscateOptions> parseDeobfuscateOptions(llvm::StringRef outline,
                                                           llvm::StringRef concrete,
                                                           llvm::StringRef symbolic);

/// What concolic lifting did to one function: the `concolic` part of its `deobfuscation` record
/// in the diagnostics JSON.
struct DeobfuscationStats {
  uint64_t entry = 0;
  uint64_t blockInstances = 0;
  uint64_t contexts = 0;           ///< distinct concrete contexts among the instances
  uint64_t addresses = 0;          ///< distinct machine addresses that start an instance
  uint64_t instructionsLifted = 0;
  uint64_t loopsGeneralized = 0;  ///< block instances that are generalized loop headers
  uint64_t branchesFolded = 0;     ///< conditional branches with a concrete condition
  uint64_t branchesProved = 0;     ///< ... with a symbolic condition Z3 proved constant
  uint64_t indirectFollowed = 0;   ///< indirect jmps, calls and rets with a concrete target
  uint64_t callsInlined = 0;
  uint64_t externalCalls = 0;      ///< imports, outlined and unknown callees
  uint64_t joinsMerged = 0;        ///< arrivals sent to an instance whose context differs in dead bytes
  uint64_t budgetsHit = 0;
  llvm::json::Object toJSON() const;
};

} // namespace hoist
