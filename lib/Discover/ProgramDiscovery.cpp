#include "Discover/ProgramDiscovery.h"

#include "Decode/Decoder.h"
#include "Discover/CodePointers.h"
#include "Discover/EntryShape.h"
#include "Discover/FunctionParts.h"
#include "Discover/FunctionStarts.h"
#include "Discover/LayoutTailCalls.h"
#include "Discover/NoReturn.h"
#include "Discover/ParallelExplorer.h"
#include "Discover/StackDepth.h"
#include "Support/Diagnostics.h"
#include "Support/TimeBudget.h"

#include <utility>

namespace hoist {
namespace {

class ProgramDiscovery {
public:
  ProgramDiscovery(const Image &image, const ProgramDiscoveryRequest &request,
                   const LiftOptions &options, DiagnosticSink &diagnostics)
      : image_(image), request_(request), options_(options), diagnostics_(diagnostics),
        cache_(std::make_unique<InstructionCache>(image)) {
    if (options.discoveryThreads > 1)
      // Two sets of caches (ParallelExplorer.h), each a quarter of the budget: a cache is
      // trimmed a batch later than with one set, and grows by a batch's instructions more.
      // With half the budget each, `--all -j 2` on bash peaked 15% higher than with one set;
      // with a quarter, as high, and decoding took no larger share of the CPU
      // (measured when this was built; git log -- docs/PERFORMANCE.md).
      parallel_ =
          std::make_unique<ParallelExplorer>(image, options.discoveryThreads, CacheBudget / 4);
  }

  ProgramCfg run() {
    unwindRanges_ =
        registerFunctionStarts(image_, cfg_.registry, continuingFrames_, diagnostics_);
    for (uint64_t root : request_.roots)
      cfg_.registry.add(root, ReasonEntry);
    cfg_.noreturnCallees = knownNoReturnCallees(image_);
    declaredNoReturn_ = cfg_.noreturnCallees;
    cfg_.noreturnWhenStatusNonzero = noReturnWhenStatusNonzeroCallees(image_);
    std::set<uint64_t> wanted(request_.roots.begin(), request_.roots.end());
    if (request_.all) {
      DataPointers pointers = codePointersInData(image_);
      for (uint64_t pointer : pointers.relocated)
        candidates_.insert({DataPointerRank, pointer});
      for (uint64_t word : pointers.words)
        candidates_.insert({DataWordRank, word});
    }

    while (budgetLeft()) {
      std::vector<uint64_t> changed = cfg_.registry.takeChanged();
      std::set<uint64_t> starts = currentStarts();
      // The parents of the parts the last round found, which explore them as their own code.
      std::set<uint64_t> todo = std::exchange(partParentsToExplore_, {});
      for (uint64_t address : changed)
        if (cfg_.isFunctionStart(address) && (request_.all || wanted.count(address)) &&
            !cfg_.functions.count(address))
          todo.insert(address);
      // A function that ran into an address that is now another function's start (a tail
      // call, not its own code) is explored again.
      for (uint64_t address : changed) {
        if (!cfg_.isFunctionStart(address))
          continue;
        auto owners = blockOwners_.find(address);
        if (owners == blockOwners_.end())
          continue;
        for (uint64_t entry : owners->second)
          if (auto owner = cfg_.functions.find(entry);
              entry != address && owner != cfg_.functions.end() &&
              owner->second.explored.blocks.count(address))
            todo.insert(entry);
      }
      // A function without an unwind range whose code reaches past a new start may now jump
      // over it (registerLeavingJumps): diffutils' `areadlink`, explored before `strcaseeq`
      // was found, and whose `jmp careadlinkat` crosses it.
      if (!changed.empty())
        for (const auto &[entry, function] : cfg_.functions) {
          if (unwindRanges_.count(entry) || function.explored.blocks.empty())
            continue;
          uint64_t end = function.explored.blocks.rbegin()->second.endAddress;
          for (auto it = std::upper_bound(changed.begin(), changed.end(), entry);
               it != changed.end() && *it < end; ++it)
            if (cfg_.isFunctionStart(*it)) {
              todo.insert(entry);
              break;
            }
        }
      // A start taken from a code pointer is no change (startFunction), but a function
      // without an unwind range whose branch crosses it now jumps over another function's
      // start: find's `parse_amin` at clang-19 -Os, first explored through `do_parse_xmin`,
      // over `parse_cmin` and `parse_mmin`, whose pointers were weighed after it.
      if (!pointerStarts_.empty()) {
        std::set<uint64_t> taken = std::exchange(pointerStarts_, {});
        for (const auto &[entry, function] : cfg_.functions)
          if (!unwindRanges_.count(entry) && !function.explored.blocks.empty() &&
              function.explored.blocks.begin()->first < *taken.rbegin() &&
              function.explored.blocks.rbegin()->second.endAddress > *taken.begin() &&
              (branchFirstCrosses(function.explored, taken, starts) ||
               holdsInsideABlock(function.explored, taken)))
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
        if (todo.empty()) {
          // Then the parts: their parents explore them as their own code.
          todo = settleParts(/*fixedPoint=*/true);
          starts = currentStarts();
        }
        if (todo.empty()) {
          // Only now, with every function known for a better reason explored and its jump
          // tables resolved, are code pointers weighed: most that point into a function's
          // blocks are its labels (absolute jump-table entries), not functions.
          if (!request_.all || !weighCandidates(starts))
            break;
          ++waves_;
          continue;
        }
      }
      // A round that follows an accepted code pointer is not counted against the budget: each
      // consumes a candidate, and there are finitely many.
      if (++cfg_.rounds > options_.maxDiscoveryRounds * 4 + waves_) {
        stop_ = Stop::Rounds;
        break;
      }
      exploreRound(todo, starts);
      // Parts are settled after each round too, before a part explored as a function has its
      // jumps back into its parent taken for tail calls, which would split the parent.
      partParentsToExplore_ = settleParts(/*fixedPoint=*/false);
    }
    reportStop();
    return std::move(cfg_);
  }

private:
  /// Why discovery stopped before it ran out of work.
  enum class Stop { None, Rounds, Functions, Deadline };

