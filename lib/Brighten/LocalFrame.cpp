#include "Brighten/LocalFrame.h"

#include "Arch/StateLayout.h"
#include "Support/Error.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/Transforms/Utils/Cloning.h>

namespace hoist {
namespace {

constexpr const char *RetIntrinsicName = "__hoist_ret";
constexpr const char *TrapIntrinsicName = "__hoist_trap";

/// The instruction's address: its !hoist.pc, else the address an intrinsic call passes.
std::string addressOf(const llvm::Instruction &instruction) {
  const llvm::ConstantInt *value = nullptr;
  if (llvm::MDNode *pc = instruction.getMetadata("hoist.pc"))
    value = llvm::mdconst::dyn_extract<llvm::ConstantInt>(pc->getOperand(0));
  if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
      !value && call && call->arg_size() == 3)
    value = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(2));
  return value ? "0x" + llvm::utohexstr(value->getZExtValue(), true) : "an unknown address";
}

bool calls(const llvm::CallBase &call, llvm::StringRef name) {
  const llvm::Function *callee = call.getCalledFunction();
  return callee && callee->getName() == name;
}

/// The intrinsics a brightened function expresses itself: ret (it returns) and a fault.
bool isHandledIntrinsic(const llvm::CallBase &call) {
  return calls(call, RetIntrinsicName) || calls(call, TrapIntrinsicName);
}

} // namespace

std::optional<std::string> whyNotBrightenable(const llvm::Function &lifted) {
  if (lifted.arg_size() != 2)
    return std::string("is not a lifted function (state, mem)");
  for (const llvm::Instruction &instruction : llvm::instructions(lifted)) {
    const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
    if (!call || isHandledIntrinsic(*call))
      continue;
    const llvm::Function *callee = call->getCalledFunction();
    if (callee && callee->isIntrinsic())
      continue;
    std::string target = callee ? callee->getName().str() : "an indirect target";
    return llvm::formatv("calls {0} at {1}: only leaf functions that leave through ret are in "
                         "this slice",
                         target, addressOf(instruction))
        .str();
  }
  const llvm::Argument *mem = lifted.getArg(1);
  for (const llvm::User *user : mem->users()) {
    auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(user);
    if (const auto *call = llvm::dyn_cast<llvm::CallBase>(user); call && isHandledIntrinsic(*call))
      continue;
    if (!gep || gep->getPointerOperand() != mem || gep->getNumIndices() != 1 ||
        !gep->getSourceElementType()->isIntegerTy(8))
      return llvm::formatv("uses the memory base other than as `gep i8, %mem, address`")
          .str();
  }
  return std::nullopt;
}

llvm::Function *makeFlatCopy(llvm::Function &lifted) {
  llvm::ValueToValueMapTy map;
  llvm::Function *flat = llvm::CloneFunction(&lifted, map);
  flat->setName(lifted.getName() + ".flat");
  flat->setLinkage(llvm::GlobalValue::InternalLinkage);
  llvm::Argument *mem = flat->getArg(1);
  llvm::SmallVector<llvm::Instruction *> users;
  for (llvm::User *user : mem->users())
    users.push_back(llvm::cast<llvm::Instruction>(user));
  for (llvm::Instruction *user : users) {
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(user)) {
      // A fault (divide error, ud2) stops the program as the original's would, by a trap
      // instead of the CPU's exception. After ret the return check reads State.RIP.
      if (calls(*call, TrapIntrinsicName)) {
        auto *trap = llvm::CallInst::Create(
            llvm::Intrinsic::getDeclaration(flat->getParent(), llvm::Intrinsic::trap), "", call);
        trap->copyMetadata(*call);
      }
      call->eraseFromParent();
      continue;
    }
    auto *gep = llvm::cast<llvm::GetElementPtrInst>(user);
    auto *pointer = new llvm::IntToPtrInst(gep->getOperand(1), gep->getType(), "", gep);
    pointer->takeName(gep);
    pointer->copyMetadata(*gep);
    gep->replaceAllUsesWith(pointer);
    gep->eraseFromParent();
  }
  return flat;
}

