#include "Deobf/Concolic/ConcolicLifter.h"

#include "Arch/LiftContext.h"
#include "Deobf/Concolic/BranchProver.h"
#include "Arch/StateLayout.h"
#include "Brighten/CallingConvention.h"
#include "Deobf/Concolic/ConcreteMemory.h"
#include "Deobf/Concolic/Context.h"
#include "Deobf/Concolic/JoinMerging.h"
#include "Brighten/ImportEffects.h"
#include "Deobf/Concolic/LocalSimplifier.h"
#include "Deobf/Concolic/LoopGeneralization.h"
#include "Deobf/Concolic/PossibleTargets.h"
#include "Deobf/Concolic/RegisterLiveness.h"
#include "Discover/FunctionDiscovery.h"
#include "Discover/InstructionCache.h"
#include "Lift/CallTargets.h"
#include "Lift/Intrinsics.h"
#include "Semantics/Semantics.h"
#include "Support/Diagnostics.h"
#include "Support/Error.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Metadata.h>
#include <llvm/Support/FormatVariadic.h>

#include <algorithm>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace hoist {
namespace {

/// A generalized header's context, kept across restarts (see ConcolicLifter::run).
struct Generalization {
  uint64_t address;
  Context context;
  /// Lifting under it met a jump whose target it made unknown (a VM's virtual PC taken for
  /// loop data): speculation refuted, the header is unrolled instead.
  bool rejected = false;
  /// A join (JoinMerging.h) whose two sides' live differences were made unknown, not a loop.
  bool join = false;
};

/// Speculating a join only pays, and is only safe, where the dispatcher's state agrees: the
/// second side must first follow the first side's path (same addresses, same constants read
/// from the image) through this many steps that read the image (a VM's bytecode fetches: a
/// different virtual PC fetches elsewhere) before the differing bytes are made unknown...
constexpr unsigned JoinLockstepFetches = 2;
/// ... within this many instances.
constexpr unsigned MaxJoinLockstep = 64;
/// Joins made unknown per function (each costs a restart).
constexpr unsigned MaxJoinGeneralizations = 4;

struct Instance {
  PathNode path;
  Context context;
  uint64_t hash = 0;
  llvm::BasicBlock *bb = nullptr;
  RegisterFile::Block *registers = nullptr;
  bool generalized = false;
  /// The generalization (index into the attempt's list) this instance is lifted under: its
  /// own, or its creator's; -1 for none.
  int generalization = -1;
  /// For merging at joins (JoinMerging.h): the known memory it read and wrote, its edges to
  /// the next instances, and whether it is finished.
  MemoryAccesses accesses;
  std::vector<InstanceEdge> edges;
  bool lifted = false;
};

/// An edge to a block that leaves the function (a budget ran out): filled once the branch
/// into it exists, so that its reads look into the finished block.
struct Exit {
  RegisterFile::Block *block;
  uint64_t target;
};

class ConcolicLifter final : public ControlTransfers {
public:
  ConcolicLifter(const Image &image, InstructionCache &cache, const DeobfuscateOptions &options,
                 DiagnosticSink &diagnostics, llvm::Function &function,
                 std::vector<Generalization> &generalizations, bool mayRestart,
                 const std::set<uint64_t> &leaders, const JumpTableMap &staticTables,
                 const RegisterLiveness &liveness, BranchProver &prover,
                 UnwrittenData &unwritten);

  /// Lifts from `entry`; false when a new loop generalization asks for a restart (the body
  /// is then incomplete and must be discarded).
  bool run(uint64_t entry);
  DeobfuscationStats stats() const;

  // ControlTransfers.
  void jump(uint64_t target) override;
  void branch(llvm::Value *condition, uint64_t taken, uint64_t notTaken) override;
  void jumpIndirect(llvm::Value *target) override;
  void call(llvm::Value *target, uint64_t returnAddress) override;
  void ret(llvm::Value *target) override;
  void trap(llvm::Value *address, HoistException exception) override;
  void trapIf(llvm::Value *condition, llvm::Value *address, HoistException exception) override;
  /// leave() through __hoist_trap, with State.EXCEPTION set to `exception` first.
  void leaveByTrap(RegisterFile::Block *block, llvm::Value *rip, HoistException exception);
  void branchIf(llvm::Value *condition, uint64_t target) override;
  void callRuntime(llvm::StringRef name) override;
  void ifThenElse(llvm::Value *condition, llvm::function_ref<void()> then,
                  llvm::function_ref<void()> otherwise) override;
  void unsupportedAtRunTime() override;
  /// Never called: under the MemoryObserver semantics update memory without atomics.
  void repeatUntil(llvm::function_ref<llvm::Value *()>) override {
    llvm_unreachable("concolic lifting makes no locked updates");
  }

private:
  void liftInstance(Instance &instance);
  /// Deletes the stores into the function's own frame that nothing can read: every read of
  /// them was answered while lifting (an interpreter's temporaries, pushed return addresses,
  /// push/ret continuations), no emitted load reads them and no code outside the function
  /// gets to them. Once the frame escapes (a pointer given to an import), LLVM could not
  /// prove them dead; code addresses would keep the image in the IR.
  void dropDeadFrameStores();
  void defineContext(Instance &instance);
  void liftInstruction(const Instr &instr);
  /// Reports the instruction's reads of writable data the path did not store: left symbolic,
  /// or read as the file's bytes by --concrete-memory's assumption.
  void reportWritableDataReads(const Instr &instr);
  /// A branch or jump decided where the path read assumed data: says which (once per address).
  void reportAssumedDecision();
  /// An instruction whose symbolic read of writable data (a deobfuscate-symbolic-data note)
  /// `value` is computed from, if one is among its first operands.
  std::optional<uint64_t> symbolicDataSource(llvm::Value *value) const;
  Context capture();
  std::array<AbstractValue, Context::NumGprs> captureGprs();
  Instance *findOrCreate(uint64_t target, const Context &context, bool fork);
  /// A finished instance of `target` that may stand for an arrival with `context`: their
  /// contexts differ only in memory bytes nothing reads from there on (JoinMerging.h).
  /// Else, in `partners`, the finished instances whose contexts differ from `context` in live
  /// memory bytes only, closest first, that are not ancestors (loops).
  Instance *joinWithDeadDifference(uint64_t target, const Context &context,
                                   std::vector<size_t> &partners);
  /// Whether an arrival at `target` (node `path`) completes the lockstep of a pending join:
  /// then the join's address is generalized (a restart).
  bool confirmJoin(uint64_t target, const PathNode &path);
  bool isAncestor(const Instance &instance);
  Instance *create(uint64_t target, const Context &context, const PathNode &path,
                   int generalization, bool generalized);
  llvm::BasicBlock *edgeTo(uint64_t target, const Context &context, bool fork,
                           std::vector<Exit> &exits);
  void fillExits(const std::vector<Exit> &exits);
  /// Goes to a concrete `target`: an import's stub or an outlined function is a tail call,
  /// anything else the next block instance.
  /// `fork`: the edge is one side of a branch on a symbolic condition.
  void jumpTo(uint64_t target, bool fork = false);
  /// Splits an arrival at `target` in two when a live register holds one of two constants
  /// (a flattened dispatcher's next state `cond ? A : B`, compiled into a cmov, or a `setl`
  /// and arithmetic) where an earlier instance of `target` knew it: a branch on which, the
  /// register known on each side, as if the compiler had branched. Without it the arrival
  /// would look like a loop whose state only turned unknown and be generalized, the
  /// dispatcher kept. False when nothing was split.
  bool splitOnTwoConstants(uint64_t target);
  /// Makes `bb` a part of the code `from` branches to, and the tail: `from` its only
  /// predecessor, the memory as it was at the branch (`before`), the position at `instr`.
  RegisterFile::Block *startPart(llvm::BasicBlock *bb, RegisterFile::Block *from,
                                 const MemoryState &before, const Instr &instr);
  /// Splits nested in one arrival (one per register), at most MaxSplitDepth: 2^depth arrivals.
  static constexpr unsigned MaxSplitDepth = 3;
  unsigned splitDepth_ = 0;
  /// A jmp (or ret) into a function that stays a call: it returns where [RSP] says.
  void tailCall(llvm::FunctionCallee callee, llvm::Value *rip, bool mayWriteGlobals,
                const Import *import = nullptr);
  /// Calls code outside the function whose `ret` pops the return address at [RSP]
  /// (`returnAddress`), then goes on after it as the ABI says the machine is.
  void callExternal(llvm::FunctionCallee callee, llvm::Value *rip, uint64_t returnAddress,
                    bool mayWriteGlobals, const Import *import = nullptr);
  /// What the callee of an external call may write: through the pointers it gets (all it
  /// can reach, or only what ImportEffects says of a known import), and the stack it owns
  /// above the return address at `returnSlot` (Win64's home area, a known import's stack
  /// arguments).
  void forgetCalleeWrites(const std::array<llvm::Value *, Context::NumGprs> &gprs,
                          const AbstractValue &returnSlot, bool mayWriteGlobals,
                          const Import *import);
  /// After a runtime call for the current instruction: registers it does not write keep
  /// what they held (State was reloaded).
  void keepUnwritten(const std::array<AbstractValue, Context::NumGprs> &before);
  /// What code outside the function can reach through registers: the argument registers of
  /// a call (`call`), or every register but RSP and RBP (a runtime call, a syscall).
  std::vector<AbstractValue> escapingRegisters(const std::array<AbstractValue, Context::NumGprs> &gprs,
                                               bool call) const;
  void leave(RegisterFile::Block *block, llvm::FunctionCallee callee, llvm::Value *rip,
             bool returns);
  void continueUnless(llvm::Value *condition, llvm::BasicBlock *taken);
  /// A symbolic branch condition decided by its possible values or a proof (counted as a
  /// folded or proved branch), else nullopt.
  std::optional<bool> decide(llvm::Value *condition);
  /// The rest of the current instruction cannot run (a concrete branch left it): its IR goes
  /// to a block without predecessors and its control flow is ignored.
  void becomeDead();
  bool outlined(uint64_t address) const;
  /// The import whose slot `target` was loaded from (`mov rbx, [__imp_f]` ... `call rbx`:
  /// compilers keep an import's address in a register across several calls).
  const Import *importLoadedInto(llvm::Value *target) const;
  void budgetExhausted(uint64_t address, const std::string &what,
                       const char *consequence = "the path leaves through __hoist_jmp");
  void tagWithAddress(llvm::BasicBlock *bb, llvm::Instruction *after, uint64_t address);
  std::string blockName(const llvm::Twine &prefix, uint64_t address) const {
    if (context_.shouldDiscardValueNames())
      return {};
    return (prefix + llvm::utohexstr(address, true)).str();
  }
  llvm::Value *rsp0() const { return memory_.entryStack(); }
  /// The IR for a register value the context knows (AbstractValue's every kind but Symbolic).
  llvm::Value *materializeKnown(llvm::IRBuilderBase &ir, const AbstractValue &value);
  /// The callee-saved registers' values at entry (null for the others).
  std::array<llvm::Value *, Context::NumGprs> entryValues_{};

