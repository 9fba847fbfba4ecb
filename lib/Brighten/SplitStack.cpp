#include "Brighten/SplitStack.h"

#include "Brighten/ImportEffects.h"
#include "Brighten/LocalFrame.h"
#include "Brighten/OffsetBounds.h"
#include "Lift/CallTargets.h"
#include "Passes/Passes.h"

#include <llvm/ADT/MapVector.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>

#include <algorithm>
#include <set>
#include <utility>

namespace hoist {
namespace {

/// Marks the allocas a split made: a later round may split them further.
constexpr const char *StackPartMetadataKind = "hoist.stack.part";

struct Range {
  int64_t begin, end;
};

/// A use of the stack at a constant offset: operand `operand` of `user` points there, and
/// it reaches the bytes up to `end` (through a variable offset added there, if `user` is a
/// gep: up to the largest the offset can be).
struct Access {
  llvm::Instruction *user;
  unsigned operand;
  int64_t offset, end;

  Range range() const { return {offset, end}; }
};

/// The uses of a stack alloca, if all are at constant offsets, or at variable offsets whose
/// range is bounded, and reach known byte ranges.
class StackUses {
public:
  StackUses(const llvm::DataLayout &layout, int64_t size, OffsetBounds &bounds)
      : layout_(layout), size_(size), bounds_(bounds) {}

  /// Follows the uses of `pointer` (the stack plus `offset`); one it cannot bound (a
  /// variable offset, the address converted or handed on) leaves the uses incomplete.
  void collect(llvm::Value *pointer, int64_t offset);

  /// Whether every use of the stack is among `accesses`.
  bool complete = true;

  std::vector<Access> accesses;
  /// The geps followed, parents first.
  std::vector<llvm::Instruction *> geps;
  /// lifetime.start/end of the whole stack: they go with it.
  std::vector<llvm::Instruction *> lifetimes;

private:
  bool access(llvm::Use &use, int64_t offset, int64_t end) {
    if (offset < 0 || end > size_ || offset > end)
      return false;
    accesses.push_back(
        {llvm::cast<llvm::Instruction>(use.getUser()), use.getOperandNo(), offset, end});
    return true;
  }
  bool callArgument(llvm::CallBase &call, llvm::Use &use, int64_t offset);
  bool variableOffset(llvm::GetElementPtrInst &gep, llvm::Use &use, int64_t offset);
  /// The largest value of a length or count, when bounded.
  std::optional<int64_t> largest(llvm::Value *count) const {
    if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(count))
      return int64_t(constant->getZExtValue());
    std::optional<ValueRange> range = bounds_.of(count);
    if (!range || range->lowest < 0)
      return std::nullopt;
    return range->highest;
  }

