// discoverControlFlow: lib/Discover's program CFG converted to the public plain data.
#include "hoist/ControlFlow.h"

#include "Discover/FunctionParts.h"
#include "Discover/ProgramDiscovery.h"
#include "hoist/Program.h"

namespace hoist {
namespace {

CfgFunction convertFunction(const Image &image, const ProgramCfg &cfg,
                            const std::set<uint64_t> &starts,
                            const DiscoveredFunction &function) {
  const ExploredFunction &explored = function.explored;
  CfgFunction out;
  out.entry = explored.entry;
  out.name = image.nameAt(explored.entry);
  out.reasons = reasonNames(cfg.registry.reasons(explored.entry));
  out.noreturn = function.noreturn || cfg.noreturnCallees.count(explored.entry) > 0;
  out.ifuncResolver = image.indirectFunctionAt(explored.entry) != nullptr;
  for (const auto &[start, block] : explored.blocks)
    out.blocks.push_back({start, block.endAddress, block.successors});
  for (const CodeRange &part : partExtents(explored, cfg.parts, starts))
    out.parts.push_back({part.start, part.start + part.size, image.nameAt(part.start)});
  for (const auto &[jump, table] : explored.jumpTables)
    if (table.shape != JumpTable::Shape::Computed)   // listed with the computed jumps
      out.jumpTables.push_back({jump, table.table, table.distinctTargets(), ""});
  for (const ComputedJump &jump : function.computedJumps)
    out.computedJumps.push_back({jump.jump, 0, jump.targets, jump.import});
  for (const UnresolvedJump &jump : function.unresolvedJumps)
    out.unresolvedJumps.push_back({jump.jump, jump.reason});
  for (const CallSite &call : function.calls)
    out.calls.push_back({call.at, call.import.empty() ? call.target : std::nullopt, call.import});
  out.tailCalls = function.tailCalls;
  return out;
}

} // namespace

llvm::Expected<ControlFlow> discoverControlFlow(const Image &image,
                                                const std::vector<uint64_t> &roots, bool all,
                                                const LiftOptions &options,
                                                DiagnosticSink &diagnostics) {
  ProgramDiscoveryRequest request;
  request.all = all;
  if (!roots.empty() || !all) {
    llvm::Expected<std::vector<uint64_t>> requested = requestedFunctions(image, roots, all);
    if (!requested)
      return requested.takeError();
    request.roots = std::move(*requested);
  }
  ProgramCfg cfg = discoverProgram(image, request, options, diagnostics);
  ControlFlow flow;
  flow.rounds = cfg.rounds;
  flow.budgetExhausted = cfg.budgetExhausted;
  std::set<uint64_t> starts = cfg.functionStarts();
  for (const auto &[entry, function] : cfg.functions)
    flow.functions.push_back(convertFunction(image, cfg, starts, function));
  return flow;
}

} // namespace hoist
