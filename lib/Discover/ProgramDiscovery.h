// Whole-program discovery, after rev.ng: function starts go into the registry with their
// reasons; each round explores the functions the changed addresses call for (new starts, and
// functions that contain or call a changed address), and registers what it finds (call
// targets, tail-call targets, jump-table targets, new noreturn functions). Every set only
// grows, so the rounds end; LiftOptions bounds them on any input.
#pragma once

#include "Discover/FunctionDiscovery.h"
#include "Discover/Registry.h"

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
  unsigned rounds = 0;
  bool budgetExhausted = false;
};

struct ProgramDiscoveryRequest {
  /// Functions to discover; with `all`, every function start found (and the calls they make).
  std::vector<uint64_t> roots;
  bool all = false;
};

ProgramCfg discoverProgram(const Image &image, const ProgramDiscoveryRequest &request,
                           const LiftOptions &options, DiagnosticSink &diagnostics);

} // namespace hoist
