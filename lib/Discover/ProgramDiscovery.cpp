#include "Discover/ProgramDiscovery.h"

#include "Discover/FunctionStarts.h"
#include "Discover/NoReturn.h"
#include "Support/Diagnostics.h"

namespace hoist {
namespace {

class ProgramDiscovery {
public:
  ProgramDiscovery(const Image &image, const ProgramDiscoveryRequest &request,
                   const LiftOptions &options, DiagnosticSink &diagnostics)
      : image_(image), request_(request), options_(options), diagnostics_(diagnostics),
        cache_(std::make_unique<InstructionCache>(image)) {}

  ProgramCfg run() {
    unwindRanges_ = registerFunctionStarts(image_, cfg_.registry, diagnostics_);
    for (uint64_t root : request_.roots)
      cfg_.registry.add(root, ReasonEntry);
    cfg_.noreturnCallees = knownNoReturnCallees(image_);
    std::set<uint64_t> wanted(request_.roots.begin(), request_.roots.end());

    while (true) {
      std::vector<uint64_t> changed = cfg_.registry.takeChanged();
      std::set<uint64_t> starts = cfg_.registry.functionStarts();
      // A jmp to an import's stub is a tail call to the import.
      for (const Import &import : image_.imports())
        if (import.stubAddress)
          starts.insert(*import.stubAddress);
      std::set<uint64_t> todo;
      for (uint64_t address : changed)
        if (cfg_.registry.isFunctionStart(address) && (request_.all || wanted.count(address)) &&
            !cfg_.functions.count(address))
          todo.insert(address);
      // A function that ran into an address that is now another function's start (a tail
      // call, not its own code) is explored again.
      for (uint64_t address : changed) {
        if (!cfg_.registry.isFunctionStart(address))
          continue;
        auto owners = blockOwners_.find(address);
        if (owners == blockOwners_.end())
          continue;
        for (uint64_t entry : owners->second)
          if (entry != address && cfg_.functions.at(entry).explored.blocks.count(address))
            todo.insert(entry);
      }
      if (todo.empty()) {
        // Nothing new to read: functions found not to return detach their callers'
        // fallthroughs, which may make those callers noreturn in turn.
        std::set<uint64_t> newlyNoReturn;
        for (const auto &[entry, function] : cfg_.functions)
          if (function.noreturn && cfg_.noreturnCallees.insert(entry).second)
            newlyNoReturn.insert(entry);
        for (const auto &[entry, function] : cfg_.functions)
          for (const CallSite &call : function.calls)
            if (!call.noreturn && call.target && newlyNoReturn.count(*call.target))
              todo.insert(entry);
        if (todo.empty())
          break;
      }
      if (++cfg_.rounds > options_.maxDiscoveryRounds * 4 ||
          cfg_.functions.size() >= options_.maxFunctions) {
        cfg_.budgetExhausted = true;
        diagnostics_.warning("budget-exhausted", std::nullopt,
                             "program discovery stopped by its round or function budget");
        break;
      }
      for (uint64_t entry : todo)
        explore(entry, starts);
    }
    return std::move(cfg_);
  }

private:
  void explore(uint64_t entry, const std::set<uint64_t> &starts) {
    ExploreHints hints;
    hints.noreturnCallees = &cfg_.noreturnCallees;
    hints.functionStarts = &starts;
    if (auto range = unwindRanges_.find(entry); range != unwindRanges_.end())
      hints.extentEnd = entry + range->second;
    DiscoveredFunction function =
        discoverFunction(image_, *cache_, entry, options_, diagnostics_, hints);
    for (const CallSite &call : function.calls)
      if (call.target && call.import.empty() && image_.isExecutable(*call.target) &&
          !image_.importAtStub(*call.target))
        cfg_.registry.add(*call.target, ReasonCallTarget);
    for (uint64_t target : function.tailCalls)
      cfg_.registry.add(target, ReasonTailCall);
    registerLeavingJumps(entry, function);
    for (auto &[start, block] : function.explored.blocks) {
      if (start != entry)
        blockOwners_[start].insert(entry);
      // What the program's CFG keeps of a block is its extent and edges: the instructions stay
      // in the cache, which is dropped once it holds a function budget's worth, so that memory
      // stays bounded however large the binary (a later exploration decodes again).
      block.instrs.clear();
      block.instrs.shrink_to_fit();
    }
    if (cache_->size() > options_.maxInstructionsPerFunction)
      cache_ = std::make_unique<InstructionCache>(image_);
    for (const auto &[jump, table] : function.explored.jumpTables)
      for (uint64_t target : table.targets)
        cfg_.registry.add(target, ReasonJumpTable);
    cfg_.functions[entry] = std::move(function);
  }

  /// A direct jmp that leaves its function goes to another function: past the end of the
  /// function's unwind range, or (without one) below its entry, into code no unwind range
  /// covers. That is how a tail call to a function without unwinding information (crtstuff's
  /// frame_dummy -> register_tm_clones) is found in a stripped binary.
  void registerLeavingJumps(uint64_t entry, const DiscoveredFunction &function) {
    auto own = unwindRanges_.find(entry);
    for (const auto &[start, block] : function.explored.blocks) {
      if (block.instrs.empty() || block.instrs.back()->category != ZYDIS_CATEGORY_UNCOND_BR)
        continue;
      const Instr &jmp = *block.instrs.back();
      if (!jmp.op(0).isImm())
        continue;
      uint64_t target = jmp.next() + jmp.op(0).imm;
      bool leaves = own != unwindRanges_.end() ? target - own->first >= own->second
                                               : target < entry;
      if (leaves && !insideUnwindRange(unwindRanges_, target) &&
          image_.isExecutable(target) && !image_.importAtStub(target) &&
          !llvm::StringRef(image_.sectionAt(target)->name).starts_with(".plt"))
        cfg_.registry.add(target, ReasonLeavesFunction);
    }
  }

  const Image &image_;
  const ProgramDiscoveryRequest &request_;
  const LiftOptions &options_;
  DiagnosticSink &diagnostics_;
  std::unique_ptr<InstructionCache> cache_;
  ProgramCfg cfg_;
  UnwindRanges unwindRanges_;
  /// Block start -> the functions that have a block there (they may have had it once: a set
  /// that only grows; the function's current blocks are checked on use).
  std::map<uint64_t, std::set<uint64_t>> blockOwners_;
};

} // namespace

ProgramCfg discoverProgram(const Image &image, const ProgramDiscoveryRequest &request,
                           const LiftOptions &options, DiagnosticSink &diagnostics) {
  return ProgramDiscovery(image, request, options, diagnostics).run();
}

} // namespace hoist