  const Image &image_;
  const JumpTableMap &staticTables_;   ///< the jump tables discovery resolved, by jmp
  InstructionCache &cache_;
  const DeobfuscateOptions &options_;
  DiagnosticSink &diagnostics_;
  llvm::Function &function_;
  llvm::Module &module_;
  llvm::LLVMContext &context_;
  llvm::Value *state_;
  llvm::Value *memoryBase_;
  RegisterFile registers_;
  ConcreteMemory memory_;
  LiftContext ctx_;
  LocalSimplifier simplifier_;
  CallingConvention convention_;
  std::vector<Generalization> &generalizations_;
  bool mayRestart_;
  const RegisterLiveness &liveness_;
  BranchProver &prover_;
  bool restart_ = false;
  unsigned pcKind_;
  /// Instructions whose reads of writable data, or decisions on assumed data, were reported.
  std::set<uint64_t> dataReadsReported_, assumedDecisionsReported_;
  bool proofRefutedReported_ = false;

  std::deque<Instance> instances_;
  std::unordered_multimap<uint64_t, Instance *> byKey_;
  std::unordered_map<uint64_t, std::vector<Instance *>> byAddress_;
  std::vector<Instance *> worklist_;
  std::unordered_set<uint64_t> edgeTargets_;
  std::unordered_set<uint64_t> exports_;

  Instance *current_ = nullptr;
  RegisterFile::Block *tail_ = nullptr;
  llvm::BasicBlock *tailBB_ = nullptr;
  bool dead_ = false;
  bool budgetReported_ = false;
  /// What is left of DeobfuscateOptions::joinSearchBudget.
  uint64_t joinBudget_;
  /// Instances that began a join's second side, with the first side's candidate instances
  /// there (the one the lockstep confirms is the join's other side).
  std::unordered_map<size_t, std::vector<size_t>> pendingJoins_;
  /// Stack slots holding the return address of a call that stays a call: its callee reads it.
  std::set<int64_t> externalReturnSlots_;
  /// Control left for code the lifter does not know (an unresolved jump, a budget): it may
  /// read the whole frame.
  bool leftForUnknown_ = false;
  DeobfuscationStats stats_;
};

llvm::BasicBlock *createEntry(llvm::Function &function) {
  return llvm::BasicBlock::Create(function.getContext(), "entry", &function);
}

ConcolicLifter::ConcolicLifter(const Image &image, InstructionCache &cache,
                               const DeobfuscateOptions &options, DiagnosticSink &diagnostics,
                               llvm::Function &function,
                               std::vector<Generalization> &generalizations, bool mayRestart,
                               const std::set<uint64_t> &leaders,
                               const JumpTableMap &staticTables,
                               const RegisterLiveness &liveness, BranchProver &prover,
                               UnwrittenData &unwritten)
    : image_(image), staticTables_(staticTables), cache_(cache), options_(options), diagnostics_(diagnostics),
      function_(function), module_(*function.getParent()), context_(function.getContext()),
      state_(function.getArg(0)), memoryBase_(function.getArg(1)),
      registers_(createEntry(function), function.getArg(0)),
      memory_(image, options, function.getParent()->getDataLayout(), unwritten),
      ctx_(function.getContext(), registers_, function.getArg(1), *this, diagnostics),
      simplifier_(function.getParent()->getDataLayout()), convention_(defaultCallingConvention(image.format())), generalizations_(generalizations),
      mayRestart_(mayRestart), liveness_(liveness), prover_(prover), pcKind_(function.getContext().getMDKindID("hoist.pc")),
      joinBudget_(options.joinSearchBudget) {
  ctx_.setMemoryObserver(&memory_);
  // A loop header found in an earlier attempt starts an instance even when code falls
  // through into it, so that its first iteration is not lifted apart from the loop.
  for (const Generalization &known : generalizations)
    edgeTargets_.insert(known.address);
  edgeTargets_.insert(leaders.begin(), leaders.end());
  for (const Export &e : image.exports())
    if (e.address)
      exports_.insert(e.address);
}

DeobfuscationStats ConcolicLifter::stats() const {
  DeobfuscationStats stats = stats_;
  stats.blockInstances = instances_.size();
  stats.addresses = byAddress_.size();
  std::unordered_set<uint64_t> contexts;
  stats.loopsGeneralized = 0;
  for (const Instance &instance : instances_) {
    contexts.insert(instance.hash);
    bool join = instance.generalization >= 0 && instance.generalized &&
                generalizations_[static_cast<size_t>(instance.generalization)].join;
    stats.loopsGeneralized += instance.generalized && !join;
    stats.joinsMerged += join;
  }
  stats.contexts = contexts.size();
  return stats;
}

bool ConcolicLifter::run(uint64_t entry) {
  stats_.entry = entry;
  RegisterFile::Block *entryBlock = registers_.entryBlock();
  memory_.setEntryStack(registers_.read(entryBlock, Var::RSP));
  // At entry only the stack is known: RSP is the entry stack pointer, DF is clear (ABI), and
  // the callee-saved registers hold what the caller left there, which the function must
  // give back (kept through its pushes and pops, across calls and block instances).
  Context initial;
  initial.gprs[static_cast<unsigned>(Var::RSP)] = AbstractValue::stack(0);
  for (unsigned i = 0; i < Context::NumGprs; ++i)
    if (gprVar(i) != Var::RSP && isCalleeSaved(stateFieldOf(gprVar(i)), convention_)) {
      entryValues_[i] = registers_.read(entryBlock, gprVar(i));
      initial.gprs[i] = AbstractValue::entryRegister(i);
    }
  memory_.setEntryRegisters(entryValues_);
  initial.flags[static_cast<unsigned>(Var::DF) - static_cast<unsigned>(Var::CF)] =
      AbstractValue::constant(0);
  Instance *first = create(entry, initial, PathNode::after(nullptr, entry, false), -1, false);
  registers_.addPredecessor(first->registers, entryBlock);
  llvm::BranchInst::Create(first->bb, registers_.basicBlock(entryBlock));
  while (!worklist_.empty() && !restart_) {
    Instance *instance = worklist_.back();
    worklist_.pop_back();
    liftInstance(*instance);
  }
  if (restart_)
    return false;
  for (Instance &instance : instances_)
    registers_.seal(instance.registers);
  for (llvm::BasicBlock &bb : function_)
    if (!bb.getTerminator())
      new llvm::UnreachableInst(context_, &bb);
  dropDeadFrameStores();
  return true;
}

void ConcolicLifter::dropDeadFrameStores() {
  if (leftForUnknown_)
    return;
  auto pointee = [&](llvm::Value *pointer) -> std::optional<AbstractValue> {
    auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(pointer);
    if (!gep || gep->getPointerOperand() != memoryBase_ || gep->getNumIndices() != 1)
      return std::nullopt;
    return classify(*gep->idx_begin(), rsp0());
  };
  // Stack ranges something may read: emitted loads, and code outside (ConcreteMemory).
  std::vector<std::pair<int64_t, int64_t>> read = memory_.externalReads(), loaded, pointerSlots;
  std::vector<std::pair<llvm::StoreInst *, int64_t>> candidates;
  // A stack pointer the lifter does not see as one (merged in a phi, or stored to memory and
  // loaded back) could be given to code outside, or read through: then nothing is dead.
  auto pointsIntoStack = [&](llvm::Value *value) {
    if (!value->getType()->isIntegerTy(64))
      return false;
    AbstractValue known = classify(value, rsp0());
    return known.isStack() || known.touchesStack;
  };
  const llvm::DataLayout &layout = module_.getDataLayout();
  for (llvm::BasicBlock &bb : function_)
    for (llvm::Instruction &instruction : bb) {
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
        std::optional<AbstractValue> where = pointee(load->getPointerOperand());
        if (!where)
          continue;   // State, not memory
        if (where->isStack())
          loaded.emplace_back(where->offset(),
                              where->offset() + layout.getTypeStoreSize(load->getType()));
        else if (!where->isConstant())
          return;   // a symbolic address (a pointer in a phi) may read any of the stack
      } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
        std::optional<AbstractValue> where = pointee(store->getPointerOperand());
        if (where && pointsIntoStack(store->getValueOperand())) {
          if (!where->isStack())
            return;   // a stack pointer left for memory the lifter does not follow
          pointerSlots.emplace_back(where->offset(), where->offset() + 8);
        }
        if (where && where->isStack() && where->offset() < 0 &&
            !externalReturnSlots_.count(where->offset()))
          candidates.emplace_back(store, where->offset());
      } else if (llvm::isa<llvm::PHINode>(instruction) || llvm::isa<llvm::SelectInst>(instruction)) {
        for (llvm::Value *incoming : instruction.operands())
          if (pointsIntoStack(incoming))
            return;
      } else if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction)) {
        // Calls of imports, lifted functions and the runtime are modelled while lifting
        // (externalReads); an LLVM intrinsic that reads memory (memcpy) is not.
        if (call->getCalledFunction() && call->getCalledFunction()->isIntrinsic() &&
            call->mayReadFromMemory())
          return;
      } else if (instruction.mayReadFromMemory()) {
        return;   // atomics
      }
    }
  auto overlaps = [](const std::vector<std::pair<int64_t, int64_t>> &ranges, int64_t begin,
                     int64_t end) {
    for (auto [rangeBegin, rangeEnd] : ranges)
      if (rangeBegin < end && begin < rangeEnd)
        return true;
    return false;
  };
  for (auto [begin, end] : pointerSlots)
    if (overlaps(loaded, begin, end))
      return;   // a stack pointer loaded back: symbolic, but it may point into the frame
  read.insert(read.end(), loaded.begin(), loaded.end());
  for (auto [store, offset] : candidates) {
    int64_t end = offset + static_cast<int64_t>(
                               layout.getTypeStoreSize(store->getValueOperand()->getType()));
    if (!overlaps(read, offset, end))
      store->eraseFromParent();
  }
}

