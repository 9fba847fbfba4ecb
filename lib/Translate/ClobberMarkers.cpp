#include "Translate/ClobberMarkers.h"

#include "Arch/StateLayout.h"
#include "Translate/StatePointers.h"

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Local.h>

#include <set>

namespace hoist {
namespace {

constexpr llvm::StringLiteral MarkerPrefix = "hoist.clobbered.";

/// `T hoist.clobbered.T(i32 register)`: reads and writes no memory, so it moves and merges
/// freely, but LLVM cannot know its value, so a store of it is a real write until
/// removeClobberMarkers. Each register has its own marker: with one value for all, MemCpyOpt
/// merges the stores into adjacent flags into a memset that removeClobberMarkers would not see.
llvm::Value *marker(llvm::IRBuilder<> &ir, llvm::Type *type, unsigned reg) {
  llvm::Module &module = *ir.GetInsertBlock()->getModule();
  std::string name;
  llvm::raw_string_ostream(name) << MarkerPrefix << *type;
  llvm::FunctionCallee callee =
      module.getOrInsertFunction(name, llvm::FunctionType::get(type, {ir.getInt32Ty()}, false));
  auto *function = llvm::cast<llvm::Function>(callee.getCallee());
  function->setDoesNotAccessMemory();
  function->setDoesNotThrow();
  function->setWillReturn();
  return ir.CreateCall(callee, {ir.getInt32(reg)}, "clobbered");
}

bool isMarker(const llvm::Function &function) {
  return function.isDeclaration() && function.getName().starts_with(MarkerPrefix);
}

/// The values every bit of which is a bit of `marker`: it, and what moves its bits without
/// adding any (bitcasts, truncations, elements extracted, a right shift by a constant followed
/// by a truncation to the bits shifted down). The x87 and vector markers are read back that
/// way, one register at a time (`trunc (lshr (bitcast <16 x i64> %clobbered to i1024), 128)`).
std::vector<llvm::Instruction *> copiesOfMarker(llvm::CallInst &marker) {
  std::vector<llvm::Instruction *> copies{&marker};
  std::set<llvm::Instruction *> seen{&marker};
  auto add = [&](llvm::Instruction *copy) {
    if (seen.insert(copy).second)
      copies.push_back(copy);
  };
  for (size_t next = 0; next < copies.size(); ++next) {
    llvm::Instruction *value = copies[next];
    for (llvm::User *user : value->users()) {
      auto *instruction = llvm::dyn_cast<llvm::Instruction>(user);
      if (!instruction)
        continue;
      if (llvm::isa<llvm::BitCastInst, llvm::TruncInst>(instruction) ||
          (llvm::isa<llvm::ExtractElementInst>(instruction) &&
           instruction->getOperand(0) == value)) {
        add(instruction);
        continue;
      }
      auto *shift = llvm::dyn_cast<llvm::BinaryOperator>(instruction);
      auto *amount = shift ? llvm::dyn_cast<llvm::ConstantInt>(shift->getOperand(1)) : nullptr;
      if (!amount || shift->getOpcode() != llvm::Instruction::LShr ||
          shift->getOperand(0) != value)
        continue;
      // The shift brings in zeros above the marker's bits; a truncation drops them.
      uint64_t width = shift->getType()->getIntegerBitWidth();
      for (llvm::User *shiftUser : shift->users())
        if (auto *trunc = llvm::dyn_cast<llvm::TruncInst>(shiftUser);
            trunc && amount->getLimitedValue(width) + trunc->getType()->getIntegerBitWidth() <=
                         width)
          add(trunc);
    }
  }
  return copies;
}

/// After the markers went: a phi of nothing but undefined values is undefined, and a store of
/// an undefined value into State is a store of an undefined register, which may as well leave
/// the older value (as an erased marker store does). So a register written back after one
/// path reached a library call and another left it as it was (write_line in sort: the x87
/// registers after fwrite on one path, untouched on the other) costs no store on either.
void dropUndefinedStateStores(llvm::Function &function) {
  const llvm::DataLayout &layout = function.getParent()->getDataLayout();
  for (bool changed = true; changed;) {
    changed = false;
    for (llvm::BasicBlock &block : function)
      for (llvm::PHINode &phi : llvm::make_early_inc_range(block.phis()))
        if (llvm::all_of(phi.incoming_values(), [&](llvm::Value *incoming) {
              return llvm::isa<llvm::UndefValue>(incoming) || incoming == &phi;
            })) {
          phi.replaceAllUsesWith(llvm::UndefValue::get(phi.getType()));
          phi.eraseFromParent();
          changed = true;
        }
  }
  if (function.arg_empty())
    return;
  for (llvm::Instruction &instruction : llvm::make_early_inc_range(llvm::instructions(function)))
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
        store && !store->isVolatile() && llvm::isa<llvm::UndefValue>(store->getValueOperand()) &&
        locateInState(store->getPointerOperand(), function.getArg(0), layout).kind ==
            StateLocation::Field)
      store->eraseFromParent();
}

} // namespace

