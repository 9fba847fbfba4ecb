// Options that steer lifting. Every loop that input can drive has a budget here.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace hoist {

struct LiftOptions {
  uint64_t maxInstructionsPerFunction = 200000;
  uint64_t maxBlocksPerFunction = 50000;

  // Discovery (lib/Discover).
  uint64_t maxJumpTableEntries = 65536;   ///< a larger table is left unresolved
  unsigned jumpTablePathBlocks = 4;       ///< blocks looked at before an indirect jmp
  unsigned jumpTablePaths = 16;           ///< predecessor paths tried per indirect jmp
  unsigned jumpTableSearchBlocks = 256;   ///< blocks searched back for a table base register
  unsigned maxDiscoveryRounds = 64;       ///< explore/resolve rounds per function
  uint64_t maxFunctions = 200000;         ///< functions discovered in one program
  /// Threads that explore the functions of a whole-program discovery round (`hoist lift --all
  /// -j N` gives its N); the result is the same with any number.
  unsigned discoveryThreads = 1;

  /// Run the LLVM verifier over the lifted module when it is taken (Lifter::takeModule): a
  /// function it rejects (a Hoist bug, never the input's fault) is reported as `lift-failed`
  /// and becomes a runtime call. On for library users and the tests; `hoist lift` turns it off
  /// where it would be a third of the work, unoptimized IR or bitcode (`--verify` turns it
  /// back on; docs/PERFORMANCE.md).
  bool verify = true;

  /// Run the LLVM verifier on each function as soon as it is lifted (`--verify-each`) rather
  /// than once over the module when it is taken (Lifter::takeModule): slower, and it reports
  /// a broken function from liftFunction itself.
  bool verifyEachFunction = false;

  /// Attach each lifted function's instruction-to-address map to its IR as `!hoist.pc`
  /// metadata (include/hoist/Lifter.h, "Instruction addresses"). Off, the map stays a side
  /// table (Lifter::instructionAddresses): uniquing a metadata node per machine instruction is
  /// a fifth of the lift, and only brightening, deobfuscation and `--annotate` read the tags
  /// (`hoist lift --pc-metadata` asks for them too). Passes keep metadata where they can; a side
  /// table holds only until the IR changes.
  bool pcMetadata = false;

  /// Total time (`--timeout`): once it has passed, discovery and lifting stop where they are
  /// and hand back what they have, with a `budget-exhausted` diagnostic. Unset: no limit.
  std::optional<std::chrono::steady_clock::time_point> deadline;

  bool pastDeadline() const { return deadline && std::chrono::steady_clock::now() >= *deadline; }
};

} // namespace hoist