// --- Instances ---------------------------------------------------------------------------

Instance *ConcolicLifter::create(uint64_t target, const Context &context, const PathNode &path,
                                 int generalization, bool generalized) {
  Instance &instance = instances_.emplace_back();
  instance.generalization = generalization;
  instance.path = path;
  instance.path.owner = instances_.size() - 1;
  instance.context = context;
  instance.hash = context.hash();
  instance.generalized = generalized;
  instance.bb = llvm::BasicBlock::Create(context_, blockName("bb_", target), &function_);
  instance.registers = registers_.createBlock(instance.bb);
  byKey_.emplace(instance.hash ^ target, &instance);
  byAddress_[target].push_back(&instance);
  worklist_.push_back(&instance);
  edgeTargets_.insert(target);
  return &instance;
}

Instance *ConcolicLifter::findOrCreate(uint64_t target, const Context &context, bool fork) {
  uint64_t hash = context.hash();
  auto [begin, end] = byKey_.equal_range(hash ^ target);
  for (auto it = begin; it != end; ++it)
    if (it->second->path.address == target && it->second->context == context)
      return it->second;
  std::vector<Instance *> &atAddress = byAddress_[target];
  for (Instance *instance : atAddress)
    if (instance->generalized && instance->context.covers(context, memory_))
      return instance;
  PathNode path = PathNode::after(&current_->path, target, fork, memory_.imageReads());
  for (size_t i = 0; i < generalizations_.size(); ++i) {
    const Generalization &known = generalizations_[i];
    if (!known.rejected && known.address == target && known.context.covers(context, memory_))
      return create(target, known.context, path, static_cast<int>(i), true);
  }
  // A generalized header reached with values turned symbolic where its context still knows
  // them (the loop ran on a path it had not run on before): no new concrete state, so the
  // header is generalized further rather than lifted again.
  for (size_t i = 0; i < generalizations_.size(); ++i) {
    Generalization &known = generalizations_[i];
    if (!known.rejected && !known.join && known.address == target &&
        !known.context.conflicts(context, memory_)) {
      known.context.widen(context, memory_);
      if (mayRestart_) {
        restart_ = true;
        return nullptr;
      }
      return create(target, known.context, path, static_cast<int>(i), true);
    }
  }
  std::vector<size_t> partners;
  if (Instance *joined = joinWithDeadDifference(target, context, partners))
    return joined;
  if (confirmJoin(target, path))
    return nullptr;
  if (instances_.size() >= options_.maxInstances) {
    budgetExhausted(target, "block instances per function (" +
                                std::to_string(options_.maxInstances) + ")");
    return nullptr;
  }
  if (atAddress.size() >= options_.maxInstancesPerAddress) {
    budgetExhausted(target, "instances of one address (" +
                                std::to_string(options_.maxInstancesPerAddress) + ")");
    return nullptr;
  }
  std::vector<const PathNode *> visits;
  if (const PathNode *last = lastVisitAfterFork(path, options_.loopSearchDepth);
      last && !instances_[last->owner].context.conflicts(context, memory_))
    visits.push_back(last);
  else
    visits = repeatingVisits(path, options_.loopSearchDepth);
  if (!visits.empty()) {
    // The loop's control repeats on symbolic data: generalize its header over the visits.
    Context general = context;
    for (const PathNode *visit : visits)
      general.widen(instances_[visit->owner].context, memory_);
    bool refuted = false;
    for (const Generalization &known : generalizations_)
      refuted = refuted || (known.rejected && known.address == target &&
                            general.covers(known.context, memory_));
    if (!refuted) {
      // One generalized header per loop: a new generalization that agrees with an earlier
      // one of the header wherever both know a value (an inner loop entered again with
      // other outer values) widens it instead of adding a second copy of the loop.
      int index = -1;
      for (size_t i = 0; i < generalizations_.size() && index < 0; ++i) {
        Generalization &known = generalizations_[i];
        if (!known.rejected && !known.join && known.address == target &&
            !known.context.conflicts(general, memory_)) {
          known.context.widen(general, memory_);
          general = known.context;
          index = static_cast<int>(i);
        }
      }
      if (index < 0) {
        generalizations_.push_back({target, general, false, false});
        index = static_cast<int>(generalizations_.size() - 1);
      }
      if (mayRestart_) {
        restart_ = true;   // lift again from the start: the loop is then not peeled
        return nullptr;
      }
      return create(target, general, path, index, true);
    }
  }
  Instance *created = create(target, context, path, current_->generalization, false);
  unsigned joins = 0;
  bool refuted = false;
  for (const Generalization &known : generalizations_) {
    joins += known.join;
    refuted = refuted || (known.join && known.address == target);
  }
  if (!partners.empty() && mayRestart_ && !refuted && joins < MaxJoinGeneralizations)
    pendingJoins_.emplace(created->path.owner, std::move(partners));
  return created;
}

bool ConcolicLifter::isAncestor(const Instance &instance) {
  // Each step costs a unit of the join search; too far to tell counts as an ancestor.
  unsigned steps = 0;
  for (const PathNode *node = &current_->path; node; node = node->parent, ++steps) {
    if (steps >= options_.loopSearchDepth || joinBudget_ == 0)
      return true;
    --joinBudget_;
    if (node->owner == instance.path.owner)
      return true;
  }
  return false;
}

