#include "Brighten/LocalFrame.h"

#include "Arch/StateLayout.h"
#include "Brighten/IndirectCalls.h"
#include "Brighten/MachineQueries.h"
#include "Brighten/PromoteStack.h"
#include "Brighten/StackBound.h"
#include "Brighten/VariadicCalls.h"
#include "Lift/Intrinsics.h"
#include "Support/Error.h"
#include "hoist/Lifter.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/MathExtras.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>

namespace hoist {
namespace {

constexpr const char *RetIntrinsicName = "__hoist_ret";
constexpr const char *TrapIntrinsicName = "__hoist_trap";
constexpr const char *JmpIntrinsicName = "__hoist_jmp";

/// The instruction's address: its !hoist.pc, else the address an intrinsic call passes.
std::string addressOf(const llvm::Instruction &instruction) {
  std::optional<uint64_t> address = pcMetadataOf(instruction);
  if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
      !address && call && call->arg_size() == 3)
    if (const auto *value = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(2)))
      address = value->getZExtValue();
  return address ? "0x" + llvm::utohexstr(*address, true) : "an unknown address";
}

bool calls(const llvm::CallBase &call, llvm::StringRef name) {
  const llvm::Function *callee = call.getCalledFunction();
  return callee && callee->getName() == name;
}

/// The intrinsics a brightened function expresses itself: ret (it returns), a fault, and a
/// jump whose target was not resolved (it must turn out unreachable: UnresolvedJumpMarker).
bool isHandledIntrinsic(const llvm::CallBase &call) {
  return calls(call, RetIntrinsicName) || calls(call, TrapIntrinsicName) ||
         calls(call, JmpIntrinsicName);
}

} // namespace

uint64_t pcOf(const llvm::Instruction &instruction) {
  for (const llvm::Instruction *at = &instruction; at; at = at->getPrevNode())
    if (std::optional<uint64_t> pc = pcMetadataOf(*at))
      return *pc;
  if (const llvm::BasicBlock *predecessor = instruction.getParent()->getSinglePredecessor())
    return pcMetadataOf(*predecessor->getTerminator()).value_or(0);
  return 0;
}

std::optional<std::string> whyNotBrightenable(
    const llvm::Function &lifted,
    llvm::function_ref<std::optional<std::string>(const llvm::CallBase &)> whyNotCallable) {
  if (lifted.arg_size() != 2)
    return std::string("is not a lifted function (state, mem)");
  for (const llvm::Instruction &instruction : llvm::instructions(lifted)) {
    const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
    if (!call || isHandledIntrinsic(*call) || isMachineQuery(*call))
      continue;
    const llvm::Function *callee = call->getCalledFunction();
    if (callee && callee->isIntrinsic())
      continue;
    if (!callee)
      return llvm::formatv("calls an indirect target at {0}", addressOf(instruction)).str();
    if (isUnresolvedCall(*call)) {
      if (std::optional<std::string> reason = whyNotCallable(*call))
        return llvm::formatv("calls through a pointer at {0}, which {1}", addressOf(instruction),
                             *reason)
            .str();
      continue;
    }
    if (callee->getName().starts_with("__hoist_"))
      return llvm::formatv("calls {0} at {1}: control the lifter did not resolve",
                           callee->getName(), addressOf(instruction))
          .str();
    if (std::optional<std::string> reason = whyNotCallable(*call))
      return llvm::formatv("calls {0} at {1}, which {2}", callee->getName(),
                           addressOf(instruction), *reason)
          .str();
  }
  const llvm::Argument *mem = lifted.getArg(1);
  for (const llvm::User *user : mem->users()) {
    auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(user);
    // Calls were screened above: each passes %mem on to a callee the flat copy rewrites.
    if (llvm::isa<llvm::CallBase>(user))
      continue;
    if (!gep || gep->getPointerOperand() != mem || gep->getNumIndices() != 1 ||
        !gep->getSourceElementType()->isIntegerTy(8))
      return llvm::formatv("uses the memory base other than as `gep i8, %mem, address`")
          .str();
  }
  return std::nullopt;
}