  /// Whether one more function may be explored; records the budget that ran out otherwise.
  bool budgetLeft() {
    if (stop_ == Stop::None && cfg_.functions.size() >= options_.maxFunctions)
      stop_ = Stop::Functions;
    if (stop_ == Stop::None && options_.pastDeadline())
      stop_ = Stop::Deadline;
    return stop_ == Stop::None;
  }

  void reportStop() {
    if (stop_ == Stop::None)
      return;
    cfg_.budgetExhausted = true;
    std::string found = std::to_string(cfg_.functions.size()) + " functions";
    if (stop_ == Stop::Deadline)
      return reportTimeBudgetExhausted(diagnostics_, "program discovery stopped after " + found);
    diagnostics_.warning("budget-exhausted", std::nullopt,
                         stop_ == Stop::Rounds
                             ? "program discovery stopped by its round budget after " + found
                             : "program discovery stopped by its function budget (" +
                                   std::to_string(options_.maxFunctions) + " functions)");
  }

  /// One step of the code pointers and gaps, weakest evidence last: code references and
  /// relocated pointers, then the gaps, then the words of a position-dependent image that look
  /// like code addresses, then the gaps again. The entries of an absolute jump table are such
  /// words. Weighed before the gaps, those of a function that nothing calls or points to (gnulib's
  /// `c_ispunct`, unused in diffutils at clang-13 -O0), or whose caller only a word above them
  /// reaches (find's `insert_fprintf`, called from `parse_fprintf` of `parse_table`), would be
  /// taken for functions before the function is found, and its switch for a table of function
  /// pointers. The gap pass before the words runs once, to the end of the code; later passes
  /// run as before. Returns whether anything was accepted.
  bool weighCandidates(std::set<uint64_t> &starts) {
    if (acceptCandidates(starts, DataPointerRank))
      return true;
    // What is left is words (none in an image that can be moved).
    if (gapsBeforeWords_ && !candidates_.empty()) {
      if (acceptGap(starts))
        return true;
      gapsBeforeWords_ = false;
    }
    return acceptCandidates(starts, DataWordRank) || acceptGap(starts);
  }

  /// The precision policy for code pointers (docs/CFG.md, "Code pointers"). Candidates are
  /// weighed in address order, each only once every function known so far is explored, so that
  /// a function's blocks are known before the pointers into its own body are weighed: a
  /// candidate is accepted when it may start a function (executable, not a PLT or an import
  /// stub), decodes, does not start with two zero bytes, and lies in no block of a function
  /// explored so far. An accepted candidate
  /// is explored at once; when that finds new function starts (its calls), the weighing stops
  /// until they are explored too. Only candidates of `lastRank` or a stronger rank are
  /// weighed. Returns whether any was accepted.
  bool acceptCandidates(std::set<uint64_t> &starts, unsigned lastRank) {
    bool accepted = false;
    while (!candidates_.empty() && candidates_.begin()->first <= lastRank &&
           !cfg_.registry.hasChanges() && budgetLeft()) {
      auto [rank, address] = *candidates_.begin();
      uint32_t reason = rank == CodeReferenceRank ? ReasonCodeReference : ReasonDataPointer;
      candidates_.erase(candidates_.begin());
      // A part's start is its parent's code, and a case target a label of its switch: a
      // pointer to either is not evidence of a function.
      if (cfg_.parts.count(address) || cfg_.withdrawnStarts.count(address) ||
          (cfg_.registry.reasons(address) & ReasonJumpTable))
        continue;
      if (cfg_.registry.isFunctionStart(address)) {
        // One more reason, for the record; a start already, so nothing to explore again.
        cfg_.registry.add(address, reason);
        cfg_.registry.takeChanged();
        continue;
      }
      const DecodedAt *decoded = cache_->at(address);
      if (!decoded || decoded->status != DecodeStatus::Ok ||
          (insideExploredBlock(address) && !followsIndirectCall(address)) ||
          startsWithZeroBytes(image_, address))
        continue;
      if (rank == DataWordRank) {
        // A word that only looks like a code address: the code must look like a function's
        // too, or it is more likely a label of a switch whose function is not found yet.
        Tentative tentative = exploreTentatively(address, starts);
        if (whyNotAFunctionEntry(image_, tentative.function, EntryEvidence::Shape))
          continue;
        startFunction(address, reason, starts, std::move(tentative));
        accepted = true;
        continue;
      }
      startFunction(address, reason, starts);
      accepted = true;
    }
    return accepted;
  }

  /// Whether `address`, inside an explored block, comes right after an indirect call of that
  /// block: where the compiler lays out the next function after a call of a noreturn function
  /// pointer, which exploration without unwind tables runs on from (sed's
  /// `_obstack_begin_worker`, `call [obstack_alloc_failed_handler]`, then `print_and_abort`,
  /// which that pointer's initial value points to, at gcc-12 -O1, which aligns nothing).
  bool followsIndirectCall(uint64_t address) {
    auto block = blockExtents_.upper_bound(address);
    if (block == blockExtents_.begin())
      return false;
    --block;
    for (uint64_t at = block->first; at < address;) {
      const DecodedAt *decoded = cache_->at(at);
      if (!decoded || decoded->status != DecodeStatus::Ok)
        return false;
      const Instr &instr = decoded->instr;
      if (instr.next() == address)
        return instr.category == ZYDIS_CATEGORY_CALL && !instr.op(0).isImm();
      at = instr.next();
    }
    return false;
  }

  /// The starts explorations are told: the functions' and the imports' stubs (a jmp to one is a
  /// tail call to the import).
  std::set<uint64_t> currentStarts() const {
    std::set<uint64_t> starts = cfg_.functionStarts();
    for (const Import &import : image_.imports())
      if (import.stubAddress)
        starts.insert(*import.stubAddress);
    return starts;
  }