bool ConcolicLifter::confirmJoin(uint64_t target, const PathNode &path) {
  if (pendingJoins_.empty())
    return false;
  // The second side's join instance this arrival completes the lockstep of: the nearest
  // pending one whose path since has just reached the fetches.
  const PathNode *start = path.parent;
  unsigned distance = 1;
  for (; start && distance <= MaxJoinLockstep; start = start->parent, ++distance)
    if (pendingJoins_.count(start->owner) && path.fetches - start->fetches == JoinLockstepFetches)
      break;
  if (!start || distance > MaxJoinLockstep)
    return false;
  size_t second = start->owner;
  std::vector<size_t> partners = std::move(pendingJoins_.at(second));
  pendingJoins_.erase(second);
  // A first side's instance `distance` steps after its join instance, by the same steps.
  uint64_t steps = pathSegment(*start, path);
  const Instance *firstSide = nullptr;
  for (const Instance *candidate : byAddress_[target]) {
    const PathNode *back = &candidate->path;
    for (unsigned i = 0; back && i < distance; ++i)
      back = back->parent;
    if (back && llvm::is_contained(partners, back->owner) &&
        pathSegment(*back, candidate->path) == steps)
      firstSide = &instances_[back->owner];
  }
  bool lockstep = firstSide != nullptr;
  if (!lockstep)
    return false;
  // The dispatcher's state agrees: what differs at the join is data, which becomes unknown
  // there (phis of what each side stored).
  Context general = instances_[second].context;
  general.widen(firstSide->context, memory_);
  generalizations_.push_back({firstSide->path.address, general, false, true});
  restart_ = true;
  return true;
}

Instance *ConcolicLifter::joinWithDeadDifference(uint64_t target, const Context &context,
                                                 std::vector<size_t> &partners) {
  // The closest contexts first; each comparison and each instance searched costs a unit.
  constexpr size_t MaxCandidates = 4;
  std::vector<std::pair<ContextDifference, Instance *>> candidates;
  for (Instance *existing : byAddress_[target]) {
    if (joinBudget_ == 0)
      return nullptr;
    --joinBudget_;
    if (!existing->lifted)
      continue;
    if (std::optional<ContextDifference> difference =
            memoryDifference(existing->context, context, memory_))
      candidates.emplace_back(std::move(*difference), existing);
  }
  std::stable_sort(candidates.begin(), candidates.end(), [](const auto &a, const auto &b) {
    return a.first.size() < b.first.size();
  });
  constexpr size_t MaxPartners = 16;
  for (size_t i = 0; i < candidates.size() && partners.size() < MaxPartners; ++i)
    if (!isAncestor(*candidates[i].second))
      partners.push_back(candidates[i].second->path.owner);
  if (candidates.size() > MaxCandidates)
    candidates.resize(MaxCandidates);
  auto node = [&](size_t index) {
    const Instance &instance = instances_[index];
    return JoinNode{&instance.context, &instance.accesses, &instance.edges, instance.lifted};
  };
  for (auto &[difference, existing] : candidates)
    if (!differenceMayBeRead(existing->path.owner, difference, node, joinBudget_)) {
      ++stats_.joinsMerged;
      return existing;
    }
  return nullptr;
}

llvm::BasicBlock *ConcolicLifter::edgeTo(uint64_t target, const Context &captured, bool fork,
                                         std::vector<Exit> &exits) {
  // Dead registers and flags are no part of the context: equal live state, one instance.
  Context context = captured;
  if (std::optional<LiveSet> live = liveness_.liveAt(target)) {
    for (unsigned i = 0; i < Context::NumGprs; ++i)
      if (!(*live & (LiveSet(1) << i)))
        context.gprs[i] = AbstractValue{};
    for (unsigned i = 0; i < Context::NumFlags; ++i)
      if (!(*live & (LiveSet(1) << (16 + i))))
        context.flags[i] = AbstractValue{};
  }
  Instance *instance = findOrCreate(target, context, fork);
  if (instance) {
    current_->edges.push_back({instance->path.owner, current_->accesses.now()});
    registers_.addPredecessor(instance->registers, tail_);
    return instance->bb;
  }
  auto *bb = llvm::BasicBlock::Create(context_, blockName("exit_", target), &function_);
  RegisterFile::Block *exit = registers_.createBlock(bb);
  registers_.addPredecessor(exit, tail_);
  registers_.seal(exit);
  exits.push_back({exit, target});
  return bb;
}

void ConcolicLifter::fillExits(const std::vector<Exit> &exits) {
  for (const Exit &exit : exits)
    leave(exit.block, getIntrinsic(module_, Intrinsic::Jmp),
          llvm::ConstantInt::get(llvm::Type::getInt64Ty(context_), exit.target), false);
}

void ConcolicLifter::budgetExhausted(uint64_t address, const std::string &what,
                                     const char *consequence) {
  ++stats_.budgetsHit;
  if (budgetReported_)
    return;
  budgetReported_ = true;
  diagnostics_.warning("deobfuscate-budget", address,
                       llvm::formatv("{0}: concolic lifting of {1} stopped at the budget of {2}; "
                                     "{3}",
                                     formatAddress(address), formatAddress(stats_.entry), what,
                                     consequence)
                           .str());
}

// --- Contexts ----------------------------------------------------------------------------

std::array<AbstractValue, Context::NumGprs> ConcolicLifter::captureGprs() {
  std::array<AbstractValue, Context::NumGprs> gprs;
  for (unsigned i = 0; i < Context::NumGprs; ++i) {
    llvm::Value *held = registers_.read(tail_, gprVar(i));
    AbstractValue value = classify(held, rsp0());
    gprs[i] = value.isSymbolic() ? AbstractValue{} : value;
    if (value.isSymbolic())
      if (auto entry = std::find(entryValues_.begin(), entryValues_.end(), held);
          entry != entryValues_.end())
        gprs[i] = AbstractValue::entryRegister(static_cast<unsigned>(entry - entryValues_.begin()));
  }
  return gprs;
}

Context ConcolicLifter::capture() {
  Context context;
  context.gprs = captureGprs();
  for (unsigned i = 0; i < Context::NumGprs; ++i)
    if (context.gprs[i].isSymbolic())
      if (const Import *import = importLoadedInto(registers_.read(tail_, gprVar(i))))
        context.gprs[i] = AbstractValue::importSlot(import->slotAddress);
  for (unsigned i = 0; i < Context::NumFlags; ++i) {
    llvm::Value *flag = registers_.read(tail_, static_cast<Var>(static_cast<unsigned>(Var::CF) + i));
    if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(flag))
      context.flags[i] = AbstractValue::constant(constant->getZExtValue());
  }
  context.memory = memory_.state();
  context.memory.forgetValues();
  const AbstractValue &rsp = context.gprs[static_cast<unsigned>(Var::RSP)];
  if (rsp.isStack())
    context.memory.dropStackBelow(rsp.offset() - 128);   // below the red zone: dead
  memory_.normalize(context.memory);
  return context;
}

void ConcolicLifter::defineContext(Instance &instance) {
  // Known registers and flags are defined at the top of the instance: every arrival agrees
  // on them. The others are read from the predecessors (phis).
  llvm::IRBuilder<> ir(instance.bb);
  for (unsigned i = 0; i < Context::NumGprs; ++i) {
    const AbstractValue &value = instance.context.gprs[i];
    if (!value.isSymbolic())
      registers_.write(instance.registers, gprVar(i), materializeKnown(ir, value));
  }
  for (unsigned i = 0; i < Context::NumFlags; ++i) {
    const AbstractValue &value = instance.context.flags[i];
    if (value.isConstant())
      registers_.write(instance.registers, static_cast<Var>(static_cast<unsigned>(Var::CF) + i),
                       ir.getInt1(value.value != 0));
  }
  memory_.state() = instance.context.memory;
}

llvm::Value *ConcolicLifter::materializeKnown(llvm::IRBuilderBase &ir, const AbstractValue &value) {
  if (value.isImportSlot())   // every arrival loaded it from the slot: load it again
    return ir.CreateLoad(ir.getInt64Ty(),
                         ir.CreateGEP(ir.getInt8Ty(), memoryBase_, ir.getInt64(value.value)));
  if (value.isEntryRegister())
    return entryValues_[value.value];
  return materialize(ir, value, ir.getInt64Ty(), rsp0());
}

// --- Lifting -----------------------------------------------------------------------------