llvm::Function *makeFlatCopy(llvm::Function &lifted, const KnownCallees &callees,
                             CallingConvention convention, UnresolvedCallForm form) {
  llvm::ValueToValueMapTy map;
  llvm::Function *flat = llvm::CloneFunction(&lifted, map);
  flat->setName(lifted.getName() + ".flat");
  flat->setLinkage(llvm::GlobalValue::InternalLinkage);
  llvm::Argument *mem = flat->getArg(1);
  std::map<llvm::CallBase *, unsigned> unresolved;
  for (llvm::CallBase *call : unresolvedCalls(*flat))
    unresolved.emplace(call, unresolved.size());
  // RSP as the caller entered, at its return address: where the stack slots its calls pass
  // end (emitTypedCall), and where a jump is a tail call.
  llvm::IRBuilder<> entry(&*flat->getEntryBlock().getFirstInsertionPt());
  llvm::Value *entryRsp =
      entry.CreateLoad(entry.getInt64Ty(),
                       stateFieldPointer(entry, flat->getArg(0), HOIST_FIELD_RSP), "entry.rsp");
  llvm::SmallVector<llvm::Instruction *> users;
  for (llvm::User *user : mem->users())
    users.push_back(llvm::cast<llvm::Instruction>(user));
  // A path that must turn out dead (UnresolvedJumpMarker), at the call's address.
  auto markUnresolved = [flat](llvm::CallBase &call, llvm::Instruction *at = nullptr) {
    llvm::IRBuilder<> builder(at ? at : &call);
    builder.CreateCall(unresolvedJumpMarker(*flat->getParent()), {builder.getInt64(pcOf(call))})
        ->copyMetadata(call);
  };
  // An unresolved jump with RSP at the return address may be a tail call through a pointer
  // (`jmp *hook(%rip)`), which the code-pointer map tells from a jump into the function's own
  // code (which traps there); with any other RSP it is a jump the path must not reach.
  auto tailCallOrMarker = [&](llvm::CallBase &call) {
    llvm::IRBuilder<> builder(&call);
    llvm::Value *rsp = builder.CreateLoad(
        builder.getInt64Ty(), stateFieldPointer(builder, call.getArgOperand(0), HOIST_FIELD_RSP));
    llvm::Instruction *tail = nullptr, *other = nullptr;
    llvm::SplitBlockAndInsertIfThenElse(builder.CreateICmpEQ(rsp, entryRsp), &call, &tail,
                                        &other);
    emitPointerCall(call, entryRsp, tail);
    markUnresolved(call, other);
  };
  for (llvm::Instruction *user : users) {
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(user)) {
      // A fault (divide error, ud2) stops the program as the original's would, by a trap
      // instead of the CPU's exception. After ret the return check reads State.RIP. A call
      // that was never to return, returning, traps too: the machine code would run into
      // whatever follows the function. So does an index past a jump table whose end was
      // inferred from its entries: the machine code would jump to what it loads past them,
      // which is no instruction of the function (the trap keeps the metadata, and
      // brightening warns where it stays: warnOfTableEnds).
      if (calls(*call, TrapIntrinsicName) ||
          (calls(*call, JmpIntrinsicName) && (call->getMetadata(AfterNoReturnCallMetadata) ||
                                              call->getMetadata(TableEndMetadata)))) {
        auto *trap = llvm::CallInst::Create(
            llvm::Intrinsic::getDeclaration(flat->getParent(), llvm::Intrinsic::trap), "", call);
        trap->copyMetadata(*call);
      } else if (calls(*call, JmpIntrinsicName)) {
        // A return check that fails or a jump table's default: with State.RIP not the
        // sentinel, the brightened function traps after the body. The marker says whether
        // the optimizer proved the path dead.
        if (form == UnresolvedCallForm::ThroughPointer && convention == CallingConvention::SysV)
          tailCallOrMarker(*call);
        else
          markUnresolved(*call);
      } else if (auto known = callees.find(call->getCalledFunction());
                 known != callees.end() && known->second.signatureAt(*call)) {
        emitTypedCall(*call, known->second, convention, entryRsp);
      } else if (known != callees.end() && known->second.variadic) {
        // A variadic call its caller's probe did not report (VariadicCalls.h): in SysV it
        // passes everything a callee may read; in Win64 it must be on a path the probe found
        // dead, which must stay dead, like an unresolved jump's.
        std::optional<std::variant<Signature, std::string>> everything;
        if (convention == CallingConvention::SysV)
          everything = everyArgumentCall(known->second.signature, convention);
        if (const auto *signature = everything ? std::get_if<Signature>(&*everything) : nullptr) {
          KnownCallee site = known->second;
          site.callSites[pcOf(*call)] = *signature;
          emitTypedCall(*call, site, convention, entryRsp);
        } else {
          markUnresolved(*call);
        }
      } else if (isMachineQuery(*call)) {
        expandMachineQuery(*call);
      } else if (auto ordinal = unresolved.find(call); ordinal != unresolved.end()) {
        if (form == UnresolvedCallForm::Modeled)
          emitUnresolvedCallModel(*call, ordinal->second);
        else
          emitPointerCall(*call, entryRsp);
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

namespace {

/// The keeper reads the area through a pointer it does not capture: loads from the area
/// still forward from the stores, and no other call can write it.
llvm::FunctionCallee callerAreaKeeper(llvm::Module &module) {
  llvm::LLVMContext &context = module.getContext();
  llvm::FunctionCallee keeper = module.getOrInsertFunction(
      CallerAreaKeeper, llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                                {llvm::PointerType::getUnqual(context)}, false));
  if (auto *function = llvm::dyn_cast<llvm::Function>(keeper.getCallee())) {
    // Writing memory nobody else sees keeps the call (and so the area) from being deleted.
    function->setMemoryEffects(
        llvm::MemoryEffects::argMemOnly(llvm::ModRefInfo::Ref) |
        llvm::MemoryEffects::inaccessibleMemOnly(llvm::ModRefInfo::ModRef));
    function->addParamAttr(0, llvm::Attribute::NoCapture);
    function->addParamAttr(0, llvm::Attribute::ReadOnly);
    function->addFnAttr(llvm::Attribute::NoUnwind);
    function->addFnAttr(llvm::Attribute::WillReturn);
  }
  return keeper;
}

} // namespace

llvm::FunctionCallee declareMarker(llvm::Module &module, llvm::StringRef name,
                                   unsigned integerParameters) {
  llvm::LLVMContext &context = module.getContext();
  std::vector<llvm::Type *> parameters(integerParameters, llvm::Type::getInt64Ty(context));
  llvm::FunctionCallee marker = module.getOrInsertFunction(
      name, llvm::FunctionType::get(llvm::Type::getVoidTy(context), parameters, false));
  if (auto *function = llvm::dyn_cast<llvm::Function>(marker.getCallee())) {
    // Not removable where reachable, removable where not: it touches only its own memory.
    function->setMemoryEffects(llvm::MemoryEffects::inaccessibleMemOnly());
    function->addFnAttr(llvm::Attribute::NoUnwind);
    function->addFnAttr(llvm::Attribute::WillReturn);
  }
  return marker;
}

llvm::FunctionCallee unresolvedJumpMarker(llvm::Module &module) {
  return declareMarker(module, UnresolvedJumpMarker, 1);
}

void replaceUnresolvedJumpMarkers(llvm::Module &module) {
  llvm::Function *marker = module.getFunction(UnresolvedJumpMarker);
  if (!marker)
    return;
  for (llvm::User *user : llvm::make_early_inc_range(marker->users())) {
    auto *call = llvm::cast<llvm::CallInst>(user);
    llvm::IRBuilder<> builder(call);
    builder.CreateIntrinsic(llvm::Intrinsic::trap, {}, {});
    call->eraseFromParent();
  }
  marker->eraseFromParent();
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
                                                      llvm::ArrayRef<llvm::Value *> stackArguments,
                                                      CallingConvention convention) {
  llvm::LLVMContext &context = builder.getContext();
  llvm::AllocaInst *state = builder.CreateAlloca(getStateType(context), nullptr, "state");
  uint64_t stackBytes = localStackBytes(flat);
  llvm::AllocaInst *stack = builder.CreateAlloca(
      llvm::ArrayType::get(builder.getInt8Ty(), stackBytes), nullptr, "stack");
  stack->setAlignment(llvm::Align(16));
  stack->setMetadata(StackMetadataKind, llvm::MDNode::get(context, {}));
  // The caller's part of the frame, above the return address: Win64's home area and the stack
  // arguments. Apart from the stack, so that a local array passed to a library call (which
  // captures the stack) does not keep the arguments in memory.
  llvm::AllocaInst *callerArea = builder.CreateAlloca(
      llvm::ArrayType::get(builder.getInt8Ty(), callerAreaBytes(convention)), nullptr, "args");
  callerArea->setAlignment(llvm::Align(16));
  callerArea->setMetadata(CallerAreaMetadataKind, llvm::MDNode::get(context, {}));

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

  // The return address at the top of the local stack, right below the caller's area, so that
  // RSP is 8 modulo 16 at entry as after a real call.
  uint64_t returnSlot = stackBytes - 8;
  for (auto [index, argument] : llvm::enumerate(stackArguments))
    builder.CreateStore(argument, builder.CreateConstInBoundsGEP1_64(
                                      builder.getInt8Ty(), callerArea,
                                      stackArgumentOffset(index, convention) - 8));
  // Kept also where no path returns: a noreturn variadic function (sed's `panic`) hands the
  // area to vfprintf, through an address PromoteStack finds only once the area would be gone.
  builder.CreateCall(callerAreaKeeper(*builder.GetInsertBlock()->getModule()), {callerArea});
  llvm::Value *slot = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), stack, returnSlot);
  builder.CreateStore(builder.getInt64(ReturnSentinel), slot);
  llvm::Value *entryRsp = builder.CreatePtrToInt(slot, builder.getInt64Ty(), "rsp.entry");
  builder.CreateStore(entryRsp, stateFieldPointer(builder, state, HOIST_FIELD_RSP));

  llvm::CallInst *call = builder.CreateCall(
      &flat, {state, llvm::ConstantPointerNull::get(builder.getPtrTy())});
  // The builder appends, so the call ends its block: the blocks after it are created here,
  // not split off: splitBasicBlock at a block's end (or of a block without a terminator, both
  // asserted in LLVM's debug builds) reads the debug location of the list's sentinel, which is
  // no instruction, and its branch carried a garbage !dbg the verifier rejects.
  llvm::BasicBlock *callBlock = call->getParent();
  if (std::next(call->getIterator()) != callBlock->end())
    return makeError("{0}: the local frame's call must end its block", flat.getName());
  llvm::Function *function = callBlock->getParent();
  auto *afterCall =
      llvm::BasicBlock::Create(context, "returned", function, callBlock->getNextNode());
  auto *continued =
      llvm::BasicBlock::Create(context, "checked", function, afterCall->getNextNode());
  llvm::BranchInst::Create(afterCall, callBlock);
  llvm::InlineFunctionInfo info;
  llvm::InlineResult inlined = llvm::InlineFunction(*call, info);
  if (!inlined.isSuccess())
    return makeError("{0}: cannot inline into the brightened function: {1}", flat.getName(),
                     inlined.getFailureReason());

  boundStackGrowth(*function, *entryRsp, returnSlot);

  // Returning anywhere but to the sentinel is a control transfer this function cannot express.
  builder.SetInsertPoint(afterCall);
  llvm::Value *rip = builder.CreateLoad(builder.getInt64Ty(),
                                        stateFieldPointer(builder, state, HOIST_FIELD_RIP));
  llvm::BasicBlock *elsewhere = llvm::BasicBlock::Create(context, "returned.elsewhere", function);
  builder.CreateCondBr(builder.CreateICmpEQ(rip, builder.getInt64(ReturnSentinel)), continued,
                       elsewhere);
  builder.SetInsertPoint(elsewhere);
  // Marked like an unresolved jump, so that a probe where this path survives optimization
  // declines the function instead of brightening it into a trap.
  builder.CreateCall(unresolvedJumpMarker(*function->getParent()),
                     {builder.getInt64(ReturnedElsewhere)});
  builder.CreateIntrinsic(llvm::Intrinsic::trap, {}, {});
  builder.CreateUnreachable();
  builder.SetInsertPoint(continued, continued->begin());
  builder.CreateCall(callerAreaKeeper(*function->getParent()), {callerArea});
  return state;
}

