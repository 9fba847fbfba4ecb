#include "Lift/FunctionLifter.h"

#include "Arch/LiftContext.h"
#include "Arch/WrittenVars.h"
#include "Arch/StateLayout.h"
#include "Discover/InstructionCache.h"
#include "Lift/CallTargets.h"
#include "Lift/Intrinsics.h"
#include "Semantics/Semantics.h"
#include "Support/Diagnostics.h"
#include "Support/Error.h"

#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

namespace hoist {
namespace {

class FunctionLifter final : public ControlTransfers {
public:
  /// Only the variables in `mayWrite` are expected to be written (RegisterFile::assumeOnlyWritten).
  FunctionLifter(const FunctionLiftInput &input, llvm::Function &function, const VarSet &mayWrite);
  void run();
  /// Whether the semantics wrote only what the constructor was told they may.
  bool wroteOnlyExpected() const { return (registers_.written() & ~mayWrite_).none(); }
  std::vector<InstructionAddress> takeAddresses() { return std::move(addresses_); }

  // ControlTransfers: called by semantics while the current block is being lifted.
  void jump(uint64_t target) override;
  void branch(llvm::Value *condition, uint64_t taken, uint64_t notTaken) override;
  void jumpIndirect(llvm::Value *target) override;
  void call(llvm::Value *target, uint64_t returnAddress) override;
  void ret(llvm::Value *target) override;
  void trap(llvm::Value *address, HoistException exception) override;
  void trapIf(llvm::Value *condition, llvm::Value *address, HoistException exception) override;
  void branchIf(llvm::Value *condition, uint64_t target) override;
  void callRuntime(llvm::StringRef name) override;
  void ifThenElse(llvm::Value *condition, llvm::function_ref<void()> then,
                  llvm::function_ref<void()> otherwise) override;
  void unsupportedAtRunTime() override;
  void repeatUntil(llvm::function_ref<llvm::Value *()> attempt) override;

private:
  struct Slot {
    const MachineBlock *machine;
    llvm::BasicBlock *bb;
    RegisterFile::Block *registers;
    unsigned unliftedPreds = 0;
    // Where lifting currently appends: the block itself, or the last piece of it after
    // trapIf split it. Edges to successors leave from here.
    llvm::BasicBlock *tailBB = nullptr;
    RegisterFile::Block *tail = nullptr;
  };

  std::vector<Slot *> reversePostOrder();
  void liftBlock(Slot &slot);
  void liftInstruction(const Instr &instr);
  void finishBlock(Slot &slot);
  /// Writes State back (RIP = `rip`) and calls `callee` (an intrinsic gets `rip` as its third
  /// argument; with no callee, nothing is called); with `returns`, reads State again
  /// afterwards, otherwise ends the block with `ret void`.
  void leave(RegisterFile::Block *block, Intrinsic intrinsic, llvm::Value *rip, bool returns);
  void leave(RegisterFile::Block *block, llvm::FunctionCallee callee, llvm::Value *rip,
             bool returns);
  /// The call a leave() without `returns` ended `block` with (before its `ret void`), for
  /// metadata that says what reaches it.
  llvm::Instruction *leavingCall(RegisterFile::Block *block) {
    return registers_.basicBlock(block)->getTerminator()->getPrevNode();
  }
  /// leave() through __hoist_trap, with State.EXCEPTION set to `exception` first.
  void leaveByTrap(RegisterFile::Block *block, llvm::Value *rip, HoistException exception);
  /// A call that returns to `returnAddress`: State written back, `callee` called, then the
  /// callee's RIP checked against the return address (see include/hoist/Lifter.h).
  void callAndCheckReturn(llvm::FunctionCallee callee, llvm::Value *rip, uint64_t returnAddress);
  /// The function a resolved call or tail call goes to, or null for an unknown target.
  llvm::Function *calleeFor(const CallTarget &target);
  /// State.RIP while `target` is entered: the callee's entry, or for an import called through
  /// its slot, the value read from the slot.
  llvm::Value *entryRip(const CallTarget &target, llvm::Value *destination);
  /// The block an edge from the current block to `target` goes to: the target's own block, or
  /// a new exit block that leaves through __hoist_jmp.
  llvm::BasicBlock *edgeTo(uint64_t target, std::vector<std::pair<RegisterFile::Block *, uint64_t>> &exits);
  /// Whether `target` is one of the current block's successors in this function.
  bool isSuccessor(uint64_t target);
  void fillExits(const std::vector<std::pair<RegisterFile::Block *, uint64_t>> &exits);
  void tagWithAddress(llvm::BasicBlock *bb, llvm::Instruction *after, uint64_t address);
  /// The module's declaration of `intrinsic`, looked up once per function (every call checks
  /// where it returned to with __hoist_jmp).
  llvm::FunctionCallee intrinsic(Intrinsic intrinsic);
  /// "<prefix><hex address><suffix>", or nothing when the context discards value names (the
  /// default; `hoist lift --names` keeps them): building the string is then wasted work.
  std::string blockName(const llvm::Twine &prefix, uint64_t address,
                        llvm::StringRef suffix = {}) const {
    if (context_.shouldDiscardValueNames())
      return {};
    return (prefix + llvm::utohexstr(address, true) + suffix).str();
  }
  /// Ends the current tail with `br condition, taken, rest` and makes `rest` the new tail.
  void continueUnless(llvm::Value *condition, llvm::BasicBlock *taken);
  /// The resolved table (or computed jump) of the indirect jmp at `jump`, or null: a switch
  /// inside the function, or tail calls to other functions.
  const JumpTable *tableOf(uint64_t jump) const;

