// DeadStateStores: State stores nothing can observe, and State loads that only read back what
// the function stored before a runtime call that does not touch that field.
//
// The lifter writes every changed register back to State before each call it leaves through
// and reads them all again after it (lib/Lift/FunctionLifter.cpp, leave()). For `__hoist_call`
// and calls between lifted functions that is the contract, but the runtime calls of lib/Semantics/System.cpp
// (cpuid, rdtsc, rdtscp, xgetbv, rdrand, rdseed, rdpid) read and write only the registers
// their instruction does (SDM vol. 2: CPUID reads EAX and ECX and writes EAX..EDX, ...) plus
// RIP, which they read to know their instruction. LLVM's DSE and GVN see an opaque call that
// may read and write all of `%state`, so they keep every store before it and every load
// after it. With the effects known:
// 1. a load of a field the call does not write, after it in the same block, is the value
//    stored to that field before it;
// 2. a store is dead when, on every path from it, the field is overwritten before anything
//    can read it: a load of the field, a runtime call that reads it, any other call, or a
//    return (State is the function's result).
// Stores through `%mem` never touch State: both arguments are `noalias`.
#include "Passes/Passes.h"
#include "hoist/State.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include <cstddef>
#include <optional>

namespace hoist {
namespace {

constexpr unsigned MaxWalkInstructions = 4096;   ///< per store; beyond it the store stays

struct Range {
  uint64_t offset;
  uint64_t size;
  bool overlaps(Range other) const {
    return offset < other.offset + other.size && other.offset < offset + size;
  }
  bool covers(Range other) const {
    return offset <= other.offset && other.offset + other.size <= offset + size;
  }
};

#define FIELD(Name) Range{offsetof(HoistState, Name), sizeof(HoistState::Name)}

struct RuntimeEffects {
  std::vector<Range> reads;
  std::vector<Range> writes;
};

/// The State each runtime call reads and writes; every one reads RIP to know its instruction.
const llvm::StringMap<RuntimeEffects> &runtimeEffects() {
  static const llvm::StringMap<RuntimeEffects> table = [] {
    const Range gprs{offsetof(HoistState, RAX),
                     offsetof(HoistState, R15) + sizeof(HoistState::R15)};
    const std::vector<Range> statusFlags{FIELD(CF), FIELD(PF), FIELD(AF),
                                         FIELD(ZF), FIELD(SF), FIELD(OF)};
    std::vector<Range> randomWrites = statusFlags;   // RDRAND/RDSEED: any GPR, CF, the rest 0
    randomWrites.push_back(gprs);
    llvm::StringMap<RuntimeEffects> effects;
    effects["__hoist_cpuid"] = {{FIELD(RAX), FIELD(RCX), FIELD(RIP)},
                                {FIELD(RAX), FIELD(RBX), FIELD(RCX), FIELD(RDX)}};
    effects["__hoist_rdtsc"] = {{FIELD(RIP)}, {FIELD(RAX), FIELD(RDX)}};
    effects["__hoist_rdtscp"] = {{FIELD(RIP)}, {FIELD(RAX), FIELD(RCX), FIELD(RDX)}};
    effects["__hoist_xgetbv"] = {{FIELD(RCX), FIELD(RIP)}, {FIELD(RAX), FIELD(RDX)}};
    effects["__hoist_rdrand"] = {{FIELD(RIP)}, randomWrites};
    effects["__hoist_rdseed"] = {{FIELD(RIP)}, randomWrites};
    effects["__hoist_rdpid"] = {{FIELD(RIP)}, {gprs}};   // the destination is any GPR
    return effects;
  }();
  return table;
}

#undef FIELD

const RuntimeEffects *effectsOf(const llvm::Instruction &inst) {
  auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
  if (!call || !call->getCalledFunction())
    return nullptr;
  auto found = runtimeEffects().find(call->getCalledFunction()->getName());
  return found == runtimeEffects().end() ? nullptr : &found->second;
}

bool anyOverlaps(const std::vector<Range> &ranges, Range range) {
  for (Range r : ranges)
    if (r.overlaps(range))
      return true;
  return false;
}

bool anyCovers(const std::vector<Range> &ranges, Range range) {
  for (Range r : ranges)
    if (r.covers(range))
      return true;
  return false;
}

/// Where a pointer points: a known State range, `%mem` (never State), or anywhere.
class Pointers {
public:
  Pointers(llvm::Function &function)
      : layout_(function.getParent()->getDataLayout()), state_(function.getArg(0)),
        memory_(function.getArg(1)) {}