void ConcolicLifter::liftInstance(Instance &instance) {
  current_ = &instance;
  tail_ = instance.registers;
  tailBB_ = instance.bb;
  dead_ = false;
  memory_.setAccessLog(&instance.accesses);
  defineContext(instance);
  memory_.resetImageReads();
  uint64_t address = instance.path.address;
  tagWithAddress(instance.bb, nullptr, address);
  for (uint64_t count = 0;; ++count) {
    if (tailBB_->getTerminator() || dead_ || restart_)
      break;
    if (count > 0 && edgeTargets_.count(address)) {
      // Another path jumps here: end the instance so that equal contexts share the rest.
      jump(address);
      break;
    }
    if (count >= options_.maxInstructionsPerInstance ||
        stats_.instructionsLifted >= options_.maxInstructions) {
      budgetExhausted(address, "instructions (" + std::to_string(options_.maxInstructions) +
                                   " per function, " +
                                   std::to_string(options_.maxInstructionsPerInstance) +
                                   " per instance)");
      leave(tail_, getIntrinsic(module_, Intrinsic::Jmp), ctx_.ir.getInt64(address), false);
      break;
    }
    const DecodedAt *decoded = cache_.at(address);
    if (!decoded) {
      diagnostics_.warning("leaves-code", address,
                           formatAddress(address) +
                               ": execution runs past the end of executable code; lifted as "
                               "__hoist_jmp");
      leave(tail_, getIntrinsic(module_, Intrinsic::Jmp), ctx_.ir.getInt64(address), false);
      break;
    }
    if (decoded->status != DecodeStatus::Ok) {
      diagnostics_.error("invalid-instruction", address,
                         formatAddress(address) + ": " + decodeStatusMessage(decoded->status) +
                             "; lifted as __hoist_trap");
      leaveByTrap(tail_, ctx_.ir.getInt64(address), HOIST_EXCEPTION_UD);
      break;
    }
    liftInstruction(decoded->instr);
    address = decoded->instr.next();
  }
  if (dead_ && !tailBB_->getTerminator())
    new llvm::UnreachableInst(context_, tailBB_);
  memory_.setAccessLog(nullptr);
  instance.lifted = true;
}

void ConcolicLifter::liftInstruction(const Instr &instr) {
  llvm::BasicBlock *bb = tailBB_;
  llvm::Instruction *last = bb->empty() ? nullptr : &bb->back();
  ctx_.startInstruction(tail_, &instr);
  memory_.setInstructionAddress(instr.address);
  Semantic semantic = findSemantic(instr);
  LiftStatus status = semantic ? semantic(ctx_, instr) : LiftStatus::Unsupported;
  if (status == LiftStatus::Unsupported) {
    diagnostics_.warning("unsupported-instruction", instr.address,
                         instr.describe() + ": no semantics; lifted as __hoist_unsupported");
    ctx_.setPosition(tail_, &instr);
    unsupportedAtRunTime();
  }
  ++stats_.instructionsLifted;
  reportWritableDataReads(instr);
  // Simplified before the next instruction reads them; only the block the instruction began
  // in, the common case (a split block's tail is new and small).
  simplifier_.run(bb, last, [this](llvm::Value *from, llvm::Value *to) {
    registers_.valueReplaced(from, to);
  });
  tagWithAddress(bb, last, instr.address);
  if (tailBB_ != bb)
    tagWithAddress(tailBB_, nullptr, instr.address);
}

void ConcolicLifter::reportWritableDataReads(const Instr &instr) {
  for (const WritableDataRead &read : memory_.takeWritableDataReads())
    if (dataReadsReported_.insert(instr.address).second)
      diagnostics_.report(read.assumed ? Severity::Warning : Severity::Note,
                          read.assumed ? "deobfuscate-assumed-data" : "deobfuscate-symbolic-data",
                          instr.address, instr.describe() + ": " + describeDataRead(image_, read));
  // A store by code the proof's sweep missed: lift again without what it proved. Past the
  // restarts' budget the reads answered before stay, and the warning says so.
  if (!memory_.proofContradicted() || restart_)
    return;
  if (mayRestart_)
    restart_ = true;
  else if (!proofRefutedReported_ && (proofRefutedReported_ = true))
    diagnostics_.warning("deobfuscate-assumed-data", instr.address,
                         instr.describe() + ": stores to writable data the whole-program proof "
                         "found unwritten; reads of it earlier in this lift took the file's "
                         "bytes (no restart left)");
}

std::optional<uint64_t> ConcolicLifter::symbolicDataSource(llvm::Value *value) const {
  std::vector<llvm::Value *> work{value};
  std::set<llvm::Value *> seen;
  while (!work.empty() && seen.size() < 64) {
    auto *instruction = llvm::dyn_cast<llvm::Instruction>(work.back());
    work.pop_back();
    if (!instruction || !seen.insert(instruction).second)
      continue;
    if (llvm::isa<llvm::LoadInst>(instruction)) {
      // Untagged: loaded by the instruction being lifted (`jmp [mem]`).
      uint64_t at = ctx_.instr().address;
      if (llvm::MDNode *pc = instruction->getMetadata(pcKind_))
        at = llvm::mdconst::extract<llvm::ConstantInt>(pc->getOperand(0))->getZExtValue();
      if (dataReadsReported_.count(at))
        return at;
    }
    for (llvm::Value *operand : instruction->operands())
      work.push_back(operand);
  }
  return std::nullopt;
}

void ConcolicLifter::reportAssumedDecision() {
  const std::set<uint64_t> &assumed = memory_.state().assumedReads;
  if (assumed.empty() || !assumedDecisionsReported_.insert(ctx_.instr().address).second)
    return;
  diagnostics_.warning("deobfuscate-assumed-branch", ctx_.instr().address,
                       ctx_.instr().describe() + ": decided on a path that read writable data "
                       "as the file holds it only by the --concrete-memory assumption: " +
                           describeAssumptions(image_, assumed));
}

void ConcolicLifter::tagWithAddress(llvm::BasicBlock *bb, llvm::Instruction *after,
                                    uint64_t address) {
  llvm::MDNode *pc = llvm::MDNode::get(
      context_, llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                    llvm::Type::getInt64Ty(context_), address)));
  auto it = after ? std::next(after->getIterator()) : bb->begin();
  for (; it != bb->end(); ++it)
    if (!llvm::isa<llvm::PHINode>(*it) && !it->getMetadata(pcKind_))
      it->setMetadata(pcKind_, pc);
}

void ConcolicLifter::leave(RegisterFile::Block *block, llvm::FunctionCallee callee,
                           llvm::Value *rip, bool returns) {
  llvm::BasicBlock *bb = registers_.basicBlock(block);
  registers_.storeAll(block);
  if (!returns && callee && callee.getCallee() == getIntrinsic(module_, Intrinsic::Jmp).getCallee())
    leftForUnknown_ = true;
  llvm::IRBuilder<> ir(bb);
  if (llvm::Instruction *terminator = bb->getTerminator())
    ir.SetInsertPoint(terminator);
  ir.CreateStore(rip, registers_.fieldPointer(HOIST_FIELD_RIP));
  if (callee) {
    if (callee.getFunctionType()->getNumParams() == 3)
      ir.CreateCall(callee, {state_, memoryBase_, rip});
    else
      ir.CreateCall(callee, {state_, memoryBase_});
  }
  if (returns)
    registers_.reloadAll(block);
  else
    ir.CreateRetVoid();
}

void ConcolicLifter::continueUnless(llvm::Value *condition, llvm::BasicBlock *taken) {
  auto *restBB = llvm::BasicBlock::Create(context_, blockName("bb_", ctx_.instr().address),
                                          &function_);
  RegisterFile::Block *rest = registers_.createBlock(restBB);
  registers_.addPredecessor(rest, tail_);
  registers_.seal(rest);
  llvm::BranchInst::Create(taken, restBB, condition, tailBB_);
  tail_ = rest;
  tailBB_ = restBB;
}

std::optional<bool> ConcolicLifter::decide(llvm::Value *condition) {
  ConditionDecision decision = prover_.decide(condition);
  if (!decision.budget.empty())
    budgetExhausted(ctx_.instr().address, decision.budget, "the branch keeps both sides");
  if (decision.value) {
    ++(decision.proved ? stats_.branchesProved : stats_.branchesFolded);
    reportAssumedDecision();
  }
  return decision.value;
}

void ConcolicLifter::becomeDead() {
  auto *deadBB = llvm::BasicBlock::Create(context_, "dead", &function_);
  tail_ = registers_.createBlock(deadBB);
  registers_.seal(tail_);
  tailBB_ = deadBB;
  dead_ = true;
  ctx_.setPosition(tail_, &ctx_.instr());
}

