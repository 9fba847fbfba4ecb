// `hoist cfg`: the control flow that discovery recovers, as text, JSON or Graphviz dot:
// functions with their blocks, resolved jump tables, calls and tail calls (docs/CFG.md).
#include "CfgDot.h"
#include "Commands.h"
#include "DiagnosticReport.h"
#include "ProgressLine.h"
#include "RecognizedFunctions.h"

#include "Decode/Decoder.h"
#include "Discover/FunctionParts.h"
#include "Discover/ProgramDiscovery.h"
#include "Support/Diagnostics.h"
#include "Support/Error.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/ToolOutputFile.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <map>
#include <set>

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

/// What the blocks of every function share: the blocks that belong to more than one function,
/// and the instructions whose bytes overlap another instruction's (code that jumps into the
/// middle of an instruction, read both ways).
struct SharedCode {
  struct Instruction {
    uint64_t end;
    unsigned owners;   ///< functions that have it
  };
  std::map<uint64_t, Instruction> instructions;   ///< every instruction of a block, by start
  std::set<uint64_t> overlapping;                 ///< instructions overlapping another one
};

SharedCode findSharedCode(const Image &image, const ProgramCfg &cfg) {
  SharedCode shared;
  // Only each instruction's end is kept: an InstructionCache would keep every decoded
  // instruction of the program, more memory than the rest of the CFG.
  Decoder decoder;
  // A function's blocks do not overlap, so each function counts once per instruction.
  for (const auto &[entry, function] : cfg.functions)
    for (const auto &[start, block] : function.explored.blocks)
      forEachInstructionOfBlock(image, decoder, start, block.endAddress, [&](const Instr &instr) {
        SharedCode::Instruction &seen = shared.instructions[instr.address];
        seen.end = instr.next();
        ++seen.owners;
      });
  // Overlaps, by a sweep over the starts in order: an instruction overlaps every later one
  // that starts before it ends.
  uint64_t furthestEnd = 0, furthestStart = 0;
  for (const auto &[start, instruction] : shared.instructions) {
    const uint64_t end = instruction.end;
    if (start < furthestEnd) {
      shared.overlapping.insert(start);
      shared.overlapping.insert(furthestStart);
    }
    if (end > furthestEnd) {
      furthestEnd = end;
      furthestStart = start;
    }
  }
  return shared;
}

/// The library function a signature names, or the names that collide there; null if none.
llvm::json::Value recognitionToJson(const std::map<uint64_t, Recognition> &recognized,
                                    uint64_t entry) {
  auto found = recognized.find(entry);
  if (found == recognized.end())
    return nullptr;
  const Recognition &recognition = found->second;
  llvm::json::Array candidates;
  for (const std::string &candidate : recognition.candidates)
    candidates.push_back(candidate);
  return llvm::json::Object{
      {"name", recognition.name.empty() ? llvm::json::Value(nullptr) : recognition.name},
      {"library", recognition.library.empty() ? llvm::json::Value(nullptr) : recognition.library},
      {"candidates", std::move(candidates)},
      {"ifunc_resolver", recognition.indirect}};
}

/// Why discovery took `entry` as a function start (symbol, call, eh_frame, ...).
llvm::json::Array reasonsToJson(const ProgramCfg &cfg, uint64_t entry) {
  llvm::json::Array reasons;
  for (const std::string &reason : reasonNames(cfg.registry.reasons(entry)))
    reasons.push_back(reason);
  return reasons;
}

/// The counts the text listing's last line gives, for the whole program.
struct CfgTotals {
  size_t functions = 0, jumpTables = 0, jumpTableTargets = 0, computedJumps = 0,
         unresolvedJumps = 0, rounds = 0;
};

CfgTotals countTotals(const ProgramCfg &cfg) {
  CfgTotals totals;
  totals.functions = cfg.functions.size();
  totals.rounds = cfg.rounds;
  for (const auto &[entry, function] : cfg.functions) {
    for (const auto &[jump, table] : function.explored.jumpTables) {
      if (table.shape == JumpTable::Shape::Computed)
        continue;   // counted with the other computed jumps
      ++totals.jumpTables;
      totals.jumpTableTargets += table.distinctTargets().size();
    }
    totals.computedJumps += function.computedJumps.size();
    totals.unresolvedJumps += function.unresolvedJumps.size();
  }
  return totals;
}

llvm::json::Object totalsToJson(const CfgTotals &totals) {
  return llvm::json::Object{{"functions", totals.functions},
                            {"jump_tables", totals.jumpTables},
                            {"jump_table_targets", totals.jumpTableTargets},
                            {"computed_jumps", totals.computedJumps},
                            {"unresolved_jumps", totals.unresolvedJumps},
                            {"rounds", totals.rounds}};
}