  std::optional<Range> stateRange(llvm::Value *pointer, uint64_t size) const {
    llvm::APInt offset(layout_.getIndexTypeSizeInBits(pointer->getType()), 0);
    if (pointer->stripAndAccumulateConstantOffsets(layout_, offset, true) != state_ ||
        offset.isNegative())
      return std::nullopt;
    return Range{offset.getZExtValue(), size};
  }
  bool isMemory(llvm::Value *pointer) const {
    return llvm::getUnderlyingObject(pointer) == memory_;
  }
  uint64_t sizeOf(llvm::Type *type) const { return layout_.getTypeStoreSize(type); }

private:
  const llvm::DataLayout &layout_;
  llvm::Argument *state_;
  llvm::Argument *memory_;
};

/// What one instruction does to the State range a store wrote.
enum class Effect { Nothing, Overwrites, MayRead };

Effect effectOn(llvm::Instruction &inst, Range range, const Pointers &pointers) {
  if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
    if (load->isSimple() && load->use_empty())
      return Effect::Nothing;   // dead, about to be deleted
    if (pointers.isMemory(load->getPointerOperand()))
      return Effect::Nothing;
    std::optional<Range> read =
        pointers.stateRange(load->getPointerOperand(), pointers.sizeOf(load->getType()));
    return read && !read->overlaps(range) ? Effect::Nothing : Effect::MayRead;
  }
  if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
    std::optional<Range> written = pointers.stateRange(
        store->getPointerOperand(), pointers.sizeOf(store->getValueOperand()->getType()));
    return written && written->covers(range) ? Effect::Overwrites : Effect::Nothing;
  }
  if (auto *set = llvm::dyn_cast<llvm::MemSetInst>(&inst)) {
    auto *length = llvm::dyn_cast<llvm::ConstantInt>(set->getLength());
    std::optional<Range> written =
        length ? pointers.stateRange(set->getDest(), length->getZExtValue()) : std::nullopt;
    return written && written->covers(range) ? Effect::Overwrites : Effect::Nothing;
  }
  if (const RuntimeEffects *effects = effectsOf(inst)) {
    if (anyOverlaps(effects->reads, range))
      return Effect::MayRead;
    return anyCovers(effects->writes, range) ? Effect::Overwrites : Effect::Nothing;
  }
  if (llvm::isa<llvm::ReturnInst>(inst) || inst.mayReadFromMemory())
    return Effect::MayRead;
  if (llvm::isa<llvm::UnreachableInst>(inst))
    return Effect::Overwrites;   // no path goes on from here
  return Effect::Nothing;
}

/// True when every path from after `store` overwrites its range before anything reads it.
bool isDead(llvm::StoreInst &store, Range range, const Pointers &pointers) {
  unsigned budget = MaxWalkInstructions;
  llvm::SmallPtrSet<llvm::BasicBlock *, 16> visited;
  llvm::SmallVector<llvm::Instruction *, 16> work{store.getNextNode()};
  while (!work.empty()) {
    llvm::Instruction *inst = work.pop_back_val();
    for (; inst; inst = inst->getNextNode()) {
      if (--budget == 0)
        return false;
      Effect effect = effectOn(*inst, range, pointers);
      if (effect == Effect::MayRead)
        return false;
      if (effect == Effect::Overwrites)
        break;
      if (inst->isTerminator()) {
        for (llvm::BasicBlock *successor : llvm::successors(inst))
          if (visited.insert(successor).second)
            work.push_back(&successor->front());
        break;
      }
    }
  }
  return true;
}