  const llvm::DataLayout &layout_;
  int64_t size_;
  OffsetBounds &bounds_;
};

/// A gep that adds a variable offset (`buffer[i]`, a loop's index; its constant part folded
/// in): it points into the bytes from its base up to the largest offset plus what its own
/// uses reach from there, collected apart (they stay as they are; the gep's base is what a
/// split points into its group). Only a non-negative range is taken: the base is then the
/// lowest byte reached.
bool StackUses::variableOffset(llvm::GetElementPtrInst &gep, llvm::Use &use, int64_t offset) {
  if (gep.getPointerOperand() != use.get())
    return false;
  llvm::MapVector<llvm::Value *, llvm::APInt> variables;
  llvm::APInt constant(64, 0);
  if (!gep.collectOffset(layout_, 64, variables, constant))
    return false;
  // The loads and stores through the gep itself: the one a loop's walk may need done on
  // every iteration.
  std::vector<llvm::Instruction *> direct;
  for (llvm::User *user : gep.users())
    if (llvm::isa<llvm::LoadInst>(user) ||
        (llvm::isa<llvm::StoreInst>(user) &&
         llvm::cast<llvm::StoreInst>(user)->getPointerOperand() == &gep))
      direct.push_back(llvm::cast<llvm::Instruction>(user));
  int64_t lowest = constant.getSExtValue(), highest = lowest;
  for (auto &[variable, scale] : variables) {
    std::optional<ValueRange> range = bounds_.of(variable, direct);
    if (!range || scale.isNegative() || scale.getActiveBits() > 32 || range->lowest < 0 ||
        range->highest > size_)
      return false;
    lowest += range->lowest * scale.getSExtValue();
    highest += range->highest * scale.getSExtValue();
  }
  if (lowest < 0 || offset + highest > size_)
    return false;
  StackUses reached(layout_, size_ - offset - highest, bounds_);
  reached.collect(&gep, 0);
  if (!reached.complete || !reached.lifetimes.empty())
    return false;
  int64_t end = 0;
  for (const Access &access : reached.accesses)
    end = std::max(end, access.end);
  return access(use, offset, offset + highest + end);
}

bool StackUses::callArgument(llvm::CallBase &call, llvm::Use &use, int64_t offset) {
  if (llvm::isa<llvm::LifetimeIntrinsic>(call)) {
    lifetimes.push_back(&call);
    return true;
  }
  // Of a variable length (memset of a buffer's first n & 31 bytes), as far as it can reach.
  if (auto *intrinsic = llvm::dyn_cast<llvm::MemIntrinsic>(&call)) {
    std::optional<int64_t> length = largest(intrinsic->getLength());
    return length && access(use, offset, offset + *length);
  }
  // An import's declaration (the C library's, or the Windows API's), whose effects are known.
  const llvm::Function *callee = call.getCalledFunction();
  if (!callee || !callee->isDeclaration() || !call.isArgOperand(&use))
    return false;
  std::optional<ImportEffects> effects = importEffects(callee->getName(), importLibrary(*callee));
  if (!effects)
    return false;
  unsigned argument = call.getArgOperandNo(&use);
  for (const PointerWrite &write : effects->writes) {
    if (write.argument != argument)
      continue;
    if (write.bytes)
      return access(use, offset, offset + write.bytes);
    std::optional<int64_t> count =
        write.sizeArgument >= 0 && unsigned(write.sizeArgument) < call.arg_size()
            ? largest(call.getArgOperand(write.sizeArgument))
            : std::nullopt;
    return count && access(use, offset, offset + *count);
  }
  // Read from there up, as far as the string or buffer goes.
  return access(use, offset, size_);
}

void StackUses::collect(llvm::Value *pointer, int64_t offset) {
  for (llvm::Use &use : pointer->uses()) {
    llvm::User *user = use.getUser();
    bool bounded = false;
    if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(user)) {
      llvm::APInt delta(64, 0);
      bounded = gep->getPointerOperand() == pointer &&
                gep->accumulateConstantOffset(layout_, delta);
      if (bounded) {
        geps.push_back(gep);
        collect(gep, offset + delta.getSExtValue());
      } else {
        bounded = variableOffset(*gep, use, offset);
      }
    } else if (auto *load = llvm::dyn_cast<llvm::LoadInst>(user)) {
      bounded = access(use, offset, offset + int64_t(layout_.getTypeStoreSize(load->getType())));
    } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user)) {
      // Storing the address itself hands it on to whoever loads it.
      bounded = use.getOperandNo() == llvm::StoreInst::getPointerOperandIndex() &&
                access(use, offset,
                       offset + int64_t(layout_.getTypeStoreSize(
                                    store->getValueOperand()->getType())));
    } else if (auto *call = llvm::dyn_cast<llvm::CallBase>(user)) {
      bounded = callArgument(*call, use, offset);
    }
    // Otherwise compared, converted, merged in a phi: it may go anywhere.
    complete &= bounded;
  }
}

/// The groups of bytes used together: overlapping ranges merged.
std::vector<Range> groupsOf(std::vector<Range> ranges) {
  std::sort(ranges.begin(), ranges.end(),
            [](const Range &a, const Range &b) { return a.begin < b.begin; });
  std::vector<Range> groups;
  for (const Range &range : ranges) {
    if (!groups.empty() && range.begin < groups.back().end)
      groups.back().end = std::max(groups.back().end, range.end);
    else
      groups.push_back(range);
  }
  return groups;
}

/// A store of a vector or a wide integer, which SROA would keep whole (a vector alloca whose
/// lanes the function's other accesses extract and insert): it can be stored piece by piece.
bool isSplittableStore(const Access &access) {
  auto *store = llvm::dyn_cast<llvm::StoreInst>(access.user);
  if (!store || !store->isSimple())
    return false;
  llvm::Type *type = store->getValueOperand()->getType();
  const llvm::DataLayout &layout = store->getDataLayout();
  bool wide = llvm::isa<llvm::FixedVectorType>(type) ||
              (type->isIntegerTy() && type->getIntegerBitWidth() > 64);
  return wide && layout.getTypeSizeInBits(type) == uint64_t(8 * (access.end - access.offset));
}