  /// At a fixed point: a start that is a part of the one function that jumps to it
  /// (FunctionParts.h) becomes that function's code, and so do the starts only its jumps back
  /// registered; a part that has since gained a reason of a function's (a call, a pointer), or
  /// that its parent no longer enters, is a start again, weighed anew. Returns the functions to
  /// explore (again). Code that looks like a part of several functions stays a function, with a
  /// note at the fixed point.
  std::set<uint64_t> settleParts(bool fixedPoint) {
    std::set<uint64_t> todo;
    for (auto part = cfg_.parts.begin(); part != cfg_.parts.end();) {
      // Its parent still enters it: the parent may have been code another function ran into
      // and jumped from (sed's quotearg_n_options, first explored inside its tail-caller).
      auto parent = cfg_.functions.find(part->second);
      bool entered = parent != cfg_.functions.end() &&
                     (parent->second.explored.blocks.count(part->first) ||
                      std::count(parent->second.tailCalls.begin(),
                                 parent->second.tailCalls.end(), part->first));
      if (entered && hasOnlyPartReasons(cfg_.registry.reasons(part->first))) {
        ++part;
        continue;
      }
      todo.insert(part->first);
      todo.insert(part->second);
      part = cfg_.parts.erase(part);
    }
    std::set<uint64_t> starts = cfg_.functionStarts();
    for (const auto &[start, jumpers] : jumpReferences(cfg_.functions, starts)) {
      // A function found a part earlier in this loop jumps for its parent.
      std::set<uint64_t> referrers;
      for (uint64_t jumper : jumpers)
        referrers.insert(cfg_.parts.count(jumper) ? cfg_.parts.at(jumper) : jumper);
      referrers.erase(start);
      if (referrers.empty())
        continue;
      PartCandidate candidate;
      candidate.start = start;
      candidate.reasons = cfg_.registry.reasons(start);
      candidate.name = image_.nameAt(start);
      candidate.continuesFrame = continuingFrames_.count(start) > 0;
      if (auto explored = cfg_.functions.find(start); explored != cfg_.functions.end())
        candidate.asFunction = &explored->second;
      auto partOf = [&](uint64_t parent) {
        auto function = cfg_.functions.find(parent);
        if (function == cfg_.functions.end())
          return false;
        std::optional<std::string> parentName = image_.nameAt(parent);
        candidate.enteredInFrame = [&] {
          return jumpedToInFrame(image_, function->second, start);
        };
        return isPartOf(candidate, function->second,
                        parentName ? std::optional<llvm::StringRef>(*parentName) : std::nullopt,
                        starts);
      };
      if (referrers.size() > 1) {
        if (fixedPoint && std::any_of(referrers.begin(), referrers.end(), partOf) &&
            notedSharedParts_.insert(start).second)
          diagnostics_.report(Severity::Note, "shared-part", start,
                            "code that looks like a part of a function (gcc's .cold) is "
                            "jumped to by " + std::to_string(referrers.size()) +
                                " functions: kept a function of its own");
        continue;
      }
      uint64_t parent = *referrers.begin();
      if (todo.count(start) || !partOf(parent))
        continue;
      cfg_.parts[start] = parent;
      forget(start);
      todo.insert(parent);
    }
    // The starts that only a part's jumps registered (leaves_function) are its parent's code.
    for (bool withdrew = true; withdrew;) {
      withdrew = false;
      for (const auto &[target, sources] : leavingSources_) {
        uint32_t reasons = cfg_.registry.reasons(target) & FunctionStartReasons;
        if (reasons != ReasonLeavesFunction || cfg_.withdrawnStarts.count(target) ||
            cfg_.parts.count(target) ||
            !std::all_of(sources.begin(), sources.end(), [&](uint64_t source) {
              return cfg_.parts.count(source) || cfg_.withdrawnStarts.count(source);
            }))
          continue;
        cfg_.withdrawnStarts.insert(target);
        forget(target);
        for (uint64_t source : sources)
          todo.insert(cfg_.parts.count(source) ? cfg_.parts.at(source) : source);
        withdrew = true;
      }
    }
    for (auto it = todo.begin(); it != todo.end();)
      it = cfg_.isFunctionStart(*it) ? std::next(it) : todo.erase(it);
    return todo;
  }

  /// Drops what was recorded of the function at `entry`, which is no function after all.
  void forget(uint64_t entry) {
    auto old = cfg_.functions.find(entry);
    if (old == cfg_.functions.end())
      return;
    dropExtents(old->second);
    cfg_.functions.erase(old);
  }

  void dropExtents(const DiscoveredFunction &function) {
    for (const auto &[start, block] : function.explored.blocks) {
      auto extents = blockExtents_.find(start);
      extents->second.erase(extents->second.find(block.endAddress));
      if (extents->second.empty())
        blockExtents_.erase(extents);
    }
  }

  bool insideExploredBlock(uint64_t address) const { return exploredBlockEnd(address) != 0; }

  /// The entries of the functions whose explored code holds a block starting at `start`,
  /// with `start` itself: a function's entry block is not in blockOwners_.
  std::set<uint64_t> ownersOfBlock(uint64_t start) const {
    std::set<uint64_t> owners;
    if (auto found = blockOwners_.find(start); found != blockOwners_.end())
      owners = found->second;
    owners.insert(start);
    return owners;
  }

  /// Whether `address` lies in the explored block nearest below it of a function other than
  /// `entry`.
  bool insideOthersBlock(uint64_t address, uint64_t entry) const {
    auto it = blockExtents_.upper_bound(address);
    if (it == blockExtents_.begin())
      return false;
    --it;
    if (address >= *it->second.rbegin())
      return false;
    std::set<uint64_t> owners = ownersOfBlock(it->first);
    return std::any_of(owners.begin(), owners.end(), [&](uint64_t owner) {
      auto function = cfg_.functions.find(owner);
      return owner != entry && function != cfg_.functions.end() &&
             function->second.explored.blocks.count(it->first);
    });
  }