llvm::json::Object functionToJson(const Image &image, const ProgramCfg &cfg,
                                  const std::set<uint64_t> &starts,
                                  const DiscoveredFunction &function, const SharedCode &shared,
                                  const std::map<uint64_t, Recognition> &recognized) {
  const ExploredFunction &explored = function.explored;
  llvm::json::Array parts;
  for (const CodeRange &part : partExtents(explored, cfg.parts, starts)) {
    std::optional<std::string> name = image.nameAt(part.start);
    parts.push_back(llvm::json::Object{
        {"start", hex(part.start)},
        {"end", hex(part.start + part.size)},
        {"name", name ? llvm::json::Value(*name) : llvm::json::Value(nullptr)}});
  }
  llvm::json::Array tables;
  for (const auto &[jump, table] : explored.jumpTables)
    if (table.shape != JumpTable::Shape::Computed)
      tables.push_back(llvm::json::Object{{"jump", hex(jump)},
                                          {"bound", jumpTableBoundName(table.bound)},
                                          {"targets", hexArray(table.distinctTargets())}});
  llvm::json::Array computed;
  for (const ComputedJump &jump : function.computedJumps) {
    llvm::json::Array targets = hexArray(jump.targets);
    if (!jump.import.empty())
      targets.push_back(jump.import);
    computed.push_back(
        llvm::json::Object{{"jump", hex(jump.jump)}, {"targets", std::move(targets)}});
  }
  llvm::json::Array unresolved;
  for (const UnresolvedJump &jump : function.unresolvedJumps)
    unresolved.push_back(llvm::json::Object{{"jump", hex(jump.jump)}, {"reason", jump.reason}});
  llvm::json::Array blocks;
  std::vector<uint64_t> sharedBlocks, overlapping;
  for (const auto &[start, block] : explored.blocks) {
    bool isShared = false;
    uint64_t instructions = 0;
    // The block's own instructions, one after the other (not every start in its range: an
    // overlapping instruction of another block may start there).
    for (uint64_t address = start; address < block.endAddress; ++instructions) {
      auto instruction = shared.instructions.find(address);
      if (instruction == shared.instructions.end())
        break;
      isShared |= instruction->second.owners > 1;
      if (shared.overlapping.count(address))
        overlapping.push_back(address);
      address = instruction->second.end;
    }
    if (isShared)
      sharedBlocks.push_back(start);
    blocks.push_back(llvm::json::Object{{"start", hex(start)},
                                        {"end", hex(block.endAddress)},
                                        {"instructions", instructions},
                                        {"successors", hexArray(block.successors)}});
  }
  std::sort(overlapping.begin(), overlapping.end());
  overlapping.erase(std::unique(overlapping.begin(), overlapping.end()), overlapping.end());
  llvm::json::Array calls;
  for (const CallSite &call : function.calls)
    calls.push_back(llvm::json::Object{{"at", hex(call.at)}, {"target", callTarget(call)}});
  std::optional<std::string> name = image.nameAt(explored.entry);
  return llvm::json::Object{
      {"entry", hex(explored.entry)},
      {"name", name ? llvm::json::Value(*name) : llvm::json::Value(nullptr)},
      {"noreturn", cfg.noreturnCallees.count(explored.entry) > 0 || function.noreturn},
      {"reasons", reasonsToJson(cfg, explored.entry)},
      // The function is an IFUNC's resolver: it returns the implementation's address.
      {"ifunc_resolver", image.indirectFunctionAt(explored.entry) != nullptr},
      {"blocks", std::move(blocks)},
      {"parts", std::move(parts)},
      {"jump_tables", std::move(tables)},
      {"computed_jumps", std::move(computed)},
      {"unresolved_jumps", std::move(unresolved)},
      {"calls", std::move(calls)},
      {"tail_calls", hexArray(function.tailCalls)},
      {"shared_blocks", hexArray(sharedBlocks)},
      {"overlapping_instructions", hexArray(overlapping)},
      {"recognized", recognitionToJson(recognized, explored.entry)}};
}