const Import *ConcolicLifter::importLoadedInto(llvm::Value *target) const {
  auto *load = llvm::dyn_cast<llvm::LoadInst>(target);
  if (!load || !load->getType()->isIntegerTy(64))
    return nullptr;
  auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(load->getPointerOperand());
  if (!gep || gep->getPointerOperand() != memoryBase_ || gep->getNumIndices() != 1)
    return nullptr;
  AbstractValue slot = classify(*gep->idx_begin(), rsp0());
  return slot.isConstant() ? image_.importAtSlot(slot.value) : nullptr;
}

bool ConcolicLifter::outlined(uint64_t address) const {
  return options_.outline.count(address) || exports_.count(address);
}

// --- Control flow ------------------------------------------------------------------------

void ConcolicLifter::jumpTo(uint64_t target, bool fork) {
  if (const Import *import = image_.importAtStub(target))
    return tailCall(declareImport(module_, *import), ctx_.ir.getInt64(target), false, import);
  if (outlined(target) && target != stats_.entry)
    return tailCall(declareLiftedFunction(module_, image_, target), ctx_.ir.getInt64(target), true);
  if (splitOnTwoConstants(target))
    return;
  Context context = capture();
  std::vector<Exit> exits;
  llvm::BasicBlock *destination = edgeTo(target, context, fork, exits);
  llvm::BranchInst::Create(destination, tailBB_);
  fillExits(exits);
}

bool ConcolicLifter::splitOnTwoConstants(uint64_t target) {
  auto earlier = byAddress_.find(target);
  if (earlier == byAddress_.end() || earlier->second.empty() || splitDepth_ >= MaxSplitDepth)
    return false;
  std::optional<LiveSet> live = liveness_.liveAt(target);
  for (unsigned i = 0; i < Context::NumGprs; ++i) {
    if (live && !(*live & (LiveSet(1) << i)))
      continue;
    llvm::Value *held = registers_.read(tail_, gprVar(i));
    if (llvm::isa<llvm::Constant>(held) ||
        std::none_of(earlier->second.begin(), earlier->second.end(), [&](const Instance *instance) {
          return instance->context.gprs[i].isConstant();
        }))
      continue;
    // Not through a phi: values merged from other paths are a loop's or a join's, which
    // generalization and join merging decide on.
    bool throughPhi = false;
    std::optional<std::vector<uint64_t>> values = possibleTargets(held, 2, &throughPhi);
    if (!values || throughPhi || values->size() != 2)
      continue;
    RegisterFile::Block *from = tail_;
    llvm::BasicBlock *fromBB = tailBB_;
    MemoryState before = memory_.state();
    llvm::Value *first = ctx_.ir.CreateICmpEQ(held, ctx_.ir.getInt64((*values)[0]));
    auto *branchInst = llvm::BranchInst::Create(fromBB, fromBB, first, fromBB);
    for (unsigned side = 0; side < 2; ++side) {
      auto *bb = llvm::BasicBlock::Create(context_, blockName("bb_", target), &function_);
      RegisterFile::Block *part = startPart(bb, from, before, ctx_.instr());
      registers_.write(part, gprVar(i), ctx_.ir.getInt64((*values)[side]));
      branchInst->setSuccessor(side, bb);
      ++splitDepth_;
      jumpTo(target, true);
      --splitDepth_;
    }
    return true;
  }
  return false;
}

RegisterFile::Block *ConcolicLifter::startPart(llvm::BasicBlock *bb, RegisterFile::Block *from,
                                               const MemoryState &before, const Instr &instr) {
  RegisterFile::Block *part = registers_.createBlock(bb);
  registers_.addPredecessor(part, from);
  registers_.seal(part);
  tail_ = part;
  tailBB_ = bb;
  memory_.state() = before;
  ctx_.setPosition(part, &instr);
  return part;
}

void ConcolicLifter::jump(uint64_t target) {
  if (dead_)
    return;
  jumpTo(target);
}

void ConcolicLifter::branch(llvm::Value *condition, uint64_t taken, uint64_t notTaken) {
  if (dead_)
    return;
  if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(condition)) {
    ++stats_.branchesFolded;
    reportAssumedDecision();
    return jumpTo(constant->isOne() ? taken : notTaken);
  }
  if (taken == notTaken)
    return jumpTo(taken);
  if (std::optional<bool> decided = decide(condition))
    return jumpTo(*decided ? taken : notTaken);
  Context context = capture();
  std::vector<Exit> exits;
  llvm::BasicBlock *takenBB = edgeTo(taken, context, true, exits);
  llvm::BasicBlock *notTakenBB = edgeTo(notTaken, context, true, exits);
  llvm::BranchInst::Create(takenBB, notTakenBB, condition, tailBB_);
  fillExits(exits);
}

void ConcolicLifter::jumpIndirect(llvm::Value *target) {
  if (dead_)
    return;
  if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(target)) {
    ++stats_.indirectFollowed;
    reportAssumedDecision();
    return jumpTo(constant->getZExtValue());
  }
  CallTarget resolved = resolveCallTarget(image_, ctx_.instr(), target);
  if (const Import *import = importLoadedInto(target))
    resolved = {CallTarget::Kind::Import, 0, true, import};
  if (resolved.kind == CallTarget::Kind::Import)
    return tailCall(declareImport(module_, *resolved.import), target, false, resolved.import);
  std::optional<std::vector<uint64_t>> possible = possibleTargets(target);
  if (!possible && current_->generalization >= 0 && mayRestart_) {
    // Under a loop generalization, a jump that became unknown refutes it: the slots it made
    // symbolic steer control (a virtual PC). Lift again with that loop unrolled.
    generalizations_[current_->generalization].rejected = true;
    restart_ = true;
    return leave(tail_, getIntrinsic(module_, Intrinsic::Jmp), target, false);
  }
  if (!possible)
    // A table in read-only memory that discovery resolved (an ordinary switch): its targets,
    // with the default for any other value, are exact whatever the index.
    if (auto table = staticTables_.find(ctx_.instr().address); table != staticTables_.end())
      possible = table->second.distinctTargets();
  if (!possible) {
    std::string why = ": the target is not concrete";
    if (std::optional<uint64_t> source = symbolicDataSource(target))
      why += " (it is computed from writable data read at " + formatAddress(*source) +
             ", which the program may write before the call: deobfuscate-symbolic-data)";
    diagnostics_.warning("unresolved-jump", ctx_.instr().address,
                         ctx_.instr().describe() + why + "; lifted as __hoist_jmp");
    return leave(tail_, getIntrinsic(module_, Intrinsic::Jmp), target, false);
  }
  // A symbolic target with a few possible values: a switch over them.
  ++stats_.indirectFollowed;
  Context context = capture();
  auto *defaultBB = llvm::BasicBlock::Create(context_, "jmp_default", &function_);
  RegisterFile::Block *fallback = registers_.createBlock(defaultBB);
  registers_.addPredecessor(fallback, tail_);
  registers_.seal(fallback);
  auto *switchInst = llvm::SwitchInst::Create(target, defaultBB,
                                              static_cast<unsigned>(possible->size()), tailBB_);
  std::vector<Exit> exits;
  for (uint64_t value : *possible)
    switchInst->addCase(llvm::ConstantInt::get(llvm::Type::getInt64Ty(context_), value),
                        edgeTo(value, context, true, exits));
  fillExits(exits);
  leave(fallback, getIntrinsic(module_, Intrinsic::Jmp), target, false);
}

void ConcolicLifter::call(llvm::Value *target, uint64_t returnAddress) {
  if (dead_)
    return;
  CallTarget resolved = resolveCallTarget(image_, ctx_.instr(), target);
  if (const Import *import = importLoadedInto(target))
    resolved = {CallTarget::Kind::Import, 0, true, import};
  if (resolved.kind == CallTarget::Kind::Import) {
    llvm::Value *rip = resolved.throughSlot ? target : ctx_.ir.getInt64(resolved.address);
    return callExternal(declareImport(module_, *resolved.import), rip, returnAddress, false,
                        resolved.import);
  }
  std::optional<uint64_t> callee;
  if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(target))
    callee = constant->getZExtValue();
  else if (resolved.kind == CallTarget::Kind::Lifted)
    callee = resolved.address;
  if (!callee)
    return callExternal(getIntrinsic(module_, Intrinsic::Call), target, returnAddress, true);
  if (outlined(*callee))
    return callExternal(declareLiftedFunction(module_, image_, *callee), ctx_.ir.getInt64(*callee),
                        returnAddress, true);
  // Inlined: the return address the call pushed is concrete, so the callee's `ret` comes back.
  ++stats_.callsInlined;
  const AbstractValue rsp = classify(ctx_.readVar(Var::RSP), rsp0());
  if (rsp.isStack())
    memory_.state().returnSlots.insert(rsp.offset());
  jumpTo(*callee);
}