  const FunctionLiftInput &input_;
  const VarSet mayWrite_;
  llvm::Function &function_;
  llvm::Module &module_;
  llvm::LLVMContext &context_;
  llvm::Value *state_;
  llvm::Value *memory_;
  RegisterFile registers_;
  LiftContext ctx_;
  std::map<uint64_t, Slot> slots_;
  Slot *current_ = nullptr;
  /// The instruction-to-address map (include/hoist/Lifter.h, InstructionAddress), in the
  /// order the instructions were tagged: where one is tagged twice, the first entry counts.
  std::vector<InstructionAddress> addresses_;
  std::array<llvm::FunctionCallee, static_cast<size_t>(Intrinsic::Trap) + 1> intrinsics_{};
  /// The jump-table index register, read where the table entry is loaded in the current block.
  llvm::Value *tableIndex_ = nullptr;
  uint64_t tableIndexFor_ = 0;   ///< the jmp whose table `tableIndex_` indexes
  /// The successors of `successorSetOf_` as a set, for blocks with many (isSuccessor).
  llvm::DenseSet<uint64_t> successorSet_;
  const MachineBlock *successorSetOf_ = nullptr;
};

llvm::BasicBlock *createEntry(llvm::Function &function) {
  return llvm::BasicBlock::Create(function.getContext(), "entry", &function);
}

FunctionLifter::FunctionLifter(const FunctionLiftInput &input, llvm::Function &function,
                               const VarSet &mayWrite)
    : input_(input), mayWrite_(mayWrite), function_(function), module_(*function.getParent()),
      context_(function.getContext()), state_(function.getArg(0)), memory_(function.getArg(1)),
      registers_(createEntry(function), function.getArg(0)),
      ctx_(function.getContext(), registers_, function.getArg(1), *this, input.diagnostics) {
  ctx_.tagStackPointerWrites = input.tagStackPointerWrites;
  registers_.assumeOnlyWritten(mayWrite);
  for (const auto &[start, machine] : input.explored.blocks) {
    auto *bb = llvm::BasicBlock::Create(context_, blockName("bb_", start), &function);
    RegisterFile::Block *registers = registers_.createBlock(bb);
    slots_.emplace(start, Slot{&machine, bb, registers, 0, bb, registers});
  }
  // Edges are added when the branches are made (from each block's tail); here only counted,
  // so that a block is sealed once every predecessor is lifted.
  for (auto &[start, slot] : slots_)
    for (uint64_t successor : slot.machine->successors)
      ++slots_.at(successor).unliftedPreds;
  Slot &entry = slots_.at(input.explored.entry);
  registers_.addPredecessor(entry.registers, registers_.entryBlock());
  llvm::BranchInst::Create(entry.bb, registers_.basicBlock(registers_.entryBlock()));
}

std::vector<FunctionLifter::Slot *> FunctionLifter::reversePostOrder() {
  // Lifting predecessors first lets most blocks be sealed before they are lifted.
  std::vector<Slot *> postOrder;
  std::set<uint64_t> seen{input_.explored.entry};
  std::vector<std::pair<Slot *, size_t>> stack{{&slots_.at(input_.explored.entry), 0}};
  while (!stack.empty()) {
    auto &[slot, next] = stack.back();
    if (next < slot->machine->successors.size()) {
      uint64_t successor = slot->machine->successors[next++];
      if (seen.insert(successor).second)
        stack.emplace_back(&slots_.at(successor), 0);
      continue;
    }
    postOrder.push_back(slot);
    stack.pop_back();
  }
  return {postOrder.rbegin(), postOrder.rend()};
}

void FunctionLifter::run() {
  for (auto &[start, slot] : slots_)
    if (slot.unliftedPreds == 0)
      registers_.seal(slot.registers);
  for (Slot *slot : reversePostOrder()) {
    liftBlock(*slot);
    for (uint64_t successor : slot->machine->successors) {
      Slot &target = slots_.at(successor);
      if (--target.unliftedPreds == 0)
        registers_.seal(target.registers);
    }
  }
  // Blocks only reachable from unreachable code do not exist (exploration starts at the entry),
  // so every block is sealed here; the loop only guards against a broken invariant.
  for (auto &[start, slot] : slots_) {
    registers_.seal(slot.registers);
    if (!slot.tailBB->getTerminator())
      new llvm::UnreachableInst(context_, slot.tailBB);
  }
  input_.stats.blocks += slots_.size();
}

void FunctionLifter::liftBlock(Slot &slot) {
  current_ = &slot;
  tableIndex_ = nullptr;
  for (const Instr *instr : slot.machine->instrs) {
    if (slot.tailBB->getTerminator())
      break;   // a semantic ended the block early (a trap in the middle, say)
    liftInstruction(*instr);
  }
  finishBlock(slot);
}

void FunctionLifter::liftInstruction(const Instr &instr) {
  llvm::BasicBlock *bb = current_->tailBB;
  llvm::Instruction *last = bb->empty() ? nullptr : &bb->back();
  ctx_.startInstruction(current_->tail, &instr);
  if (!current_->machine->instrs.empty()) {
    // The jump table's entry is read here: remember the index before the load clobbers it.
    uint64_t jump = current_->machine->instrs.back()->address;
    const JumpTable *table = tableOf(jump);
    if (table && table->loadAt == instr.address &&
        table->indexRegister != ZYDIS_REGISTER_NONE) {
      tableIndex_ = ctx_.readReg(table->indexRegister);
      tableIndexFor_ = jump;
    }
  }
  Semantic semantic = findSemantic(instr);
  LiftStatus status = semantic ? semantic(ctx_, instr) : LiftStatus::Unsupported;
  if (status == LiftStatus::Unsupported) {
    ++input_.stats.unsupported[instr.mnemonicName()];
    input_.diagnostics.warning("unsupported-instruction", instr.address,
                               instr.describe() +
                                   (instr.isAvx512() ? ": no semantics for this AVX-512 form"
                                           : ": no semantics") +
                                   "; lifted as __hoist_unsupported");
    ctx_.setPosition(current_->tail, &instr);
    leave(current_->tail, Intrinsic::Unsupported, ctx_.ir.getInt64(instr.address), true);
  }
  ++input_.stats.instructionsLifted;
  // A split leaves the instruction's IR in two blocks; both carry its address.
  tagWithAddress(bb, last, instr.address);
  if (current_->tailBB != bb)
    tagWithAddress(current_->tailBB, nullptr, instr.address);
}

void FunctionLifter::tagWithAddress(llvm::BasicBlock *bb, llvm::Instruction *after,
                                    uint64_t address) {
  // The IR remembers the machine instruction it came from (diagnostics, brightening's
  // reasons): the first instruction each machine instruction added gets its address, and so
  // does every call (but LLVM's intrinsics) and terminator it added; the others belong to the
  // closest tagged instruction before them. The map is a side table, not `!hoist.pc`: uniquing
  // a metadata node per machine instruction cost a fifth of the lift (docs/PERFORMANCE.md),
  // and most lifts never read it. Entries for instructions tagged before are harmless (the
  // first entry counts), so the walk need not look the tags up.
  bool first = true;
  auto it = after ? std::next(after->getIterator()) : bb->begin();
  for (; it != bb->end(); ++it) {
    if (llvm::isa<llvm::PHINode>(*it))
      continue;
    bool leavesOrCalls = it->isTerminator() ||
                         (llvm::isa<llvm::CallBase>(*it) && !llvm::isa<llvm::IntrinsicInst>(*it));
    if (first || leavesOrCalls)
      addresses_.push_back({&*it, address});
    first = false;
  }
}

void FunctionLifter::finishBlock(Slot &slot) {
  if (slot.tailBB->getTerminator())
    return;
  const MachineBlock &machine = *slot.machine;
  ctx_.setPosition(slot.tail, machine.instrs.empty() ? nullptr : machine.instrs.back());
  llvm::Value *next = ctx_.ir.getInt64(machine.endAddress);
  switch (machine.end) {
  case MachineBlock::End::Fallthrough: {
    Slot &successor = slots_.at(machine.successors.front());
    registers_.addPredecessor(successor.registers, slot.tail);
    llvm::BranchInst::Create(successor.bb, slot.tailBB);
    return;
  }
  case MachineBlock::End::Invalid: {
    llvm::ArrayRef<uint8_t> bytes = input_.image.bytesAt(machine.endAddress);
    std::string hex;
    for (uint8_t byte : bytes.take_front(15))
      hex += llvm::formatv("{0:x-2} ", byte).str();
    input_.diagnostics.error("invalid-instruction", machine.endAddress,
                             formatAddress(machine.endAddress) + ": invalid instruction bytes " +
                                 llvm::StringRef(hex).rtrim().str() + "; lifted as __hoist_trap");
    leaveByTrap(slot.tail, next, HOIST_EXCEPTION_UD);
    return;
  }
  case MachineBlock::End::LeavesCode:
    input_.diagnostics.warning("leaves-code", machine.endAddress,
                               formatAddress(machine.endAddress) +
                                   ": execution runs past the end of executable code; lifted as "
                                   "__hoist_jmp");
    leave(slot.tail, Intrinsic::Jmp, next, false);
    return;
  case MachineBlock::End::NoReturnCall:   // should the callee return after all
    leave(slot.tail, Intrinsic::Jmp, next, false);
    leavingCall(slot.tail)->setMetadata(AfterNoReturnCallMetadata,
                                        llvm::MDNode::get(context_, {}));
    return;
  case MachineBlock::End::Budget:
  case MachineBlock::End::TailCall:       // the jmp made its tail call already
  case MachineBlock::End::Terminator:     // a terminator whose form had no semantics
    leave(slot.tail, Intrinsic::Jmp, next, false);
    return;
  }
}

llvm::FunctionCallee FunctionLifter::intrinsic(Intrinsic kind) {
  llvm::FunctionCallee &callee = intrinsics_.at(static_cast<size_t>(kind));
  if (!callee)
    callee = getIntrinsic(module_, kind);
  return callee;
}

void FunctionLifter::leave(RegisterFile::Block *block, Intrinsic kind, llvm::Value *rip,
                           bool returns) {
  leave(block, intrinsic(kind), rip, returns);
}

void FunctionLifter::leave(RegisterFile::Block *block, llvm::FunctionCallee callee,
                           llvm::Value *rip, bool returns) {
  llvm::BasicBlock *bb = registers_.basicBlock(block);
  registers_.storeAll(block);
  LiftBuilder ir(bb);
  ir.CreateStore(rip, registers_.fieldPointer(HOIST_FIELD_RIP));
  if (callee) {
    if (callee.getFunctionType()->getNumParams() == 3)
      ir.CreateCall(callee, {state_, memory_, rip});
    else
      ir.CreateCall(callee, {state_, memory_});
  }
  if (returns)
    registers_.reloadAll(block);
  else
    ir.CreateRetVoid();
}

llvm::BasicBlock *
FunctionLifter::edgeTo(uint64_t target,
                       std::vector<std::pair<RegisterFile::Block *, uint64_t>> &exits) {
  if (isSuccessor(target)) {
    Slot &successor = slots_.at(target);
    registers_.addPredecessor(successor.registers, current_->tail);
    return successor.bb;
  }
  auto *bb = llvm::BasicBlock::Create(context_, blockName("exit_", target), &function_);
  RegisterFile::Block *exit = registers_.createBlock(bb);
  registers_.addPredecessor(exit, current_->tail);
  registers_.seal(exit);
  exits.emplace_back(exit, target);
  return bb;
}

bool FunctionLifter::isSuccessor(uint64_t target) {
  const std::vector<uint64_t> &successors = current_->machine->successors;
  if (successors.size() <= 8)
    return std::find(successors.begin(), successors.end(), target) != successors.end();
  // A jump table's block asks once per case: searching its tens of thousands of successors
  // each time would make lifting it quadratic (tests/malformed/growth.py).
  if (successorSetOf_ != current_->machine) {
    successorSet_.clear();
    successorSet_.insert(successors.begin(), successors.end());
    successorSetOf_ = current_->machine;
  }
  return !InstructionCache::isReservedAddress(target) && successorSet_.contains(target);
}

void FunctionLifter::fillExits(
    const std::vector<std::pair<RegisterFile::Block *, uint64_t>> &exits) {
  // Only once the branch exists: reads from the exit look into the (now finished) block.
  for (auto [exit, target] : exits)
    leave(exit, Intrinsic::Jmp, llvm::ConstantInt::get(llvm::Type::getInt64Ty(context_), target),
          false);
}

void FunctionLifter::jump(uint64_t target) {
  const auto &successors = current_->machine->successors;
  if (current_->machine->end == MachineBlock::End::TailCall &&
      std::find(successors.begin(), successors.end(), target) == successors.end()) {
    // A jmp to another function's start: call it; its `ret` returns to our caller, which
    // checks where it went, so this function returns right after.
    llvm::Value *destination = ctx_.ir.getInt64(target);
    CallTarget resolved = resolveCallTarget(input_.image, ctx_.instr(), destination);
    if (llvm::Function *callee = calleeFor(resolved))
      return leave(current_->tail, callee, entryRip(resolved, destination), false);
  }
  std::vector<std::pair<RegisterFile::Block *, uint64_t>> exits;
  llvm::BasicBlock *destination = edgeTo(target, exits);
  llvm::BranchInst::Create(destination, current_->tailBB);
  fillExits(exits);
}

void FunctionLifter::branch(llvm::Value *condition, uint64_t taken, uint64_t notTaken) {
  if (taken == notTaken)
    return jump(taken);
  std::vector<std::pair<RegisterFile::Block *, uint64_t>> exits;
  llvm::BasicBlock *takenBB = edgeTo(taken, exits);
  llvm::BasicBlock *notTakenBB = edgeTo(notTaken, exits);
  llvm::BranchInst::Create(takenBB, notTakenBB, condition, current_->tailBB);
  fillExits(exits);
}

const JumpTable *FunctionLifter::tableOf(uint64_t jump) const {
  for (const JumpTableMap *tables :
       {&input_.explored.jumpTables, &input_.explored.tailCallTables})
    if (auto found = tables->find(jump); found != tables->end())
      return &found->second;
  return nullptr;
}

void FunctionLifter::jumpIndirect(llvm::Value *target) {
  uint64_t pc = ctx_.instr().address;
  if (auto slot = input_.explored.importSlotJumps.find(pc);
      slot != input_.explored.importSlotJumps.end())
    if (const Import *import = input_.image.importAtSlot(slot->second))
      // `mov rax, [rip+GOT]; jmp rax`: a tail call to the import the slot holds.
      return leave(current_->tail, declareImport(module_, *import), target, false);
  const JumpTable *found = tableOf(pc);
  bool tailCalls = found && input_.explored.tailCallTables.count(pc);
  if (!found) {
    // `jmp [slot]` of an import (a PLT entry, a PE thunk, a tail call through the GOT or IAT)
    // is a tail call to the import.
    CallTarget resolved = resolveCallTarget(input_.image, ctx_.instr(), target);
    if (resolved.kind == CallTarget::Kind::Import)
      return leave(current_->tail, calleeFor(resolved), target, false);
    return leave(current_->tail, Intrinsic::Jmp, target, false);
  }
  // A resolved jump table: a switch over the index (or, when no register holds the index at
  // the load, over the target), each case going to its block. Any other value leaves through
  // __hoist_jmp as an unresolved jmp would: the switch is exact whatever the index is.
  const JumpTable &table = *found;
  bool byIndex = tableIndex_ && tableIndexFor_ == pc &&
                 table.indexValues.size() == table.targets.size();
  auto *defaultBB =
      llvm::BasicBlock::Create(context_, blockName("jt_default_", pc), &function_);
  RegisterFile::Block *fallback = registers_.createBlock(defaultBB);
  registers_.addPredecessor(fallback, current_->tail);
  registers_.seal(fallback);
  llvm::Value *selector = byIndex ? tableIndex_ : target;
  auto *switchInst = llvm::SwitchInst::Create(selector, defaultBB,
                                              static_cast<unsigned>(table.targets.size()),
                                              current_->tailBB);
  // LLVM wants one phi entry per edge, and several cases may share a destination: those go
  // through one trampoline block per destination, so that each destination has one edge from
  // here. (A block's reads with a single sealed predecessor make no phis.)
  std::map<uint64_t, std::vector<uint64_t>> valuesByDestination;
  std::vector<std::pair<RegisterFile::Block *, uint64_t>> tailCallCases;
  std::set<uint64_t> caseValues;
  for (size_t i = 0; i < table.targets.size(); ++i) {
    uint64_t value = byIndex ? table.indexValues[i] : table.targets[i];
    if (caseValues.insert(value).second)
      valuesByDestination[table.targets[i]].push_back(value);
  }
  std::vector<std::pair<RegisterFile::Block *, uint64_t>> exits;
  auto *i64 = llvm::Type::getInt64Ty(context_);
  for (const auto &[destination, values] : valuesByDestination) {
    llvm::BasicBlock *caseBB = nullptr;
    if (tailCalls) {
      // A table of function pointers, or a constant target that is another function's
      // entry: each case calls that function, whose `ret` returns to our caller.
      caseBB = llvm::BasicBlock::Create(context_,
                                        "tail_" + llvm::utohexstr(pc, true) + "_" +
                                            llvm::utohexstr(destination, true),
                                        &function_);
      RegisterFile::Block *call = registers_.createBlock(caseBB);
      registers_.addPredecessor(call, current_->tail);
      registers_.seal(call);
      tailCallCases.emplace_back(call, destination);
    } else if (values.size() == 1) {
      caseBB = edgeTo(destination, exits);
    } else {
      caseBB = llvm::BasicBlock::Create(
          context_, blockName("jt_" + llvm::utohexstr(pc, true) + "_", destination), &function_);
      RegisterFile::Block *trampoline = registers_.createBlock(caseBB);
      registers_.addPredecessor(trampoline, current_->tail);
      registers_.seal(trampoline);
      if (isSuccessor(destination)) {
        Slot &successor = slots_.at(destination);
        registers_.addPredecessor(successor.registers, trampoline);
        llvm::BranchInst::Create(successor.bb, caseBB);
      } else {
        exits.emplace_back(trampoline, destination);
      }
    }
    for (uint64_t value : values)
      switchInst->addCase(llvm::ConstantInt::get(i64, value), caseBB);
  }
  fillExits(exits);
  for (auto [call, destination] : tailCallCases)
    leave(call, declareLiftedFunction(module_, input_.image, destination), ctx_.ir.getInt64(destination),
          false);
  leave(fallback, Intrinsic::Jmp, target, false);
  if (table.endInferred())
    leavingCall(fallback)->setMetadata(
        TableEndMetadata, llvm::MDNode::get(context_, llvm::ConstantAsMetadata::get(
                                                          ctx_.ir.getInt64(table.targets.size()))));
}

llvm::Function *FunctionLifter::calleeFor(const CallTarget &target) {
  switch (target.kind) {
  case CallTarget::Kind::Lifted:
    return declareLiftedFunction(module_, input_.image, target.address);
  case CallTarget::Kind::Import:
    return declareImport(module_, *target.import);
  case CallTarget::Kind::Unknown:
    break;
  }
  return nullptr;
}

llvm::Value *FunctionLifter::entryRip(const CallTarget &target, llvm::Value *destination) {
  if (target.kind == CallTarget::Kind::Import && target.throughSlot)
    return destination;
  return llvm::ConstantInt::get(llvm::Type::getInt64Ty(context_), target.address);
}

void FunctionLifter::call(llvm::Value *target, uint64_t returnAddress) {
  CallTarget resolved = resolveCallTarget(input_.image, ctx_.instr(), target);
  if (llvm::Function *callee = calleeFor(resolved))
    return callAndCheckReturn(callee, entryRip(resolved, target), returnAddress);
  callAndCheckReturn(intrinsic(Intrinsic::Call), target, returnAddress);
}

void FunctionLifter::callAndCheckReturn(llvm::FunctionCallee callee, llvm::Value *rip,
                                        uint64_t returnAddress) {
  // The return address is already in memory (the semantic pushed it). The callee's `ret` pops
  // it, writes State back with RIP set to it and returns from the LLVM function; a callee that
  // went elsewhere (it popped or rewrote the address, or longjmp'd) leaves RIP elsewhere, and
  // so does this function, through __hoist_jmp. State is current there: nothing to store.
  leave(current_->tail, callee, rip, true);
  llvm::BasicBlock *bb = registers_.basicBlock(current_->tail);
  uint64_t pc = ctx_.instr().address;
  LiftBuilder ir(bb);
  llvm::Value *returnedTo =
      ir.CreateLoad(ir.getInt64Ty(), registers_.fieldPointer(HOIST_FIELD_RIP), "returned.to");
  llvm::Value *elsewhere = ir.CreateICmpNE(returnedTo, ir.getInt64(returnAddress), "elsewhere");
  auto *elsewhereBB =
      llvm::BasicBlock::Create(context_, blockName("returned_elsewhere_", pc), &function_);
  LiftBuilder exit(elsewhereBB);
  exit.CreateCall(intrinsic(Intrinsic::Jmp), {state_, memory_, returnedTo});
  exit.CreateRetVoid();
  tagWithAddress(elsewhereBB, nullptr, pc);
  continueUnless(elsewhere, elsewhereBB);
  ctx_.setPosition(current_->tail, &ctx_.instr());
}

void FunctionLifter::ret(llvm::Value *target) {
  // A return is a return from the LLVM function, with State.RIP the address popped: the
  // caller, lifted code or the runtime, decides what comes next (include/hoist/Lifter.h).
  leave(current_->tail, llvm::FunctionCallee(), target, false);
}

void FunctionLifter::trap(llvm::Value *address, HoistException exception) {
  leaveByTrap(current_->tail, address, exception);
}

void FunctionLifter::leaveByTrap(RegisterFile::Block *block, llvm::Value *rip,
                                 HoistException exception) {
  LiftBuilder ir(registers_.basicBlock(block));
  ir.CreateStore(ir.getInt8(exception), registers_.fieldPointer(HOIST_FIELD_EXCEPTION));
  leave(block, Intrinsic::Trap, rip, false);
}

void FunctionLifter::continueUnless(llvm::Value *condition, llvm::BasicBlock *taken) {
  uint64_t pc = ctx_.instr().address;
  auto *restBB =
      llvm::BasicBlock::Create(context_, blockName("bb_", pc, ".ok"), &function_);
  RegisterFile::Block *rest = registers_.createBlock(restBB);
  registers_.addPredecessor(rest, current_->tail);
  registers_.seal(rest);
  llvm::BranchInst::Create(taken, restBB, condition, current_->tailBB);
  current_->tail = rest;
  current_->tailBB = restBB;
}

void FunctionLifter::callRuntime(llvm::StringRef name) {
  llvm::Value *address = llvm::ConstantInt::get(llvm::Type::getInt64Ty(context_),
                                                ctx_.instr().address);
  leave(current_->tail, getRuntimeIntrinsic(module_, name), address, true);
}

void FunctionLifter::trapIf(llvm::Value *condition, llvm::Value *address,
                            HoistException exception) {
  uint64_t pc = ctx_.instr().address;
  auto *faultBB =
      llvm::BasicBlock::Create(context_, blockName("fault_", pc), &function_);
  RegisterFile::Block *fault = registers_.createBlock(faultBB);
  registers_.addPredecessor(fault, current_->tail);
  registers_.seal(fault);
  continueUnless(condition, faultBB);
  leaveByTrap(fault, address, exception);
  ctx_.setPosition(current_->tail, &ctx_.instr());
}

void FunctionLifter::ifThenElse(llvm::Value *condition, llvm::function_ref<void()> then,
                                llvm::function_ref<void()> otherwise) {
  const Instr &instr = ctx_.instr();
  RegisterFile::Block *from = current_->tail;
  llvm::BasicBlock *fromBB = current_->tailBB;
  auto *joinBB =
      llvm::BasicBlock::Create(context_, blockName("bb_", instr.address, ".join"), &function_);
  RegisterFile::Block *join = registers_.createBlock(joinBB);
  // Each part is a block of its own after `from`; whatever block a part ends in (it may have
  // split it) goes on to the join unless the part ended its path.
  auto emitPart = [&](const char *suffix, llvm::function_ref<void()> body) {
    auto *bb = llvm::BasicBlock::Create(context_, blockName("bb_", instr.address, suffix),
                                        &function_, joinBB);
    RegisterFile::Block *part = registers_.createBlock(bb);
    registers_.addPredecessor(part, from);
    registers_.seal(part);
    current_->tail = part;
    current_->tailBB = bb;
    ctx_.setPosition(part, &instr);
    if (body)
      body();
    tagWithAddress(bb, nullptr, instr.address);
    tagWithAddress(current_->tailBB, nullptr, instr.address);
    if (!current_->tailBB->getTerminator()) {
      registers_.addPredecessor(join, current_->tail);
      llvm::BranchInst::Create(joinBB, current_->tailBB);
    }
    return bb;
  };
  // The branch goes in first: reads in the parts look into the finished block.
  auto *branchInst = llvm::BranchInst::Create(joinBB, joinBB, condition, fromBB);
  branchInst->setSuccessor(0, emitPart(".then", then));
  branchInst->setSuccessor(1, emitPart(".else", otherwise));
  registers_.seal(join);
  tagWithAddress(fromBB, nullptr, instr.address);
  current_->tail = join;
  current_->tailBB = joinBB;
  ctx_.setPosition(join, &instr);
}

void FunctionLifter::unsupportedAtRunTime() {
  leave(current_->tail, Intrinsic::Unsupported, ctx_.ir.getInt64(ctx_.instr().address), true);
  ctx_.setPosition(current_->tail, &ctx_.instr());
}

void FunctionLifter::repeatUntil(llvm::function_ref<llvm::Value *()> attempt) {
  const Instr &instr = ctx_.instr();
  auto *loopBB =
      llvm::BasicBlock::Create(context_, blockName("bb_", instr.address, ".retry"), &function_);
  // The loop is a register block of its own, its own predecessor: `attempt` reads no
  // register, so the register file never needs a phi there; the rest reads through it.
  RegisterFile::Block *loop = registers_.createBlock(loopBB);
  registers_.addPredecessor(loop, current_->tail);
  registers_.addPredecessor(loop, loop);
  registers_.seal(loop);
  llvm::BranchInst::Create(loopBB, current_->tailBB);
  current_->tail = loop;
  current_->tailBB = loopBB;
  ctx_.setPosition(loop, &instr);
  llvm::Value *done = attempt();
  tagWithAddress(loopBB, nullptr, instr.address);
  continueUnless(ctx_.ir.CreateNot(done), loopBB);
  ctx_.setPosition(current_->tail, &instr);
}

void FunctionLifter::branchIf(llvm::Value *condition, uint64_t target) {
  std::vector<std::pair<RegisterFile::Block *, uint64_t>> exits;
  llvm::BasicBlock *taken = edgeTo(target, exits);
  continueUnless(condition, taken);
  fillExits(exits);
  ctx_.setPosition(current_->tail, &ctx_.instr());
}

} // namespace

namespace {

VarSet varsWrittenBy(const ExploredFunction &explored) {
  VarSet vars;
  for (const auto &[start, block] : explored.blocks)
    for (const Instr *instr : block.instrs)
      vars |= varsWrittenBy(*instr);
  return vars;
}

} // namespace

namespace {

/// Builds a function in LLVM's old debug-info format and converts it to the module's after.
/// Lifting only appends instructions, and in the debug-record format (LLVM 19's default) each
/// insertion looks for debug records at its position (BasicBlock::getMarker, 1.5% of the raw
/// lift), of which the lifter makes none; converting the finished function back is one walk
/// over it.
class OldDebugInfoFormatWhileLifting {
public:
  explicit OldDebugInfoFormatWhileLifting(llvm::Function &function)
      : function_(function), wasNew_(function.IsNewDbgInfoFormat) {
    function_.setIsNewDbgInfoFormat(false);
  }
  ~OldDebugInfoFormatWhileLifting() { function_.setIsNewDbgInfoFormat(wasNew_); }

private:
  llvm::Function &function_;
  bool wasNew_;
};

} // namespace

std::vector<InstructionAddress> liftExploredFunction(const FunctionLiftInput &input,
                                                     llvm::Function &function) {
  OldDebugInfoFormatWhileLifting format(function);
  // Lifted first on the decoder's word of what the function writes (WrittenVars.h), into
  // diagnostics and statistics of its own, so that an attempt whose semantics wrote more
  // leaves no trace when it is lifted again without the assumption.
  VarSet mayWrite = input.assumedWrites ? *input.assumedWrites : varsWrittenBy(input.explored);
  if (!mayWrite.all()) {
    DiagnosticSink attemptDiagnostics;
    LiftStats attemptStats;
    FunctionLiftInput attempt{input.image, input.explored, attemptDiagnostics, attemptStats,
                              input.assumedWrites, input.tagStackPointerWrites};
    bool held;
    std::vector<InstructionAddress> addresses;
    {
      FunctionLifter lifter(attempt, function, mayWrite);
      lifter.run();
      held = lifter.wroteOnlyExpected();
      addresses = lifter.takeAddresses();
    }   // the lifter's removed phis go before the body they refer to
    if (held) {
      for (const Diagnostic &diagnostic : attemptDiagnostics.all())
        input.diagnostics.report(diagnostic.severity, diagnostic.code, diagnostic.address,
                                 diagnostic.message);
      addLiftStats(input.stats, attemptStats);
      return addresses;
    }
    deleteLiftedBody(function);
    ++input.stats.writesMispredicted;
  }
  FunctionLifter lifter(input, function, VarSet().set());
  lifter.run();
  return lifter.takeAddresses();
}

} // namespace hoist
