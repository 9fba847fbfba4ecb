#include "Brighten/SplitStack.h"

#include "Brighten/ImportEffects.h"
#include "Brighten/LocalFrame.h"
#include "Passes/Passes.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>

#include <algorithm>

namespace hoist {
namespace {

/// Marks the allocas a split made: a later round may split them further.
constexpr const char *StackPartMetadataKind = "hoist.stack.part";

struct Range {
  int64_t begin, end;
};

/// A use of the stack at a constant offset: operand `operand` of `user` points there.
struct Access {
  llvm::Instruction *user;
  unsigned operand;
  int64_t offset;
};

/// The uses of a stack alloca, if all are at constant offsets and reach known byte ranges.
class StackUses {
public:
  StackUses(const llvm::DataLayout &layout, int64_t size) : layout_(layout), size_(size) {}

  /// Follows the uses of `pointer` (the stack plus `offset`); false at one it cannot bound.
  bool collect(llvm::Value *pointer, int64_t offset);

  std::vector<Access> accesses;
  std::vector<Range> ranges;
  /// The geps followed, parents first.
  std::vector<llvm::Instruction *> geps;
  /// lifetime.start/end of the whole stack: they go with it.
  std::vector<llvm::Instruction *> lifetimes;

private:
  bool access(llvm::Use &use, int64_t offset, int64_t end) {
    if (offset < 0 || end > size_ || offset > end)
      return false;
    accesses.push_back({llvm::cast<llvm::Instruction>(use.getUser()), use.getOperandNo(), offset});
    ranges.push_back({offset, end});
    return true;
  }
  bool callArgument(llvm::CallBase &call, llvm::Use &use, int64_t offset);

  const llvm::DataLayout &layout_;
  int64_t size_;
};

bool StackUses::callArgument(llvm::CallBase &call, llvm::Use &use, int64_t offset) {
  if (llvm::isa<llvm::LifetimeIntrinsic>(call)) {
    lifetimes.push_back(&call);
    return true;
  }
  if (auto *intrinsic = llvm::dyn_cast<llvm::MemIntrinsic>(&call)) {
    auto *length = llvm::dyn_cast<llvm::ConstantInt>(intrinsic->getLength());
    return length && access(use, offset, offset + int64_t(length->getZExtValue()));
  }
  // An import's declaration (the C library's, or the Windows API's), whose effects are known.
  const llvm::Function *callee = call.getCalledFunction();
  if (!callee || !callee->isDeclaration() || !call.isArgOperand(&use))
    return false;
  std::optional<ImportEffects> effects = importEffects(callee->getName());
  if (!effects)
    return false;
  unsigned argument = call.getArgOperandNo(&use);
  for (const PointerWrite &write : effects->writes) {
    if (write.argument != argument)
      continue;
    if (write.bytes)
      return access(use, offset, offset + write.bytes);
    auto *count = write.sizeArgument >= 0 && unsigned(write.sizeArgument) < call.arg_size()
                      ? llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(write.sizeArgument))
                      : nullptr;
    return count && access(use, offset, offset + int64_t(count->getZExtValue()));
  }
  // Read from there up, as far as the string or buffer goes.
  return access(use, offset, size_);
}

bool StackUses::collect(llvm::Value *pointer, int64_t offset) {
  for (llvm::Use &use : pointer->uses()) {
    llvm::User *user = use.getUser();
    if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(user)) {
      llvm::APInt delta(64, 0);
      if (gep->getPointerOperand() != pointer || !gep->accumulateConstantOffset(layout_, delta))
        return false;
      geps.push_back(gep);
      if (!collect(gep, offset + delta.getSExtValue()))
        return false;
    } else if (auto *load = llvm::dyn_cast<llvm::LoadInst>(user)) {
      if (!access(use, offset, offset + int64_t(layout_.getTypeStoreSize(load->getType()))))
        return false;
    } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user)) {
      // Storing the address itself hands it on to whoever loads it.
      if (use.getOperandNo() != llvm::StoreInst::getPointerOperandIndex() ||
          !access(use, offset,
                  offset + int64_t(layout_.getTypeStoreSize(store->getValueOperand()->getType()))))
        return false;
    } else if (auto *call = llvm::dyn_cast<llvm::CallBase>(user)) {
      if (!callArgument(*call, use, offset))
        return false;
    } else {
      return false;   // compared, converted, merged in a phi: it may go anywhere
    }
  }
  return true;
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

bool split(llvm::AllocaInst &stack) {
  const llvm::DataLayout &layout = stack.getDataLayout();
  std::optional<llvm::TypeSize> size = stack.getAllocationSize(layout);
  if (!size || !stack.isStaticAlloca())
    return false;
  StackUses uses(layout, int64_t(size->getFixedValue()));
  if (!uses.collect(&stack, 0))
    return false;
  std::vector<Range> groups = groupsOf(uses.ranges);
  if (groups.size() < 2 && (groups.empty() || (groups[0].begin == 0 &&
                                               groups[0].end == int64_t(size->getFixedValue()))))
    return false;

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
                                            llvm::FunctionAnalysisManager &) {
  std::vector<llvm::AllocaInst *> stacks;
  for (llvm::Instruction &instruction : function.getEntryBlock())
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
      if (alloca->getMetadata(StackMetadataKind) || alloca->getMetadata(StackPartMetadataKind))
        stacks.push_back(alloca);
  bool changed = false;
  for (llvm::AllocaInst *stack : stacks)
    changed |= split(*stack);
  return preservedAfter(changed);
}

} // namespace hoist