/// Step 1: loads after a runtime call that read what the block stored before it.
bool forwardAcrossRuntimeCalls(llvm::BasicBlock &block, const Pointers &pointers) {
  struct Known {
    Range range;
    llvm::Value *value;
  };
  llvm::SmallVector<Known, 32> known;
  auto forget = [&](Range range) {
    llvm::erase_if(known, [&](const Known &k) { return k.range.overlaps(range); });
  };
  bool changed = false;
  for (llvm::Instruction &inst : llvm::make_early_inc_range(block)) {
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst); load && load->isSimple()) {
      std::optional<Range> range =
          pointers.stateRange(load->getPointerOperand(), pointers.sizeOf(load->getType()));
      if (!range)
        continue;
      auto same = llvm::find_if(known, [&](const Known &k) {
        return k.range.offset == range->offset && k.value->getType() == load->getType();
      });
      if (same != known.end()) {
        load->replaceAllUsesWith(same->value);
        load->eraseFromParent();
        changed = true;
      }
      // A load is not remembered: forwarding a value loaded before the call would turn the
      // lifter's reload-and-store-back of an unchanged register, which DSE removes as a
      // no-op store, into a store DSE must keep (the call might have changed the field).
      continue;
    }
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
      if (pointers.isMemory(store->getPointerOperand()))
        continue;
      llvm::Type *type = store->getValueOperand()->getType();
      std::optional<Range> range =
          pointers.stateRange(store->getPointerOperand(), pointers.sizeOf(type));
      if (!range) {
        known.clear();
        continue;
      }
      forget(*range);
      // Storing back what was loaded from the field is a no-op DSE removes; remembering it
      // would make the store after the call look like a change.
      bool noOp = false;
      if (auto *reloaded = llvm::dyn_cast<llvm::LoadInst>(store->getValueOperand()))
        if (std::optional<Range> source =
                pointers.stateRange(reloaded->getPointerOperand(), pointers.sizeOf(type)))
          noOp = source->offset == range->offset;
      if (store->isSimple() && !noOp)
        known.push_back({*range, store->getValueOperand()});
      continue;
    }
    if (const RuntimeEffects *effects = effectsOf(inst)) {
      for (Range written : effects->writes)
        forget(written);
      continue;
    }
    if (auto *set = llvm::dyn_cast<llvm::MemSetInst>(&inst)) {
      auto *length = llvm::dyn_cast<llvm::ConstantInt>(set->getLength());
      if (pointers.isMemory(set->getDest()))
        continue;
      std::optional<Range> range =
          length ? pointers.stateRange(set->getDest(), length->getZExtValue()) : std::nullopt;
      if (range)
        forget(*range);
      else
        known.clear();
      continue;
    }
    if (inst.mayWriteToMemory())
      known.clear();
  }
  return changed;
}

} // namespace

llvm::PreservedAnalyses DeadStateStoresPass::run(llvm::Function &function,
                                                 llvm::FunctionAnalysisManager &) {
  // A lifted function is `void (ptr noalias %state, ptr noalias %mem)`.
  if (function.isDeclaration() || function.arg_size() != 2 ||
      !function.hasParamAttribute(0, llvm::Attribute::NoAlias) ||
      !function.hasParamAttribute(1, llvm::Attribute::NoAlias))
    return llvm::PreservedAnalyses::all();
  bool hasRuntimeCall = false;
  for (llvm::Instruction &inst : llvm::instructions(function))
    hasRuntimeCall |= effectsOf(inst) != nullptr;
  if (!hasRuntimeCall)
    return llvm::PreservedAnalyses::all();   // nothing DSE and GVN do not already see

  Pointers pointers(function);
  bool changed = false;
  for (llvm::BasicBlock &block : function)
    changed |= forwardAcrossRuntimeCalls(block, pointers);

  // All decisions on the same IR, then the deletions: a store killed by a dead store is
  // killed by whatever killed that one too, so deleting both is sound.
  std::vector<llvm::StoreInst *> dead;
  for (llvm::Instruction &inst : llvm::instructions(function)) {
    auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst);
    if (!store || !store->isSimple())
      continue;
    std::optional<Range> range = pointers.stateRange(
        store->getPointerOperand(), pointers.sizeOf(store->getValueOperand()->getType()));
    if (range && isDead(*store, *range, pointers))
      dead.push_back(store);
  }
  for (llvm::StoreInst *store : dead)
    store->eraseFromParent();
  return preservedAfter(changed || !dead.empty());
}

} // namespace hoist