  /// The end of the explored block that holds `address`, or 0.
  uint64_t exploredBlockEnd(uint64_t address) const {
    auto it = blockExtents_.upper_bound(address);
    if (it == blockExtents_.begin())
      return 0;
    --it;
    uint64_t end = *it->second.rbegin();
    return address < end ? end : 0;
  }

  /// The last resort, once no candidate is left: code in a gap between the functions found,
  /// which nothing calls or points to (glibc's `_dl_relocate_static_pie`, an unused static
  /// function). The first instruction of a gap after its alignment filler (nop forms, int3) is
  /// accepted when it is 16-byte aligned, the alignment compilers give functions (an
  /// unaligned gap is more likely unreachable code inside a function), or sets up a frame as
  /// -O0 code does (setsUpAFrame; such code is not aligned), when the code before it
  /// ends in a ret or jmp or filler comes between (not the code right after a call the
  /// compiler did not know to be noreturn), when it is not inside
  /// an unwind range and does not follow code of a function with an unresolved indirect jmp
  /// (whose unreached code the gap likely is). Scanned in address
  /// order, again while the previous pass found functions; returns whether a start was
  /// accepted.
  bool acceptGap(std::set<uint64_t> &starts) {
    if (gapSection_ == image_.sections().size() && explorations_ != gapPassExplorations_) {
      // Functions explored since this pass began (new ones, or callers of a function found
      // not to return) may have split a gap it skipped, one whose first instruction was not
      // aligned: one more pass.
      gapSection_ = 0;
      gapCursor_ = 0;
    }
    if (gapSection_ == 0 && gapCursor_ == 0)
      gapPassExplorations_ = explorations_;
    for (; gapSection_ < image_.sections().size(); ++gapSection_, gapCursor_ = 0) {
      const Section &section = image_.sections()[gapSection_];
      if (!section.mapped || !section.executable ||
          llvm::StringRef(section.name).starts_with(".plt"))
        continue;
      uint64_t end = section.address + section.fileSize;
      gapCursor_ = std::max(gapCursor_, section.address);
      // Whether the cursor is plausibly past the end of the code before: that code ends in a
      // ret or jmp, or filler comes between. Code right after a call the compiler did not know
      // never to return has neither (discovery may know better and leave it unreached).
      bool closed = true;
      // Whether that code ends in a call discovery found never to return (closed or not),
      // made inside its caller's frame.
      bool afterFramedNoReturnCall = false;
      // Whether that code ends in a call of a function of the program, with no filler after
      // it: a 16-byte aligned address there is aligned by chance as often as not (clang -O0's
      // `jmp L` after bzip2recover's `call readError`, which exits, lies at 0x1dc0), so the
      // code must show its shape too. After an import its header declares noreturn the
      // compiler put no code of the caller (tar's `call __stack_chk_fail`, then a function).
      bool rightAfterCall = false;
      while (gapCursor_ < end && budgetLeft()) {
        if (uint64_t blockEnd = exploredBlockEnd(gapCursor_)) {
          gapCursor_ = blockEnd;
          closed = transferEnds_.count(blockEnd) > 0 || endsInDeclaredNoReturnCall(blockEnd);
          rightAfterCall = !transferEnds_.count(blockEnd) && !endsInDeclaredImportCall(blockEnd);
          afterFramedNoReturnCall =
              !closed && noreturnCallEnds_.count(blockEnd) && callsInsideAFrame(blockEnd);
          continue;
        }
        const DecodedAt *decoded = cache_->at(gapCursor_);
        if (!decoded || decoded->status != DecodeStatus::Ok) {
          gapCursor_ = nextExploredBlock(gapCursor_, end);
          continue;
        }
        const Instr &instr = decoded->instr;
        if (isFiller(instr)) {
          closed = true;
          rightAfterCall = false;
          gapCursor_ = instr.next();
          continue;
        }
        uint64_t address = gapCursor_;
        gapCursor_ = nextExploredBlock(gapCursor_, end);
        if ((!closed && !afterFramedNoReturnCall) || !mayStartFunction(image_, address) ||
            cfg_.registry.isFunctionStart(address) ||
            insideUnwindRange(unwindRanges_, address) || followsUnresolvedCode(address))
          continue;
        if (!closed || rightAfterCall || (address % 16 != 0 && !setsUpAFrame(address))) {
          // Not aligned and no -O0 frame: code at -Os, where no function is aligned, or
          // unreached code inside a function. Or code right after a call that the compiler
          // may not have known never returns: the caller's dead code, or a function (the
          // other calls of the callee may be followed by functions not found yet). Only the
          // code's shape can tell; after such a call it must return, balanced, at least once.
          Tentative tentative = exploreTentatively(address, starts);
          if (!isWellFormedGapFunction(tentative.function,
                                       closed ? EntryEvidence::Shape
                                              : EntryEvidence::BalancedReturn))
            continue;
          startFunction(address, ReasonCodeGap, starts, std::move(tentative));
        } else {
          startFunction(address, ReasonCodeGap, starts);
        }
        gapCursor_ = address;   // what follows its blocks is the next gap
        return true;
      }
    }
    return false;
  }

  /// Whether code at an unaligned gap without a frame, explored as a function, is one: it has
  /// the shape of a function's entry (whyNotAFunctionEntry), none of its blocks starts inside a
  /// block of a function explored so far (a function's code does not run into another's; a
  /// block start that another function has too is a function both jump to, like find's
  /// `do_parse_xmin`, which `parse_amin` first ran into and `parse_cmin` tail-calls), and every
  /// indirect jmp it has is resolved (a computed one may have case labels nothing reached,
  /// which the gaps after it would be).
  bool isWellFormedGapFunction(const DiscoveredFunction &function,
                               EntryEvidence evidence) const {
    if (whyNotAFunctionEntry(image_, function, evidence))
      return false;
    for (const auto &[start, block] : function.explored.blocks)
      if (insideExploredBlock(start) && !blockExtents_.count(start))
        return false;
    return std::none_of(function.unresolvedJumps.begin(), function.unresolvedJumps.end(),
                        [](const UnresolvedJump &jump) { return jump.computed; });
  }