void ConcolicLifter::ret(llvm::Value *target) {
  if (dead_)
    return;
  auto *constant = llvm::dyn_cast<llvm::ConstantInt>(target);
  if (!constant) {
    // The function's own return: State.RIP is the address popped (include/hoist/Lifter.h).
    return leave(tail_, llvm::FunctionCallee(), target, false);
  }
  ++stats_.indirectFollowed;
  // A return to a known address (an inlined call's, or push/ret): what it popped is dead.
  AbstractValue rsp = classify(ctx_.readVar(Var::RSP), rsp0());
  if (rsp.isStack())
    memory_.state().dropStackBelow(rsp.offset());
  uint64_t destination = constant->getZExtValue();
  if (const Import *import = image_.importAtStub(destination)) {
    // `push import; ret`: the import runs with the next return address on the stack.
    return tailCall(declareImport(module_, *import), target, false, import);
  }
  jumpTo(destination);
}

void ConcolicLifter::tailCall(llvm::FunctionCallee callee, llvm::Value *rip,
                              bool mayWriteGlobals, const Import *import) {
  llvm::Value *returnAddress = ctx_.load(ctx_.readVar(Var::RSP), ctx_.ir.getInt64Ty());
  auto *known = llvm::dyn_cast<llvm::ConstantInt>(returnAddress);
  if (!known)   // it returns to our caller
    return leave(tail_, callee, rip, false);
  // It returns into code being lifted (an inlined caller): as if it were called from there.
  callExternal(callee, rip, known->getZExtValue(), mayWriteGlobals, import);
  if (!dead_ && !tailBB_->getTerminator())
    jumpTo(known->getZExtValue());
}

void ConcolicLifter::callExternal(llvm::FunctionCallee callee, llvm::Value *rip,
                                  uint64_t returnAddress, bool mayWriteGlobals,
                                  const Import *import) {
  ++stats_.externalCalls;
  std::array<AbstractValue, Context::NumGprs> before = captureGprs();
  if (before[static_cast<unsigned>(Var::RSP)].isStack())
    externalReturnSlots_.insert(before[static_cast<unsigned>(Var::RSP)].offset());
  std::array<llvm::Value *, Context::NumGprs> values{};
  for (unsigned i = 0; i < Context::NumGprs; ++i)
    values[i] = registers_.read(tail_, gprVar(i));
  // Win64 keeps XMM6-15 (their low 128 bits; the upper YMM halves are volatile).
  constexpr unsigned FirstSavedVector = 6;
  std::array<llvm::Value *, 16> vectors{};
  if (convention_ == CallingConvention::Win64)
    for (unsigned i = FirstSavedVector; i < vectors.size(); ++i)
      vectors[i] = registers_.read(tail_, ymmVar(i));
  forgetCalleeWrites(values, before[static_cast<unsigned>(Var::RSP)], mayWriteGlobals, import);
  leave(tail_, callee, rip, true);
  // The callee's `ret` pops the return address and sets RIP to it; anything else leaves.
  uint64_t pc = ctx_.instr().address;
  llvm::IRBuilder<> ir(tailBB_);
  llvm::Value *returnedTo =
      ir.CreateLoad(ir.getInt64Ty(), registers_.fieldPointer(HOIST_FIELD_RIP), "returned.to");
  llvm::Value *elsewhere = ir.CreateICmpNE(returnedTo, ir.getInt64(returnAddress));
  auto *elsewhereBB = llvm::BasicBlock::Create(context_, blockName("returned_elsewhere_", pc),
                                               &function_);
  llvm::IRBuilder<> exit(elsewhereBB);
  exit.CreateCall(getIntrinsic(module_, Intrinsic::Jmp), {state_, memoryBase_, returnedTo});
  exit.CreateRetVoid();
  tagWithAddress(elsewhereBB, nullptr, pc);
  continueUnless(elsewhere, elsewhereBB);
  ctx_.setPosition(tail_, &ctx_.instr());
  // As the ABI has it: RSP past the return address, callee-saved registers as they were,
  // DF clear. (Brightening's call shim assumes the same.)
  ctx_.writeVar(Var::RSP, ctx_.ir.CreateAdd(values[static_cast<unsigned>(Var::RSP)],
                                            ctx_.ir.getInt64(8)));
  for (unsigned i = 0; i < Context::NumGprs; ++i)
    if (i != static_cast<unsigned>(Var::RSP) && isCalleeSaved(stateFieldOf(gprVar(i)), convention_))
      ctx_.writeVar(gprVar(i), values[i]);
  for (unsigned i = FirstSavedVector; i < vectors.size(); ++i)
    if (vectors[i])
      ctx_.writeVar(ymmVar(i), ctx_.ir.CreateShuffleVector(vectors[i], ctx_.readVar(ymmVar(i)),
                                                            llvm::ArrayRef<int>{0, 1, 6, 7}));
  ctx_.writeVar(Var::DF, ctx_.ir.getFalse());
  AbstractValue rsp = classify(ctx_.readVar(Var::RSP), rsp0());
  if (rsp.isStack())
    memory_.state().dropStackBelow(rsp.offset());
}

void ConcolicLifter::forgetCalleeWrites(const std::array<llvm::Value *, Context::NumGprs> &gprs,
                                        const AbstractValue &returnSlot, bool mayWriteGlobals,
                                        const Import *import) {
  llvm::ArrayRef<HoistStateField> registers = integerArgumentRegisters(convention_);
  // Argument `index`: its register's value, or the stack slot the caller filled.
  auto argument = [&](unsigned index) -> AbstractValue {
    if (index < registers.size()) {
      for (unsigned i = 0; i < Context::NumGprs; ++i)
        if (stateFieldOf(gprVar(i)) == registers[index])
          return classify(gprs[i], rsp0());
      return AbstractValue{};
    }
    if (!returnSlot.isStack())
      return AbstractValue{};
    return memory_.stackQuad(returnSlot.offset() +
                             static_cast<int64_t>(stackArgumentOffset(
                                 index - static_cast<unsigned>(registers.size()), convention_)));
  };
  std::optional<ImportEffects> effects;
  if (import)
    effects = importEffects(import->name, import->library);
  if (effects) {
    std::vector<WrittenObject> writes;
    for (const PointerWrite &write : effects->writes) {
      WrittenObject object{argument(write.argument), std::nullopt};
      if (write.sizeArgument < 0)
        object.bytes = write.bytes;
      else if (AbstractValue size = argument(static_cast<unsigned>(write.sizeArgument));
               size.isConstant())
        object.bytes = size.value;
      writes.push_back(object);
    }
    memory_.knownCall(writes);
    // It may read the objects its pointer arguments point to (to the end of their frames)
    // and its stack arguments; not a fixed-size out parameter (`lpNumberOfCharsWritten`),
    // but a buffer it fills, whose pointer it returns (memset), is read through the result.
    for (unsigned i = 0; i < effects->arguments; ++i) {
      bool outParameter = false;
      for (const PointerWrite &write : effects->writes)
        outParameter = outParameter || (write.argument == i && write.sizeArgument < 0);
      if (AbstractValue value = argument(i); value.isStack() && !outParameter)
        memory_.noteExternalRead(value.offset(), memory_.frameEnd(value.offset()));
    }
    if (returnSlot.isStack() && effects->arguments > registers.size())
      memory_.noteExternalRead(
          returnSlot.offset() + static_cast<int64_t>(stackArgumentOffset(0, convention_)),
          returnSlot.offset() +
              static_cast<int64_t>(stackArgumentOffset(
                  effects->arguments - static_cast<unsigned>(registers.size()), convention_)));
  } else {
    std::array<AbstractValue, Context::NumGprs> known{};
    for (unsigned i = 0; i < Context::NumGprs; ++i)
      known[i] = classify(gprs[i], rsp0());
    memory_.externalCall(escapingRegisters(known, true), mayWriteGlobals);
    // Its stack arguments, as many as it takes: the caller's frame above its return address.
    if (returnSlot.isStack())
      memory_.noteExternalRead(returnSlot.offset() + 8, memory_.frameEnd(returnSlot.offset() + 8));
  }
  if (!returnSlot.isStack())
    return;
  uint64_t owned = homeAreaBytes(convention_);
  if (effects && effects->arguments > registers.size())
    owned = stackArgumentOffset(effects->arguments - static_cast<unsigned>(registers.size()),
                                convention_) -
            8;
  memory_.forgetStack(returnSlot.offset() + 8, owned);
}

std::vector<AbstractValue>
ConcolicLifter::escapingRegisters(const std::array<AbstractValue, Context::NumGprs> &gprs,
                                  bool call) const {
  std::vector<AbstractValue> escaping;
  if (call) {
    for (HoistStateField field : integerArgumentRegisters(convention_))
      for (unsigned i = 0; i < Context::NumGprs; ++i)
        if (stateFieldOf(gprVar(i)) == field)
          escaping.push_back(gprs[i]);
    return escaping;
  }
  for (unsigned i = 0; i < Context::NumGprs; ++i)
    if (gprVar(i) != Var::RSP && gprVar(i) != Var::RBP)
      escaping.push_back(gprs[i]);
  return escaping;
}