/// The stores that cross a boundary between bytes other accesses use apart (the 16-byte store
/// that zeroes four 4-byte locals) are cut there, if that leaves more groups than before: a
/// piece is the value's bytes shifted down and truncated (little-endian), stored at its
/// offset. Their accesses in `uses` become the pieces'. Returns whether any store was cut.
bool cutWideStores(StackUses &uses) {
  std::vector<Range> fixed;
  std::set<int64_t> cuts;
  for (const Access &access : uses.accesses)
    if (!isSplittableStore(access)) {
      fixed.push_back(access.range());
      cuts.insert(access.offset);
      cuts.insert(access.end);
    }
  std::vector<Range> all = fixed, cut = fixed;
  for (const Access &access : uses.accesses)
    if (isSplittableStore(access)) {
      all.push_back(access.range());
      int64_t begin = access.offset;
      for (auto at = cuts.upper_bound(access.offset); at != cuts.end() && *at < access.end; ++at)
        cut.push_back({std::exchange(begin, *at), *at});
      cut.push_back({begin, access.end});
    }
  if (groupsOf(cut).size() <= groupsOf(all).size())
    return false;
  std::vector<Access> accesses;
  for (const Access &access : uses.accesses) {
    auto inner = cuts.upper_bound(access.offset);
    if (!isSplittableStore(access) || inner == cuts.end() || *inner >= access.end) {
      accesses.push_back(access);
      continue;
    }
    auto *store = llvm::cast<llvm::StoreInst>(access.user);
    llvm::IRBuilder<> builder(store);
    llvm::Value *bits = builder.CreateBitCast(
        store->getValueOperand(), builder.getIntNTy(unsigned(8 * (access.end - access.offset))));
    int64_t begin = access.offset;
    auto storePiece = [&](int64_t end) {
      llvm::Value *piece = builder.CreateTrunc(
          builder.CreateLShr(bits, uint64_t(8 * (begin - access.offset))),
          builder.getIntNTy(unsigned(8 * (end - begin))));
      // At its own address in the whole stack; split, the rewrite points it into its group.
      llvm::Value *address = store->getPointerOperand();
      if (begin != access.offset) {
        address = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), address,
                                                     uint64_t(begin - access.offset));
        if (auto *gep = llvm::dyn_cast<llvm::Instruction>(address))
          uses.geps.push_back(gep);
      }
      llvm::StoreInst *pieceStore = builder.CreateAlignedStore(
          piece, address,
          llvm::commonAlignment(store->getAlign(), uint64_t(begin - access.offset)));
      accesses.push_back(
          {pieceStore, llvm::StoreInst::getPointerOperandIndex(), begin, end});
      begin = end;
    };
    for (; inner != cuts.end() && *inner < access.end; ++inner)
      storePiece(*inner);
    storePiece(access.end);
    store->eraseFromParent();
  }
  uses.accesses = std::move(accesses);
  return true;
}

bool split(llvm::AllocaInst &stack, OffsetBounds &bounds) {
  const llvm::DataLayout &layout = stack.getDataLayout();
  std::optional<llvm::TypeSize> size = stack.getAllocationSize(layout);
  if (!size || !stack.isStaticAlloca())
    return false;
  StackUses uses(layout, int64_t(size->getFixedValue()), bounds);
  uses.collect(&stack, 0);
  // Cutting a store is right whatever else uses the stack; it pays once SROA can promote the
  // pieces (when the stack is not split, only after the uses it cannot bound are gone).
  bool cut = cutWideStores(uses);
  if (!uses.complete)
    return cut;
  std::vector<Range> ranges;
  for (const Access &access : uses.accesses)
    ranges.push_back(access.range());
  std::vector<Range> groups = groupsOf(ranges);
  if (groups.size() < 2 && (groups.empty() || (groups[0].begin == 0 &&
                                               groups[0].end == int64_t(size->getFixedValue()))))
    return cut;

  llvm::LLVMContext &context = stack.getContext();
  llvm::IRBuilder<> entry(&stack);
  std::vector<llvm::AllocaInst *> parts;
  for (const Range &group : groups) {
    auto *part = entry.CreateAlloca(
        llvm::ArrayType::get(entry.getInt8Ty(), uint64_t(group.end - group.begin)));
    part->setAlignment(llvm::commonAlignment(stack.getAlign(), uint64_t(group.begin)));
    part->setMetadata(StackPartMetadataKind, llvm::MDNode::get(context, {}));
    parts.push_back(part);
  }
  for (const Access &access : uses.accesses) {
    auto group = std::upper_bound(groups.begin(), groups.end(), access.offset,
                                  [](int64_t offset, const Range &range) {
                                    return offset < range.begin;
                                  }) -
                 1;
    llvm::AllocaInst *part = parts[size_t(group - groups.begin())];
    llvm::IRBuilder<> builder(access.user);
    llvm::Value *pointer =
        access.offset == group->begin
            ? static_cast<llvm::Value *>(part)
            : builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), part,
                                                 uint64_t(access.offset - group->begin));
    access.user->setOperand(access.operand, pointer);
  }
  for (llvm::Instruction *lifetime : uses.lifetimes)
    lifetime->eraseFromParent();
  for (auto gep = uses.geps.rbegin(); gep != uses.geps.rend(); ++gep)
    if ((*gep)->use_empty())
      (*gep)->eraseFromParent();
  if (stack.use_empty())
    stack.eraseFromParent();
  return true;
}

} // namespace

llvm::PreservedAnalyses SplitStackPass::run(llvm::Function &function,
                                            llvm::FunctionAnalysisManager &analyses) {
  std::vector<llvm::AllocaInst *> stacks;
  for (llvm::Instruction &instruction : function.getEntryBlock())
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
      if (alloca->getMetadata(StackMetadataKind) || alloca->getMetadata(StackPartMetadataKind))
        stacks.push_back(alloca);
  OffsetBounds bounds(function, analyses);
  bool changed = false;
  for (llvm::AllocaInst *stack : stacks)
    if (split(*stack, bounds)) {
      changed = true;
      // The next stack's offsets are asked of the function as it is now.
      bounds.invalidate();
    }
  return preservedAfter(changed);
}

} // namespace hoist