  /// Whether the call that ends the explored block ending at `blockEnd` is made, in each
  /// function that has the block, with rsp known to be below where it was at the function's
  /// entry: a compiler aligns the stack for a call (`push rax`, `sub rsp, 8`), and the caller's
  /// dead code after it, if any, must then undo that before it returns, which a gap function's
  /// shape rules out (EntryEvidence::BalancedReturn). After a call made at the entry's rsp,
  /// dead code (a bare `ret`) would look like a function.
  bool callsInsideAFrame(uint64_t blockEnd) const {
    auto block = blockExtents_.lower_bound(blockEnd);
    if (block == blockExtents_.begin())
      return false;
    --block;
    bool framed = false;
    for (uint64_t owner : ownersOfBlock(block->first)) {
      auto function = cfg_.functions.find(owner);
      if (function == cfg_.functions.end())
        continue;
      auto ownBlock = function->second.explored.blocks.find(block->first);
      if (ownBlock == function->second.explored.blocks.end() ||
          ownBlock->second.endAddress != blockEnd)
        continue;
      bool known = true, seen = false;
      forEachInstructionWithStackDepth(
          image_, function->second, [&](const Instr &instr, std::optional<int64_t> depth) {
            if (instr.next() != blockEnd || instr.mnemonic != ZYDIS_MNEMONIC_CALL)
              return;
            seen = true;
            known = known && depth && *depth < 0;
          });
      if (!seen || !known)
        return false;
      framed = true;
    }
    return framed;
  }

  /// A function explored without being recorded, and what its exploration reported.
  struct Tentative {
    DiscoveredFunction function;
    DiagnosticSink diagnostics;
  };

  /// Explores `address` as if it started a function, recording nothing: for a start that only
  /// the shape of its code can justify. Its blocks keep their instructions until the cache is
  /// next trimmed (here, by explore or by startFunction).
  Tentative exploreTentatively(uint64_t address, const std::set<uint64_t> &starts) {
    if (cache_->size() > CacheBudget)
      cache_ = std::make_unique<InstructionCache>(image_);
    std::set<uint64_t> withIt = starts;
    withIt.insert(address);
    Tentative tentative;
    tentative.function = discoverFunction(image_, *cache_, address, options_,
                                          tentative.diagnostics, hintsFor(address, withIt));
    return tentative;
  }

  /// Makes `address` a function start for `reason` and explores it, or records what
  /// exploreTentatively found there. A start found in a gap leaves the registry's change for
  /// the next round: not to explore `address` again (it is explored here), but for the
  /// functions explored before that ran into it or jump over it (registerLeavingJumps): find's
  /// `parse_amin`, `parse_cmin` and `parse_mmin` at clang-13 -Os each jump to `do_parse_xmin`,
  /// over the others, which the same gap pass found after them. A code pointer's is taken: a
  /// round per accepted pointer, and the functions it re-explored (every one whose code reaches
  /// past it), doubled the time of `cfg --all` on bash without `.eh_frame` and changed none of
  /// its functions. It is kept in pointerStarts_ instead, for the functions with a branch across
  /// it (at clang-19 -Os, find's `parse_amin`, `parse_cmin` and `parse_mmin` are found through
  /// `parse_table`'s relocated pointers).
  void startFunction(uint64_t address, uint32_t reason, std::set<uint64_t> &starts,
                     std::optional<Tentative> tentative = std::nullopt) {
    cfg_.registry.add(address, reason);
    if (reason != ReasonCodeGap) {
      cfg_.registry.takeChanged();
      pointerStarts_.insert(address);
    }
    starts.insert(address);
    if (!tentative)
      return explore(address, starts);
    for (const Diagnostic &d : tentative->diagnostics.all())
      diagnostics_.report(d.severity, d.code, d.address, d.message);
    ++explorations_;
    record(address, std::move(tentative->function), starts);
    if (cache_->size() > CacheBudget)
      cache_ = std::make_unique<InstructionCache>(image_);
  }

  /// Whether an explored block ending at `blockEnd` ends in a call that the compiler itself knew
  /// never to return, so that it put nothing of the caller after it (sed's `call panic`, right
  /// before `ck_fdopen`). A callee that discovery found not to return but the compiler did not
  /// know (bash's `command_error`) is followed by the caller's dead code. The compiler knew
  /// when the callee is an import its header declares noreturn, or a function of the program
  /// after every other call of which, and there is one, comes no dead code: another block, a
  /// function's start, filler or the end of the code.
  bool endsInDeclaredNoReturnCall(uint64_t blockEnd) {
    auto call = noreturnCallEnds_.find(blockEnd);
    if (call == noreturnCallEnds_.end())
      return false;
    uint64_t callee = call->second;
    if (declaredNoReturn_.count(callee))
      return true;
    if (!cfg_.functions.count(callee))
      return false;
    unsigned others = 0;
    for (const auto &[end, target] : noreturnCallEnds_) {
      if (target != callee || end == blockEnd)
        continue;
      ++others;
      const DecodedAt *next = cache_->at(end);
      bool accounted = insideExploredBlock(end) || cfg_.isFunctionStart(end) ||
                       !image_.isExecutable(end) ||
                       (next && next->status == DecodeStatus::Ok && isFiller(next->instr));
      if (!accounted)
        return false;
    }
    return others > 0;
  }

  /// Whether the explored block ending at `blockEnd` ends in a call of an import its header
  /// declares noreturn.
  bool endsInDeclaredImportCall(uint64_t blockEnd) const {
    auto call = noreturnCallEnds_.find(blockEnd);
    return call != noreturnCallEnds_.end() && declaredNoReturn_.count(call->second);
  }