void ConcolicLifter::keepUnwritten(const std::array<AbstractValue, Context::NumGprs> &before) {
  const Instr &instr = ctx_.instr();
  std::array<bool, Context::NumGprs> written{};
  for (unsigned i = 0; i < instr.operandCount; ++i) {
    const Operand &operand = instr.op(i);
    if (operand.isReg() && operand.written)
      if (std::optional<RegisterSlice> slice = gprSlice(operand.reg))
        written[static_cast<unsigned>(slice->var)] = true;
  }
  for (unsigned i = 0; i < Context::NumGprs; ++i)
    if (!written[i] && !before[i].isSymbolic())
      ctx_.writeVar(gprVar(i), materializeKnown(ctx_.ir, before[i]));
}

void ConcolicLifter::trap(llvm::Value *address, HoistException exception) {
  if (dead_)
    return;
  leaveByTrap(tail_, address, exception);
}

void ConcolicLifter::leaveByTrap(RegisterFile::Block *block, llvm::Value *rip,
                                 HoistException exception) {
  llvm::BasicBlock *bb = registers_.basicBlock(block);
  llvm::IRBuilder<> ir(bb);
  if (llvm::Instruction *terminator = bb->getTerminator())
    ir.SetInsertPoint(terminator);
  ir.CreateStore(ir.getInt8(exception), registers_.fieldPointer(HOIST_FIELD_EXCEPTION));
  leave(block, getIntrinsic(module_, Intrinsic::Trap), rip, false);
}

void ConcolicLifter::trapIf(llvm::Value *condition, llvm::Value *address,
                            HoistException exception) {
  if (dead_)
    return;
  if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(condition)) {
    if (constant->isZero())
      return;
    trap(address, exception);
    return becomeDead();
  }
  auto *faultBB = llvm::BasicBlock::Create(context_, blockName("fault_", ctx_.instr().address),
                                           &function_);
  RegisterFile::Block *fault = registers_.createBlock(faultBB);
  registers_.addPredecessor(fault, tail_);
  registers_.seal(fault);
  continueUnless(condition, faultBB);
  leaveByTrap(fault, address, exception);
  ctx_.setPosition(tail_, &ctx_.instr());
}

void ConcolicLifter::branchIf(llvm::Value *condition, uint64_t target) {
  if (dead_)
    return;
  auto *constant = llvm::dyn_cast<llvm::ConstantInt>(condition);
  if (constant && constant->isZero())
    return;
  if (constant) {
    ++stats_.branchesFolded;
    reportAssumedDecision();
    jumpTo(target);
    return becomeDead();
  }
  if (std::optional<bool> decided = decide(condition)) {
    if (!*decided)
      return;
    jumpTo(target);
    return becomeDead();
  }
  Context context = capture();
  std::vector<Exit> exits;
  llvm::BasicBlock *taken = edgeTo(target, context, true, exits);
  continueUnless(condition, taken);
  fillExits(exits);
  ctx_.setPosition(tail_, &ctx_.instr());
}

void ConcolicLifter::callRuntime(llvm::StringRef name) {
  if (dead_)
    return;
  std::array<AbstractValue, Context::NumGprs> before = captureGprs();
  memory_.externalCall(escapingRegisters(before, false), false);
  leave(tail_, getRuntimeIntrinsic(module_, name), ctx_.ir.getInt64(ctx_.instr().address), true);
  ctx_.setPosition(tail_, &ctx_.instr());
  keepUnwritten(before);
}

void ConcolicLifter::unsupportedAtRunTime() {
  if (dead_)
    return;
  std::array<AbstractValue, Context::NumGprs> before = captureGprs();
  memory_.externalCall(escapingRegisters(before, false), false);
  leave(tail_, getIntrinsic(module_, Intrinsic::Unsupported),
        ctx_.ir.getInt64(ctx_.instr().address), true);
  ctx_.setPosition(tail_, &ctx_.instr());
  keepUnwritten(before);
}

void ConcolicLifter::ifThenElse(llvm::Value *condition, llvm::function_ref<void()> then,
                                llvm::function_ref<void()> otherwise) {
  if (dead_)
    return;
  const Instr &instr = ctx_.instr();
  RegisterFile::Block *from = tail_;
  llvm::BasicBlock *fromBB = tailBB_;
  auto *joinBB = llvm::BasicBlock::Create(context_, blockName("bb_", instr.address), &function_);
  RegisterFile::Block *join = registers_.createBlock(joinBB);
  MemoryState before = memory_.state();
  // A store in one part is not a store on the path through the other.
  MemoryAccesses::Writes writesBefore = current_->accesses.writes();
  auto emitPart = [&](llvm::function_ref<void()> body) {
    auto *bb = llvm::BasicBlock::Create(context_, blockName("bb_", instr.address), &function_,
                                        joinBB);
    startPart(bb, from, before, instr);
    if (body)
      body();
    tagWithAddress(bb, nullptr, instr.address);
    tagWithAddress(tailBB_, nullptr, instr.address);
    if (!tailBB_->getTerminator()) {
      registers_.addPredecessor(join, tail_);
      llvm::BranchInst::Create(joinBB, tailBB_);
    }
    return bb;
  };
  auto *branchInst = llvm::BranchInst::Create(joinBB, joinBB, condition, fromBB);
  branchInst->setSuccessor(0, emitPart(then));
  MemoryState afterThen = memory_.state();
  branchInst->setSuccessor(1, emitPart(otherwise));
  current_->accesses.restoreWrites(std::move(writesBefore));
  // Either part may have run: what they stored differently is unknown after the join.
  MemoryState &merged = memory_.state();
  merged.forgetValues();
  for (auto it = merged.stack.begin(); it != merged.stack.end();) {
    auto found = afterThen.stack.find(it->first);
    it = (found != afterThen.stack.end() && found->second == it->second) ? std::next(it)
                                                                          : merged.stack.erase(it);
  }
  for (auto &[address, byte] : afterThen.absolute)
    if (!(merged.absolute[address] == byte))
      merged.absolute[address] = MemoryByte{};
  registers_.seal(join);
  tagWithAddress(fromBB, nullptr, instr.address);
  tail_ = join;
  tailBB_ = joinBB;
  ctx_.setPosition(join, &instr);
}

} // namespace

llvm::Expected<DeobfuscationStats> deobfuscateFunction(llvm::Module &module, const Image &image,
                                                       uint64_t entry,
                                                       const DeobfuscateOptions &options,
                                                       DiagnosticSink &diagnostics) {
  if (!image.isExecutable(entry))
    return makeError("{0}: address {1} is not in an executable section", image.path(),
                     formatAddress(entry));
  llvm::Function *function = declareLiftedFunction(module, image, entry);
  InstructionCache cache(image);
  // The static control flow (jump tables resolved): its block starts split instances, so
  // that code falling through into a loop header ends its instance there and the loop's
  // first iteration is not lifted apart; its liveness keeps dead registers out of contexts.
  std::set<uint64_t> leaders;
  LiftOptions budget;
  budget.maxInstructionsPerFunction = 20000;
  budget.maxBlocksPerFunction = 5000;
  DiagnosticSink ignored;
  DiscoveredFunction discovered = discoverFunction(image, cache, entry, budget, ignored);
  for (const auto &[start, block] : discovered.explored.blocks)
    leaders.insert(start);
  RegisterLiveness liveness(discovered.explored, defaultCallingConvention(image.format()));
  // A loop found to need generalization restarts the lift, so that the next attempt
  // generalizes its header at the first arrival instead of after two peeled iterations.
  std::vector<Generalization> generalizations;
  BranchProver prover(options);
  UnwrittenData unwritten(image);
  constexpr unsigned MaxRestarts = 32;
  for (unsigned attempt = 0;; ++attempt) {
    deleteLiftedBody(*function);
    DiagnosticSink attemptDiagnostics;
    bool complete = false;
    DeobfuscationStats stats;
    {
      ConcolicLifter lifter(image, cache, options, attemptDiagnostics, *function,
                            generalizations, attempt < MaxRestarts, leaders,
                            discovered.explored.jumpTables, liveness, prover, unwritten);
      complete = lifter.run(entry);
      stats = lifter.stats();
    }
    if (!complete)
      continue;
    for (const Diagnostic &d : attemptDiagnostics.all())
      diagnostics.report(d.severity, d.code, d.address, d.message);
    return stats;
  }
}

} // namespace hoist
