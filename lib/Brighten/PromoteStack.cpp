#include "Brighten/PromoteStack.h"

#include "Brighten/IntToPtrRewrite.h"
#include "Brighten/LocalFrame.h"
#include "Passes/Passes.h"
#include "Prototypes/LibraryPrototype.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/PatternMatch.h>

#include <set>
#include <vector>

namespace hoist {
namespace {

using namespace llvm::PatternMatch;

/// Bounds the walk through an address expression.
constexpr unsigned MaxAddressDepth = 8;

llvm::AllocaInst *findAlloca(llvm::Function &function, llvm::StringRef metadataKind) {
  for (llvm::Instruction &instruction : function.getEntryBlock())
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
      if (alloca->getMetadata(metadataKind))
        return alloca;
  return nullptr;
}

/// X such that `address` == ptrtoint(base) + X, emitted at `builder`; null if not found.
llvm::Value *offsetFromBase(llvm::Value *address, llvm::Value *base,
                             llvm::IRBuilder<> &builder, unsigned depth) {
  if (depth > MaxAddressDepth)
    return nullptr;
  llvm::Value *pointer = nullptr;
  if (match(address, m_PtrToInt(m_Value(pointer)))) {
    // ptrtoint of the base or of a constant offset into it (the entry RSP is one).
    const llvm::DataLayout &layout = builder.GetInsertBlock()->getDataLayout();
    llvm::APInt offset(64, 0);
    if (pointer->stripAndAccumulateConstantOffsets(layout, offset, true) != base)
      return nullptr;
    return builder.getInt(offset);
  }
  llvm::Value *left = nullptr, *right = nullptr;
  bool isAdd = match(address, m_Add(m_Value(left), m_Value(right))) ||
               match(address, m_DisjointOr(m_Value(left), m_Value(right)));
  if (isAdd) {
    if (llvm::Value *offset = offsetFromBase(left, base, builder, depth + 1))
      return builder.CreateAdd(offset, right);
    if (llvm::Value *offset = offsetFromBase(right, base, builder, depth + 1))
      return builder.CreateAdd(left, offset);
    return nullptr;
  }
  if (match(address, m_Sub(m_Value(left), m_Value(right))))
    if (llvm::Value *offset = offsetFromBase(left, base, builder, depth + 1))
      return builder.CreateSub(offset, right);
  return nullptr;
}

/// C such that `address` == ptrtoint(base) + C, or nullopt if not so or not constant.
std::optional<int64_t> constantOffsetFromBase(llvm::Value *address, llvm::Value *base,
                                              const llvm::DataLayout &layout, unsigned depth) {
  if (depth > MaxAddressDepth)
    return std::nullopt;
  llvm::Value *pointer = nullptr;
  if (match(address, m_PtrToInt(m_Value(pointer)))) {
    llvm::APInt offset(64, 0);
    if (pointer->stripAndAccumulateConstantOffsets(layout, offset, true) != base)
      return std::nullopt;
    return offset.getSExtValue();
  }
  llvm::Value *left = nullptr;
  const llvm::APInt *constant = nullptr;
  bool sub = match(address, m_Sub(m_Value(left), m_APInt(constant)));
  if (!sub && !match(address, m_Add(m_Value(left), m_APInt(constant))) &&
      !match(address, m_DisjointOr(m_Value(left), m_APInt(constant))))
    return std::nullopt;
  std::optional<int64_t> offset = constantOffsetFromBase(left, base, layout, depth + 1);
  if (!offset)
    return std::nullopt;
  return sub ? *offset - constant->getSExtValue() : *offset + constant->getSExtValue();
}

/// Gives `function` StackOutsideAttribute for an address `outside` bytes past the stack's top:
/// the lowest below it, so that a larger local stack (largerLocalStack) covers every one;
/// else the last found.
void markOutside(llvm::Function &function, int64_t outside) {
  llvm::Attribute marked = function.getFnAttribute(StackOutsideAttribute);
  int64_t before = 0;
  if (outside < 0 && marked.isValid() &&
      !marked.getValueAsString().getAsInteger(10, before) && before < outside)
    return;
  function.addFnAttr(StackOutsideAttribute, std::to_string(outside));
}

bool isAddressArithmetic(const llvm::User *user) {
  return match(user, m_Add(m_Value(), m_Value())) || match(user, m_Sub(m_Value(), m_Value())) ||
         match(user, m_DisjointOr(m_Value(), m_Value()));
}

/// Gives the caller's area the addresses above the stack's top that the function computes as
/// integers and hands on (stores, passes, walks in a loop) rather than dereferences right
/// away: a variadic function's `overflow_arg_area` (RSP+8 at entry), which va_arg advances
/// or vfprintf reads. On the machine the caller's frame lies right above the return address;
/// here it is another alloca, so an integer one past the stack's end would point at neither.
bool moveCallerAreaAddresses(llvm::Function &function, llvm::AllocaInst &stack,
                             llvm::AllocaInst *callerArea, int64_t stackBytes,
                             int64_t callerBytes) {
  const llvm::DataLayout &layout = function.getDataLayout();
  std::vector<std::pair<llvm::Instruction *, int64_t>> moved;
  for (llvm::Instruction &instruction : llvm::instructions(function)) {
    if (!instruction.getType()->isIntegerTy(64) || !isAddressArithmetic(&instruction))
      continue;
    // Only where the arithmetic ends: an intermediate sum past the top may come back down
    // into the stack, and the caller's area would then be the wrong object.
    if (llvm::any_of(instruction.users(), [](const llvm::User *user) {
          return isAddressArithmetic(user);
        }) ||
        llvm::all_of(instruction.users(),
                     [](const llvm::User *user) { return llvm::isa<llvm::IntToPtrInst>(user); }))
      continue;
    std::optional<int64_t> at = constantOffsetFromBase(&instruction, &stack, layout, 0);
    if (!at || *at < stackBytes)
      continue;
    // One past the end is an address too (a walk's bound).
    if (!callerArea || *at > stackBytes + callerBytes) {
      markOutside(function, *at - stackBytes);
      continue;
    }
    moved.emplace_back(&instruction, *at - stackBytes);
  }
  for (auto [instruction, at] : moved) {
    llvm::IRBuilder<> builder(instruction);
    llvm::Value *address = builder.CreatePtrToInt(
        builder.CreateConstGEP1_64(builder.getInt8Ty(), callerArea, at), builder.getInt64Ty());
    address->takeName(instruction);
    instruction->replaceAllUsesWith(address);
  }
  return !moved.empty();
}

/// Marks the function for the addresses below the stack's bottom that it computes, each
/// intermediate sum too: a frame larger than the local stack, whose buffer a loop walks from
/// an address no access adds a constant to (the access would be found by the rewrite).
void markAddressesBelow(llvm::Function &function, llvm::AllocaInst &stack, int64_t stackBytes) {
  const llvm::DataLayout &layout = function.getDataLayout();
  for (llvm::Instruction &instruction : llvm::instructions(function))
    if (instruction.getType()->isIntegerTy(64) && isAddressArithmetic(&instruction))
      if (std::optional<int64_t> at = constantOffsetFromBase(&instruction, &stack, layout, 0);
          at && *at < 0)
        markOutside(function, *at - stackBytes);
}

/// Whether `function` calls an import that returns a second time (setjmp, vfork).
bool callsReturnsTwice(const llvm::Function &function) {
  for (const llvm::Instruction &instruction : llvm::instructions(function)) {
    const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
    const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
    if (!callee)
      continue;
    llvm::Attribute import = callee->getFnAttribute("hoist-import");
    if (callee->hasFnAttribute(llvm::Attribute::ReturnsTwice) ||
        (import.isValid() && returnsTwice(import.getValueAsString())))
      return true;
  }
  return false;
}

/// Makes every access into the local stack volatile. After setjmp's second return (from a
/// longjmp), the machine code reads its frame from memory, which holds what was stored after
/// the first; promoted to SSA values, those slots would still hold what they held at the
/// first return. Volatile accesses keep the frame in memory, as the machine code keeps it.
bool keepFrameInMemory(llvm::AllocaInst &stack) {
  bool changed = false;
  std::vector<llvm::Value *> work{&stack};
  std::set<llvm::Value *> seen{&stack};
  while (!work.empty()) {
    llvm::Value *address = work.back();
    work.pop_back();
    for (llvm::User *user : address->users()) {
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(user)) {
        changed |= !load->isVolatile();
        load->setVolatile(true);
      } else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user)) {
        if (store->getPointerOperand() == address) {
          changed |= !store->isVolatile();
          store->setVolatile(true);
        }
      } else if (auto *intrinsic = llvm::dyn_cast<llvm::MemIntrinsic>(user)) {
        changed |= !intrinsic->isVolatile();
        intrinsic->setVolatile(llvm::ConstantInt::getTrue(intrinsic->getContext()));
      } else if (llvm::isa<llvm::GetElementPtrInst, llvm::PHINode, llvm::SelectInst>(user) &&
                 seen.insert(user).second) {
        work.push_back(user);
      }
    }
  }
  return changed;
}

} // namespace