  /// `[endbr64;] push rbp; mov rbp, rsp`: the frame every function of gcc's and clang's -O0
  /// code sets up first, which they do not align (sed's `ck_fdopen` right after the `ret` of
  /// `ck_fopen`). Code inside a function does not do it again.
  bool setsUpAFrame(uint64_t address) {
    const DecodedAt *decoded = cache_->at(address);
    if (decoded && decoded->status == DecodeStatus::Ok &&
        decoded->instr.mnemonic == ZYDIS_MNEMONIC_ENDBR64)
      decoded = cache_->at(decoded->instr.next());
    if (!decoded || decoded->status != DecodeStatus::Ok ||
        decoded->instr.mnemonic != ZYDIS_MNEMONIC_PUSH || !decoded->instr.op(0).isReg() ||
        decoded->instr.op(0).reg != ZYDIS_REGISTER_RBP)
      return false;
    const DecodedAt *next = cache_->at(decoded->instr.next());
    return next && next->status == DecodeStatus::Ok && next->instr.mnemonic == ZYDIS_MNEMONIC_MOV &&
           next->instr.op(0).isReg() && next->instr.op(0).reg == ZYDIS_REGISTER_RBP &&
           next->instr.op(1).isReg() && next->instr.op(1).reg == ZYDIS_REGISTER_RSP;
  }

  /// Whether the code just before the gap at `address` belongs to a function with an indirect
  /// jmp discovery could not resolve and whose target may be computed as a table's: the gap is
  /// then likely that function's unreached code (a jump table's aligned case labels), not a
  /// function. A jmp through a pointer loaded from an object or a global (grep's `kwsexec`,
  /// `jmp rax` after `mov rax, [rdi+0x998]`) has no case labels.
  bool followsUnresolvedCode(uint64_t address) const {
    auto before = blockExtents_.lower_bound(address);
    if (before == blockExtents_.begin())
      return false;
    --before;
    for (uint64_t owner : ownersOfBlock(before->first)) {
      auto function = cfg_.functions.find(owner);
      if (function != cfg_.functions.end() &&
          std::any_of(function->second.unresolvedJumps.begin(),
                      function->second.unresolvedJumps.end(),
                      [](const UnresolvedJump &jump) { return jump.computed; }) &&
          function->second.explored.blocks.count(before->first))
        return true;
    }
    return false;
  }

  /// Alignment padding, and the guard traps compilers put after a call that does not return
  /// (the `hlt` after `__libc_start_main` in `_start`).
  static bool isFiller(const Instr &instr) {
    if (instr.mnemonic == ZYDIS_MNEMONIC_XCHG)   // `xchg ax, ax` (66 90), a two-byte nop
      return instr.op(0).isReg() && instr.op(1).isReg() && instr.op(0).reg == instr.op(1).reg;
    return instr.mnemonic == ZYDIS_MNEMONIC_NOP || instr.mnemonic == ZYDIS_MNEMONIC_INT3 ||
           instr.mnemonic == ZYDIS_MNEMONIC_HLT || instr.mnemonic == ZYDIS_MNEMONIC_UD2;
  }

  /// Without any unwinding table, a function is taken to end where the next known function
  /// starts, or where its section ends: the extent a state machine's table is extended over.
  uint64_t nextFunctionStart(uint64_t entry, const std::set<uint64_t> &starts) const {
    const Section *section = image_.sectionAt(entry);
    uint64_t end = section ? section->address + section->size : entry;
    auto next = starts.upper_bound(entry);
    return next != starts.end() && *next < end ? *next : end;
  }

  /// The start of the next explored block after `address`, or `end`.
  uint64_t nextExploredBlock(uint64_t address, uint64_t end) const {
    auto it = blockExtents_.upper_bound(address);
    return it == blockExtents_.end() ? end : std::min(end, it->first);
  }

  /// What an exploration of `entry` is told in a round whose function starts are `starts`.
  ExploreHints hintsFor(uint64_t entry, const std::set<uint64_t> &starts) const {
    ExploreHints hints;
    hints.noreturnCallees = &cfg_.noreturnCallees;
    hints.noreturnWhenStatusNonzero = &cfg_.noreturnWhenStatusNonzero;
    hints.functionStarts = &starts;
    if (auto range = unwindRanges_.find(entry); range != unwindRanges_.end())
      hints.extentEnd = hints.unwindEnd = entry + range->second;
    else if (unwindRanges_.empty())
      hints.extentEnd = nextFunctionStart(entry, starts);
    return hints;
  }

  /// Explores the functions of one round, in address order, while the budget lasts. With
  /// discovery threads (`-j N`), the explorations run on them in batches and are recorded in
  /// the same order: within a round each sees the same hints, so the outcome, diagnostics
  /// included, is the serial one.
  void exploreRound(const std::set<uint64_t> &todo, const std::set<uint64_t> &starts) {
    if (!parallel_ || todo.size() < 2) {
      for (uint64_t entry : todo)
        if (budgetLeft())
          explore(entry, starts);
      return;
    }
    // The entries the serial loop would explore before the function budget runs out (an
    // entry explored again does not add a function).
    std::vector<uint64_t> admitted;
    size_t functions = cfg_.functions.size();
    for (uint64_t entry : todo) {
      if (functions >= options_.maxFunctions)
        break;
      admitted.push_back(entry);
      functions += !cfg_.functions.count(entry);
    }
    // Batches bound the memory the explorations hold (their instructions stay in the threads'
    // caches until recorded) and let the caches be trimmed between them. Each batch is
    // explored while the one before is recorded.
    const size_t batch = 64 * parallel_->threads();
    auto startBatch = [&](size_t first) {
      if (first < admitted.size())
        parallel_->start(
            llvm::ArrayRef(admitted).slice(first, std::min(batch, admitted.size() - first)),
            [&](uint64_t entry) { return hintsFor(entry, starts); }, options_);
    };
    startBatch(0);
    for (size_t first = 0; first < admitted.size(); first += batch) {
      std::vector<Exploration> explored = parallel_->finish();
      startBatch(first + batch);
      for (size_t i = 0; i < explored.size(); ++i) {
        if (!explored[i].done || !budgetLeft()) {
          (void)parallel_->finish();   // the next batch, if started: the deadline has passed
          return (void)budgetLeft();   // the deadline: what is recorded stays
        }
        for (const Diagnostic &d : explored[i].diagnostics.all())
          diagnostics_.report(d.severity, d.code, d.address, d.message);
        ++explorations_;
        record(admitted[first + i], std::move(explored[i].function), starts);
      }
    }
  }

