// `hoist cfg`: the control flow that discovery recovers, as JSON or text: functions with their
// blocks, resolved jump tables, calls and tail calls (docs/CFG.md).
#include "Commands.h"

#include "Discover/ProgramDiscovery.h"
#include "Support/Diagnostics.h"
#include "Support/Error.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

namespace hoist {
namespace {

std::string hex(uint64_t address) { return llvm::formatv("{0:x}", address).str(); }

llvm::json::Array hexArray(const std::vector<uint64_t> &addresses) {
  llvm::json::Array array;
  for (uint64_t address : addresses)
    array.push_back(hex(address));
  return array;
}

llvm::json::Value callTarget(const CallSite &call) {
  if (!call.import.empty())
    return call.import;
  if (call.target)
    return hex(*call.target);
  return nullptr;
}

llvm::json::Object functionToJson(const Image &image, const ProgramCfg &cfg,
                                  const DiscoveredFunction &function) {
  const ExploredFunction &explored = function.explored;
  llvm::json::Array blocks;
  for (const auto &[start, block] : explored.blocks)
    blocks.push_back(llvm::json::Object{{"start", hex(start)},
                                        {"end", hex(block.endAddress)},
                                        {"successors", hexArray(block.successors)}});
  llvm::json::Array tables;
  for (const auto &[jump, table] : explored.jumpTables)
    tables.push_back(llvm::json::Object{{"jump", hex(jump)},
                                        {"targets", hexArray(table.distinctTargets())}});
  llvm::json::Array calls;
  for (const CallSite &call : function.calls)
    calls.push_back(llvm::json::Object{{"at", hex(call.at)}, {"target", callTarget(call)}});
  std::optional<std::string> name = image.nameAt(explored.entry);
  return llvm::json::Object{
      {"entry", hex(explored.entry)},
      {"name", name ? llvm::json::Value(*name) : llvm::json::Value(nullptr)},
      {"noreturn", cfg.noreturnCallees.count(explored.entry) > 0 || function.noreturn},
      {"blocks", std::move(blocks)},
      {"jump_tables", std::move(tables)},
      {"calls", std::move(calls)},
      {"tail_calls", hexArray(function.tailCalls)}};
}

void printText(const Image &image, const ProgramCfg &cfg, llvm::raw_ostream &out) {
  size_t tables = 0, targets = 0, unresolved = 0;
  for (const auto &[entry, function] : cfg.functions) {
    std::optional<std::string> name = image.nameAt(entry);
    out << "function " << hex(entry) << " " << (name ? *name : "-") << " ["
        << llvm::join(reasonNames(cfg.registry.reasons(entry)), ",") << "]"
        << (function.noreturn ? " noreturn" : "") << ": " << function.explored.blocks.size()
        << " blocks, " << function.calls.size() << " calls\n";
    for (const auto &[jump, table] : function.explored.jumpTables) {
      out << "  jump table at " << hex(jump) << ": " << jumpTableShapeName(table.shape) << ", "
          << table.targets.size() << " entries at " << hex(table.table) << ", "
          << table.distinctTargets().size() << " targets\n";
      ++tables;
      targets += table.distinctTargets().size();
    }
    for (uint64_t jump : function.unresolvedJumps)
      out << "  unresolved indirect jmp at " << hex(jump) << "\n";
    unresolved += function.unresolvedJumps.size();
  }
  out << cfg.functions.size() << " functions, " << tables << " jump tables (" << targets
      << " targets), " << unresolved << " unresolved indirect jmps, " << cfg.rounds
      << " rounds\n";
}

} // namespace

int runCfg(const CfgCommandOptions &options) {
  llvm::Expected<std::unique_ptr<Image>> loaded = loadInput(options.input);
  if (!loaded)
    return reportFailure(loaded.takeError());
  const Image &image = **loaded;

  ProgramDiscoveryRequest request;
  request.all = options.all;
  for (const std::string &spec : options.functions) {
    llvm::Expected<uint64_t> address = resolveFunction(image, spec);
    if (!address)
      return reportFailure(address.takeError());
    if (!image.isExecutable(*address))
      return reportFailure(makeError("{0}: address {1} is not in an executable section",
                                     image.path(), formatAddress(*address)));
    request.roots.push_back(*address);
  }
  if (request.roots.empty() && !request.all) {
    std::optional<uint64_t> main = image.lookupSymbol("main");
    uint64_t root = main ? *main : image.entryPoint();
    if (!image.isExecutable(root))
      return reportFailure(makeError("{0}: no main and no executable entry point; use "
                                     "--function or --all",
                                     image.path()));
    request.roots.push_back(root);
  }

  DiagnosticSink diagnostics;
  ProgramCfg cfg = discoverProgram(image, request, LiftOptions{}, diagnostics);
  if (options.json) {
    llvm::json::Array functions;
    for (const auto &[entry, function] : cfg.functions)
      functions.push_back(functionToJson(image, cfg, function));
    llvm::json::Object root{{"binary", image.path()},
                            {"format", image.format() == ImageFormat::Pe ? "pe" : "elf"},
                            {"functions", std::move(functions)}};
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
  } else {
    printText(image, cfg, llvm::outs());
  }
  for (const Diagnostic &d : diagnostics.all())
    llvm::errs() << "hoist: " << severityName(d.severity) << ": " << d.message << "\n";
  return 0;
}

} // namespace hoist