bool isClobberMarker(const llvm::Value *value) {
  auto *call = llvm::dyn_cast<llvm::CallInst>(value);
  return call && call->getCalledFunction() && isMarker(*call->getCalledFunction());
}

void storeClobberMarkers(llvm::IRBuilder<> &ir, llvm::Value *state) {
  llvm::StructType *type = getStateType(ir.getContext());
  const llvm::DataLayout &layout = ir.GetInsertBlock()->getModule()->getDataLayout();
  for (HoistStateField field : callerSavedFields()) {
    if (field == HOIST_FIELD_RAX || field == HOIST_FIELD_RDX)
      continue;   // the import body stores the results there next
    llvm::Type *fieldType = type->getElementType(field);
    // An array (the 16 vector, the 8 x87 registers) is overwritten by one vector store: fewer
    // stores keep the callers' inline cost and DSE's walks short.
    if (fieldType->isArrayTy())
      fieldType = llvm::FixedVectorType::get(ir.getInt64Ty(),
                                             layout.getTypeAllocSize(fieldType) / 8);
    ir.CreateAlignedStore(marker(ir, fieldType, field), ir.CreateStructGEP(type, state, field),
                          llvm::Align(8));
  }
}

void storeClobberMarker(llvm::IRBuilder<> &ir, llvm::Value *pointer, llvm::Type *type,
                        unsigned id) {
  ir.CreateAlignedStore(marker(ir, type, id), pointer, llvm::Align(8));
}

uint64_t removeClobberMarkers(llvm::Module &module) {
  uint64_t erased = 0;
  std::set<llvm::Function *> changed;
  for (llvm::Function &function : llvm::make_early_inc_range(module)) {
    if (!isMarker(function))
      continue;
    for (llvm::User *user : llvm::make_early_inc_range(function.users())) {
      auto *call = llvm::cast<llvm::CallInst>(user);
      for (llvm::User *use : llvm::make_early_inc_range(call->users()))
        if (auto *store = llvm::dyn_cast<llvm::StoreInst>(use);
            store && store->getValueOperand() == call) {
          store->eraseFromParent();
          ++erased;
        }
      if (call->use_empty()) {
        call->eraseFromParent();
        continue;
      }
      changed.insert(call->getFunction());
      // Copies of an x87 or vector marker become undef themselves; an integer marker is a
      // frozen poison, one arbitrary value for all its uses.
      std::vector<llvm::Instruction *> copies = copiesOfMarker(*call);
      for (llvm::Instruction *copy : llvm::drop_begin(copies))
        if (!copy->getType()->isIntegerTy())
          copy->replaceAllUsesWith(llvm::UndefValue::get(copy->getType()));
      llvm::Type *type = call->getType();
      call->replaceAllUsesWith(
          type->isIntegerTy()
              ? static_cast<llvm::Value *>(
                    new llvm::FreezeInst(llvm::PoisonValue::get(type), "clobbered", call))
              : llvm::UndefValue::get(type));
      call->eraseFromParent();
      llvm::SmallVector<llvm::WeakTrackingVH> unused(llvm::drop_begin(copies));
      llvm::RecursivelyDeleteTriviallyDeadInstructionsPermissive(unused);
    }
    function.eraseFromParent();
  }
  for (llvm::Function *function : changed)
    dropUndefinedStateStores(*function);
  return erased;
}

} // namespace hoist