  void explore(uint64_t entry, const std::set<uint64_t> &starts) {
    ++explorations_;
    record(entry,
           discoverFunction(image_, *cache_, entry, options_, diagnostics_,
                            hintsFor(entry, starts)),
           starts);
    if (cache_->size() > CacheBudget)
      cache_ = std::make_unique<InstructionCache>(image_);
  }

  /// Registers what the exploration of `entry` found (call and tail-call targets, jumps that
  /// leave the function, jump-table targets, code references) and keeps the function's blocks'
  /// extents; their instructions (in the cache that explored it) are dropped.
  void record(uint64_t entry, DiscoveredFunction function, const std::set<uint64_t> &starts) {
    for (const CallSite &call : function.calls)
      if (call.target && call.import.empty() && image_.isExecutable(*call.target) &&
          !image_.importAtStub(*call.target))
        cfg_.registry.add(*call.target, ReasonCallTarget);
    for (uint64_t target : function.calledThrough)
      cfg_.registry.add(target, ReasonCalledThrough);
    // A tail call's target is a function start (or an import's stub), but for the entries of a
    // table of function pointers found without unwinding tables: those leave the function for
    // another one.
    for (uint64_t target : function.tailCalls)
      cfg_.registry.add(target, cfg_.registry.isFunctionStart(target) ||
                                        !mayStartFunction(image_, target)
                                    ? ReasonTailCall
                                    : ReasonTailCall | ReasonLeavesFunction);
    registerLeavingJumps(entry, function, starts);
    if (request_.all) {
      std::set<uint64_t> references;
      collectCodeReferences(image_, function.explored, references);
      for (uint64_t reference : references)
        candidates_.insert({CodeReferenceRank, reference});
    }
    // A function explored again (a callee found not to return, a tail call found) replaces
    // its blocks: the old extents go.
    if (auto old = cfg_.functions.find(entry); old != cfg_.functions.end())
      dropExtents(old->second);
    for (auto &[start, block] : function.explored.blocks) {
      blockExtents_[start].insert(block.endAddress);
      if (!block.instrs.empty() && (block.instrs.back()->category == ZYDIS_CATEGORY_RET ||
                                    block.instrs.back()->category == ZYDIS_CATEGORY_UNCOND_BR))
        transferEnds_.insert(block.endAddress);
      if (block.end == MachineBlock::End::NoReturnCall && !block.instrs.empty())
        if (std::optional<uint64_t> callee = directTarget(*block.instrs.back()))
          noreturnCallEnds_[block.endAddress] = *callee;
      if (start != entry)
        blockOwners_[start].insert(entry);
      // What the program's CFG keeps of a block is its extent and edges: the instructions stay
      // in the cache, which is dropped between explorations once it holds CacheBudget
      // instructions, so that memory stays bounded however large the binary (a later
      // exploration decodes again).
      block.instrs.clear();
      block.instrs.shrink_to_fit();
    }
    for (const auto &[jump, table] : function.explored.jumpTables)
      for (uint64_t target : table.targets)
        cfg_.registry.add(target, ReasonJumpTable);
    cfg_.functions[entry] = std::move(function);
  }

  /// A direct jmp that leaves its function goes to another function: past the end of the
  /// function's unwind range, or (without one) below its entry, into code no unwind range
  /// covers. So does a jcc below the entry into code no other function's blocks hold (a part:
  /// grep's `jb main.cold`; into another function's code it is code the two share). That is
  /// how a tail call to a function without unwinding information (crtstuff's
  /// frame_dummy -> register_tm_clones) is found in a stripped binary. Without an unwind range,
  /// a jmp or jcc that jumps over another function's start also leaves: a function's body is
  /// contiguous but for the parts the compiler moved away (gcc's `.cold` parts), which are
  /// functions of their own in the compiler's symbol table.
  void registerLeavingJumps(uint64_t entry, const DiscoveredFunction &function,
                            const std::set<uint64_t> &starts) {
    auto own = unwindRanges_.find(entry);
    // A jump from code the function reached away from its own stretch (a part, gcc's
    // `.cold`) back into that stretch does not leave: its target is a block that the
    // function's other blocks fall or branch into too.
    uint64_t stretchEnd = runEnd(function.explored, entry, starts);
    auto inStretch = [&](uint64_t address) { return address >= entry && address < stretchEnd; };
    std::map<uint64_t, unsigned> predecessors;
    for (const auto &[start, block] : function.explored.blocks)
      for (uint64_t successor : block.successors)
        ++predecessors[successor];
    for (const auto &[start, block] : function.explored.blocks) {
      if (block.instrs.empty())
        continue;
      const Instr &jmp = *block.instrs.back();
      bool unconditional = jmp.category == ZYDIS_CATEGORY_UNCOND_BR;
      if ((!unconditional && jmp.category != ZYDIS_CATEGORY_COND_BR) || !jmp.op(0).isImm())
        continue;
      uint64_t target = jmp.next() + jmp.op(0).imm;
      if (auto reached = predecessors.find(target); reached != predecessors.end() &&
                                                     reached->second > 1 &&
                                                     !inStretch(jmp.address) && inStretch(target))
        continue;
      bool leaves = own != unwindRanges_.end()
                        ? unconditional && target - own->first >= own->second
                        : (jmp.address >= entry && target < entry &&
                           (unconditional || !insideOthersBlock(target, entry))) ||
                              crossesFunctionStart(starts, entry, jmp.address, target) ||
                              (unconditional && predecessors[target] == 1 &&
                               (jumpsOverFillerOnly(jmp, target) ||
                                tailCallsNext(image_, function, jmp, target) ||
                                tailCallsPastOwnCode(image_, function, start, jmp, target))) ||
                              (unconditional && jumpsOverFillerOnly(jmp, target) &&
                               jumpedToOnlyFromAboveWithFrameGone(image_, function, target));
      if (leaves && !insideUnwindRange(unwindRanges_, target) &&
          image_.isExecutable(target) && !image_.importAtStub(target) &&
          !llvm::StringRef(image_.sectionAt(target)->name).starts_with(".plt")) {
        cfg_.registry.add(target, ReasonLeavesFunction);
        leavingSources_[target].insert(entry);
      }
    }
  }