void printText(const Image &image, const ProgramCfg &cfg,
               const std::map<uint64_t, Recognition> &recognized, llvm::raw_ostream &out) {
  std::set<uint64_t> starts = cfg.functionStarts();
  for (const auto &[entry, function] : cfg.functions) {
    std::optional<std::string> name = image.nameAt(entry);
    // A symbol's name stays; a signature's shows where there is none, with its library.
    auto signature = recognized.find(entry);
    if (!name && signature != recognized.end())
      name = recognizedLabel(signature->second) +
             (signature->second.library.empty() ? "" : " (" + signature->second.library + ")");
    out << "function " << hex(entry) << " " << (name ? *name : "-") << " ["
        << llvm::join(reasonNames(cfg.registry.reasons(entry)), ",") << "]"
        << (function.noreturn ? " noreturn" : "")
        << (image.indirectFunctionAt(entry) ? " ifunc-resolver" : "") << ": "
        << function.explored.blocks.size()
        << " blocks, " << function.calls.size() << " calls\n";
    for (const CodeRange &part : partExtents(function.explored, cfg.parts, starts)) {
      std::optional<std::string> partName = image.nameAt(part.start);
      out << "  part " << hex(part.start) << ".." << hex(part.start + part.size)
          << (partName ? " " + *partName : "") << " ["
          << llvm::join(reasonNames(cfg.registry.reasons(part.start)), ",") << "]\n";
    }
    for (const auto &[jump, table] : function.explored.jumpTables) {
      if (table.shape == JumpTable::Shape::Computed)
        continue;   // listed with the other computed jumps below
      out << "  jump table at " << hex(jump) << ": " << jumpTableShapeName(table.shape) << ", "
          << table.targets.size() << " entries at " << hex(table.table) << ", "
          << table.distinctTargets().size() << " targets";
      if (table.bound != JumpTable::Bound::Compare)
        out << ", bound: " << jumpTableBoundName(table.bound);
      if (table.indexTable)
        out << ", through a " << table.indexEntrySize << "-byte index table at "
            << hex(table.indexTable);
      out << "\n";
    }
    for (const ComputedJump &jump : function.computedJumps) {
      out << "  computed jmp at " << hex(jump.jump) << " to";
      for (uint64_t target : jump.targets)
        out << " " << hex(target);
      if (!jump.import.empty())
        out << " " << jump.import;
      out << "\n";
    }
    for (const UnresolvedJump &jump : function.unresolvedJumps)
      out << "  unresolved indirect jmp at " << hex(jump.jump) << ": " << jump.reason << "\n";
  }
  CfgTotals totals = countTotals(cfg);
  out << totals.functions << " functions, " << totals.jumpTables << " jump tables ("
      << totals.jumpTableTargets << " targets), " << totals.computedJumps << " computed jmps, "
      << totals.unresolvedJumps << " unresolved indirect jmps, " << totals.rounds << " rounds\n";
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
    uint64_t root = takeDefaultFunction(image);
    if (!image.isExecutable(root))
      return reportFailure(makeError("{0}: no main and no executable entry point; use "
                                     "--function or --all",
                                     image.path()));
    request.roots.push_back(root);
  }

  DiagnosticSink diagnostics;
  ProgressLine progressLine(options.quiet);
  Progress *progress = progressLine.progress();
  beginPhase(progress, "discovering");
  ProgramCfg cfg = discoverProgram(image, request, options.budgets, diagnostics);
  std::map<uint64_t, Recognition> recognized;
  if (options.recognize)
    recognized = recognizeProgram(image, cfg.functions);
  std::error_code error;
  llvm::ToolOutputFile output(options.outputPath, error, llvm::sys::fs::OF_Text);
  if (error) {
    return progressLine.fail(
        makeError("{0}: cannot write: {1}", options.outputPath, error.message()));
  }
  progressLine.beforeOutputTo(options.outputPath);
  beginPhase(progress, "writing", cfg.functions.size());
  llvm::raw_ostream &out = output.os();
  if (options.dot) {
    writeCfgDot(image, cfg.functions, out);
  } else if (options.json) {
    // Streamed a function at a time: the whole document as one json::Value took 1.9 GB for
    // a 5 MB binary whose text listing needs 190 MB. The keys go out in the order json::Object
    // sorts them to, so the output is the same byte for byte as the document printed whole.
    SharedCode shared = findSharedCode(image, cfg);
    std::set<uint64_t> starts = cfg.functionStarts();
    llvm::json::OStream json(out, /*IndentSize=*/2);
    json.object([&] {
      json.attribute("binary", image.path());
      json.attribute("format", image.format() == ImageFormat::Pe ? "pe" : "elf");
      json.attributeArray("functions", [&] {
        for (const auto &[entry, function] : cfg.functions) {
          json.value(functionToJson(image, cfg, starts, function, shared, recognized));
          advanceProgress(progress);
        }
      });
      json.attribute("totals", totalsToJson(countTotals(cfg)));
    });
    out << "\n";
  } else {
    printText(image, cfg, recognized, out);
  }
  output.keep();
  progressLine.stop();
  printDiagnostics(diagnostics, options.maxWarnings, llvm::errs());
  return 0;
}

} // namespace hoist