llvm::PreservedAnalyses PromoteStackPass::run(llvm::Function &function,
                                              llvm::FunctionAnalysisManager &) {
  llvm::AllocaInst *stack = findAlloca(function, StackMetadataKind);
  llvm::AllocaInst *callerArea = findCallerArea(function);
  bool pointerArguments = llvm::any_of(
      function.args(), [](const llvm::Argument &argument) { return argument.getType()->isPointerTy(); });
  if (!stack && !pointerArguments)
    return llvm::PreservedAnalyses::all();
  const llvm::DataLayout &layout = function.getDataLayout();
  int64_t stackBytes = stack ? int64_t(stack->getAllocationSize(layout)->getFixedValue()) : 0;
  // Gone once SROA has promoted it (or nothing used it): an access found after that cannot
  // be given the value the caller passed.
  int64_t callerBytes =
      callerArea ? int64_t(callerArea->getAllocationSize(layout)->getFixedValue()) : 0;
  if (stack)
    markAddressesBelow(function, *stack, stackBytes);
  bool changed = stack && moveCallerAreaAddresses(function, *stack, callerArea, stackBytes,
                                                 callerBytes);
  changed |= rewriteIntToPtrs(
      function, [&](llvm::IntToPtrInst &cast, llvm::IRBuilder<> &builder) -> llvm::Value * {
        // An address computed from a pointer argument is a gep of it: a brightened
        // function's `ptr` parameters (the argument as an integer is its ptrtoint).
        for (llvm::Argument &argument : function.args())
          if (argument.getType()->isPointerTy())
            if (llvm::Value *offset =
                    offsetFromBase(cast.getOperand(0), &argument, builder, 0))
              return builder.CreateGEP(builder.getInt8Ty(), &argument, offset);
        llvm::Value *offset =
            stack ? offsetFromBase(cast.getOperand(0), stack, builder, 0) : nullptr;
        if (!offset)
          return nullptr;
        auto *constant = llvm::dyn_cast<llvm::ConstantInt>(offset);
        if (!constant)
          return builder.CreateGEP(builder.getInt8Ty(), stack, offset);
        // A constant offset past the stack's top is in the caller's area (the home area, a
        // stack argument), or beyond what a caller passes.
        int64_t at = constant->getSExtValue();
        if (at >= 0 && at < stackBytes)
          return builder.CreateGEP(builder.getInt8Ty(), stack, offset);
        if (at >= stackBytes && at < stackBytes + callerBytes)
          return builder.CreateConstGEP1_64(builder.getInt8Ty(), callerArea, at - stackBytes);
        markOutside(function, at - stackBytes);
        return nullptr;
      });
  if (stack && callsReturnsTwice(function))
    changed |= keepFrameInMemory(*stack);
  return preservedAfter(changed);
}

} // namespace hoist
