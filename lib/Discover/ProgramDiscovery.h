// Whole-program discovery, after rev.ng: function starts go into the registry with their
// reasons; each round explores the functions the changed addresses call for (new starts, and
// functions that contain or call a changed address), and registers what it finds (call
// targets, tail-call targets, jump-table targets, new noreturn functions). Every set only
// grows, so the rounds end; LiftOptions bounds them on any input.
#pragma once

#include "Discover/FunctionDiscovery.h"
#include "Discover/Registry.h"

#include <llvm/ADT/STLFunctionalExtras.h>

#include <map>
#include <set>
#include <vector>

namespace hoist {

struct ProgramCfg {
  JumpTargetRegistry registry;
  /// By entry. Blocks keep their extent and edges; their `instrs` are dropped (memory).
  std::map<uint64_t, DiscoveredFunction> functions;
  std::set<uint64_t> noreturnCallees;                 ///< imports' stubs and slots, functions
  std::set<uint64_t> noreturnWhenStatusNonzero;       ///< error(), error_at_line()
  /// Parts of functions (FunctionParts.h), by start -> their parent's entry. The registry has
  /// them as starts (an unwind entry, a jump that left the parent), but they are explored as
  /// their parent's code and are not in `functions`.
  std::map<uint64_t, uint64_t> parts;
  /// Starts registered only by a jump out of a part (back into its parent, before the part was
  /// known as one): its parent's code, not functions.
  std::set<uint64_t> withdrawnStarts;
  unsigned rounds = 0;
  bool budgetExhausted = false;

  bool isFunctionStart(uint64_t address) const {
    return registry.isFunctionStart(address) && !parts.count(address) &&
           !withdrawnStarts.count(address);
  }
  /// The registry's function starts but the parts and the withdrawn starts.
  std::set<uint64_t> functionStarts() const;
};

struct ProgramDiscoveryRequest {
  /// Functions to discover; with `all`, every function start found (and the calls they make).
  std::vector<uint64_t> roots;
  bool all = false;
};

ProgramCfg discoverProgram(const Image &image, const ProgramDiscoveryRequest &request,
                           const LiftOptions &options, DiagnosticSink &diagnostics);

class Decoder;
struct Instr;

/// Decodes the instructions of the block `[start, end)` one after the other, as the CFG keeps
/// none (ProgramCfg), and calls `visit` with each; stops at bytes that do not decode.
void forEachInstructionOfBlock(const Image &image, Decoder &decoder, uint64_t start,
                               uint64_t end, llvm::function_ref<void(const Instr &)> visit);

} // namespace hoist