uint64_t localStackBytes(const llvm::Function &flat) {
  llvm::Attribute bytes = flat.getFnAttribute(LocalStackBytesAttribute);
  uint64_t size = LocalStackBytes;
  if (bytes.isValid())
    bytes.getValueAsString().getAsInteger(10, size);
  return size;
}

std::optional<uint64_t> largerLocalStack(const llvm::Function &probe, uint64_t current) {
  llvm::Attribute outside = probe.getFnAttribute(StackOutsideAttribute);
  int64_t offset = 0;
  if (outside.isValid() && outside.getValueAsString().getAsInteger(10, offset))
    offset = 0;
  // RSP moved past the bottom by a constant, with no access found there (StackBound.h).
  if (std::optional<int64_t> moved = lowestConstantStackMove(probe))
    offset = std::min(offset, *moved);
  if (offset >= 0 || uint64_t(-offset) > MaxLocalStackBytes)
    return std::nullopt;
  // The offset is from the top, where the return address is: a stack that large reaches it.
  uint64_t size = llvm::alignTo(uint64_t(-offset), LocalStackBytes);
  if (size <= current)
    return std::nullopt;
  return size;
}

llvm::AllocaInst *findCallerArea(llvm::Function &function) {
  for (llvm::Instruction &instruction : function.getEntryBlock())
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
      if (alloca->getMetadata(CallerAreaMetadataKind))
        return alloca;
  return nullptr;
}

void releaseCallerAreas(llvm::Module &module) {
  llvm::Function *keeper = module.getFunction(CallerAreaKeeper);
  if (!keeper)
    return;
  for (llvm::User *user : llvm::make_early_inc_range(keeper->users()))
    llvm::cast<llvm::Instruction>(user)->eraseFromParent();
  keeper->eraseFromParent();
}

} // namespace hoist