  /// Whether `jmp` jumps forward over nothing but alignment filler to a 16-byte aligned
  /// address: a compiler lets its own code fall through the padding before an aligned block,
  /// so such a jmp is a tail call to the function laid out next (findutils' `gnu_mbswidth`,
  /// `jmp mbsnwidth` at clang -O2, which nothing else calls).
  bool jumpsOverFillerOnly(const Instr &jmp, uint64_t target) {
    if (target % 16 != 0 || target <= jmp.next())
      return false;
    for (uint64_t address = jmp.next(); address < target;) {
      const DecodedAt *decoded = cache_->at(address);
      if (!decoded || decoded->status != DecodeStatus::Ok || !isFiller(decoded->instr))
        return false;
      address = decoded->instr.next();
    }
    return true;
  }

  /// Whether the start of a function other than `entry` lies strictly between a branch at
  /// `at` and its target.
  static bool crossesFunctionStart(const std::set<uint64_t> &starts, uint64_t entry,
                                   uint64_t at, uint64_t target) {
    for (auto it = starts.upper_bound(std::min(at, target));
         it != starts.end() && *it < std::max(at, target); ++it)
      if (*it != entry)
        return true;
    return false;
  }

  const Image &image_;
  const ProgramDiscoveryRequest &request_;
  const LiftOptions &options_;
  DiagnosticSink &diagnostics_;
  /// Decoded instructions kept between explorations: about 600 bytes each, so 16 MiB. The
  /// whole program's (115 MB for bash) were most of the peak memory of `hoist lift --all -j N`;
  /// decoding again what a later exploration needs costs less than 3% of discovery.
  static constexpr size_t CacheBudget = 1 << 15;
  std::unique_ptr<InstructionCache> cache_;
  /// With discovery threads: the explorations of a round, on them (exploreRound).
  std::unique_ptr<ParallelExplorer> parallel_;
  ProgramCfg cfg_;
  UnwindRanges unwindRanges_;
  std::set<uint64_t> continuingFrames_;   ///< unwind entries that start mid-frame
  /// Start -> the functions whose jumps registered it as leaving them (leaves_function).
  std::map<uint64_t, std::set<uint64_t>> leavingSources_;
  /// Starts taken from code pointers since the last round (run: the branches that cross them).
  std::set<uint64_t> pointerStarts_;
  std::set<uint64_t> notedSharedParts_;   ///< parts kept functions, each noted once
  std::set<uint64_t> partParentsToExplore_;   ///< what settleParts found after a round
  /// Block start -> the functions that have a block there (they may have had it once: a set
  /// that only grows; the function's current blocks are checked on use).
  std::map<uint64_t, std::set<uint64_t>> blockOwners_;
  /// Block start -> the ends of the blocks starting there, one per function that has one.
  std::map<uint64_t, std::multiset<uint64_t>> blockExtents_;
  /// Code pointers not yet weighed, by rank, then address. Code references go first: the code
  /// that computes them is reachable, and the functions they lead to (main, from `_start`)
  /// call most of the program, whose jump tables are then resolved before the data pointers
  /// into them are weighed. Words that only look like code addresses go last, after a gap
  /// pass (weighCandidates).
  enum Rank : unsigned { CodeReferenceRank, DataPointerRank, DataWordRank };
  std::set<std::pair<unsigned, uint64_t>> candidates_;
  bool gapsBeforeWords_ = true;   ///< the gap pass before the words has not ended yet
  size_t gapSection_ = 0;    ///< where acceptGap resumes: a section index and an address
  uint64_t gapCursor_ = 0;
  std::set<uint64_t> transferEnds_;   ///< ends of blocks whose last instruction is a ret or jmp
  /// Ends of blocks that end in a direct call that does not return -> the callee.
  std::map<uint64_t, uint64_t> noreturnCallEnds_;
  /// The callees of the imports whose headers declare them noreturn (NoReturn.h).
  std::set<uint64_t> declaredNoReturn_;
  uint64_t explorations_ = 0;         ///< calls of explore()
  uint64_t gapPassExplorations_ = 0;  ///< explorations_ when the current gap pass began
  unsigned waves_ = 0;   ///< rounds that weighed code pointers and accepted some
  Stop stop_ = Stop::None;
};

} // namespace

std::set<uint64_t> ProgramCfg::functionStarts() const {
  std::set<uint64_t> starts = registry.functionStarts();
  for (const auto &[part, parent] : parts)
    starts.erase(part);
  for (uint64_t withdrawn : withdrawnStarts)
    starts.erase(withdrawn);
  return starts;
}

ProgramCfg discoverProgram(const Image &image, const ProgramDiscoveryRequest &request,
                           const LiftOptions &options, DiagnosticSink &diagnostics) {
  return ProgramDiscovery(image, request, options, diagnostics).run();
}

void forEachInstructionOfBlock(const Image &image, Decoder &decoder, uint64_t start,
                               uint64_t end, llvm::function_ref<void(const Instr &)> visit) {
  Instr instr;
  for (uint64_t address = start; address < end; address = instr.next()) {
    llvm::ArrayRef<uint8_t> bytes;
    if (image.isExecutable(address))
      bytes = image.bytesAt(address);
    if (bytes.empty() ||
        decoder.decode(bytes.data(), bytes.size(), address, instr) != DecodeStatus::Ok)
      return;
    visit(instr);
  }
}

} // namespace hoist