llvm::Value *stateFieldPointer(llvm::IRBuilder<> &builder, llvm::Value *state,
                               HoistStateField field, unsigned element) {
  llvm::StructType *stateType = getStateType(builder.getContext());
  if (stateField(field).count > 1)
    return builder.CreateInBoundsGEP(
        stateType, state,
        {builder.getInt32(0), builder.getInt32(field), builder.getInt32(element)});
  return builder.CreateStructGEP(stateType, state, field);
}

llvm::Expected<llvm::AllocaInst *> emitLocalFrameCall(llvm::IRBuilder<> &builder,
                                                      llvm::Function &flat,
                                                      llvm::ArrayRef<RegisterInput> inputs,
                                                      CallingConvention convention) {
  llvm::LLVMContext &context = builder.getContext();
  llvm::AllocaInst *state = builder.CreateAlloca(getStateType(context), nullptr, "state");
  llvm::AllocaInst *stack = builder.CreateAlloca(
      llvm::ArrayType::get(builder.getInt8Ty(), LocalStackBytes), nullptr, "stack");
  stack->setAlignment(llvm::Align(16));
  stack->setMetadata(StackMetadataKind, llvm::MDNode::get(context, {}));

  for (const RegisterInput &input : inputs)
    builder.CreateStore(input.value,
                        stateFieldPointer(builder, state, input.field, input.element));
  // SysV ABI 3.2.1 and the Microsoft x64 ABI: DF is clear at a call; MXCSR and the x87 control
  // word hold their defaults (callee-saved control bits nobody changed).
  builder.CreateStore(builder.getInt8(0), stateFieldPointer(builder, state, HOIST_FIELD_DF));
  builder.CreateStore(builder.getInt32(0x1f80),
                      stateFieldPointer(builder, state, HOIST_FIELD_MXCSR));
  builder.CreateStore(builder.getInt16(0x037f),
                      stateFieldPointer(builder, state, HOIST_FIELD_FPU_CW));
  builder.CreateStore(builder.getInt16(0), stateFieldPointer(builder, state, HOIST_FIELD_FPU_SW));
  builder.CreateStore(builder.getInt16(0), stateFieldPointer(builder, state, HOIST_FIELD_FPU_TW));

  // The return address at the top of the local stack, below the callee's home area, so that
  // RSP is 8 modulo 16 at entry as after a real call.
  uint64_t returnSlot = LocalStackBytes - homeAreaBytes(convention) - 8;
  llvm::Value *slot = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), stack, returnSlot);
  builder.CreateStore(builder.getInt64(ReturnSentinel), slot);
  builder.CreateStore(builder.CreatePtrToInt(slot, builder.getInt64Ty(), "rsp.entry"),
                      stateFieldPointer(builder, state, HOIST_FIELD_RSP));

  llvm::CallInst *call = builder.CreateCall(
      &flat, {state, llvm::ConstantPointerNull::get(builder.getPtrTy())});
  llvm::BasicBlock *afterCall =
      call->getParent()->splitBasicBlock(std::next(call->getIterator()), "returned");
  llvm::InlineFunctionInfo info;
  llvm::InlineResult inlined = llvm::InlineFunction(*call, info);
  if (!inlined.isSuccess())
    return makeError("{0}: cannot inline into the brightened function: {1}", flat.getName(),
                     inlined.getFailureReason());

  // Returning anywhere but to the sentinel is a control transfer this function cannot express.
  llvm::Function *function = afterCall->getParent();
  llvm::BasicBlock *continued = afterCall->splitBasicBlock(afterCall->begin(), "checked");
  afterCall->getTerminator()->eraseFromParent();
  builder.SetInsertPoint(afterCall);
  llvm::Value *rip = builder.CreateLoad(builder.getInt64Ty(),
                                        stateFieldPointer(builder, state, HOIST_FIELD_RIP));
  llvm::BasicBlock *elsewhere = llvm::BasicBlock::Create(context, "returned.elsewhere", function);
  builder.CreateCondBr(builder.CreateICmpEQ(rip, builder.getInt64(ReturnSentinel)), continued,
                       elsewhere);
  builder.SetInsertPoint(elsewhere);
  builder.CreateIntrinsic(llvm::Intrinsic::trap, {}, {});
  builder.CreateUnreachable();
  builder.SetInsertPoint(continued, continued->begin());
  return state;
}

} // namespace hoist
