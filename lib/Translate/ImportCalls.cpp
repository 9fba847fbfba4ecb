#include "Translate/ImportCalls.h"

#include "Arch/StateLayout.h"
#include "Discover/NoReturn.h"
#include "Translate/ClobberMarkers.h"
#include "Translate/ImportShapes.h"
#include "Translate/NonlocalJumps.h"
#include "hoist/Lifter.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/MDBuilder.h>

#include <map>

namespace hoist {
namespace {

constexpr unsigned ArgumentRegisters = 6;     // rdi, rsi, rdx, rcx, r8, r9
constexpr unsigned VectorArguments = 8;       // xmm0..xmm7
/// runtime/Runtime.h's HoistNativeFrame, which hoist_native_call reads and writes.
constexpr unsigned FrameSize = 216, FrameRax = 48, FrameRdx = 56, FrameXmm = 64,
                   FrameSt0Valid = 208;

const HoistStateField IntegerArguments[ArgumentRegisters] = {
    HOIST_FIELD_RDI, HOIST_FIELD_RSI, HOIST_FIELD_RDX,
    HOIST_FIELD_RCX, HOIST_FIELD_R8,  HOIST_FIELD_R9};

/// Reads and writes the State fields an import call uses.
class StateAccess {
public:
  StateAccess(llvm::IRBuilder<> &ir, llvm::Value *state)
      : ir_(ir), state_(state), type_(getStateType(ir.getContext())) {}

  llvm::Value *field(HoistStateField field) {
    return ir_.CreateStructGEP(type_, state_, field);
  }
  llvm::Value *load(HoistStateField name) { return ir_.CreateLoad(ir_.getInt64Ty(), field(name)); }
  void store(HoistStateField name, llvm::Value *value) { ir_.CreateStore(value, field(name)); }
  /// What the native call just made did to the caller-saved registers (ClobberMarkers.h); the
  /// results are stored after it.
  void clobberCallerSaved() { storeClobberMarkers(ir_, state_); }

  /// YMM[i] as the lifter reads it (<4 x i64>).
  llvm::Value *ymmField(unsigned i) {
    return ir_.CreateConstInBoundsGEP2_32(type_->getElementType(HOIST_FIELD_YMM),
                                          field(HOIST_FIELD_YMM), 0, i);
  }
  llvm::Value *loadXmm(unsigned i) {
    llvm::Value *ymm = ir_.CreateAlignedLoad(wide(), ymmField(i), FieldAlignment);
    return ir_.CreateShuffleVector(ymm, {0, 1});
  }
  /// XMMi = value, the upper half of YMMi zero: a native callee leaves it undefined (the
  /// convention makes every vector register caller-saved), and writing it whole, without
  /// reading the old value, lets ClobberedStateStores drop the writeback before the call.
  void storeXmm(unsigned i, llvm::Value *value) {
    llvm::Value *zero = llvm::Constant::getNullValue(value->getType());
    ir_.CreateAlignedStore(ir_.CreateShuffleVector(value, zero, {0, 1, 2, 3}), ymmField(i),
                           FieldAlignment);
  }

private:
  /// State's fields are 8-byte aligned (a V256 is [4 x i64]), less than <4 x i64> asks for.
  const llvm::Align FieldAlignment{8};

  llvm::Type *wide() { return llvm::FixedVectorType::get(ir_.getInt64Ty(), 4); }

  llvm::IRBuilder<> &ir_;
  llvm::Value *state_;
  llvm::StructType *type_;
};

/// The program's memory at `address`, addressed as lifted code addresses it: from the memory
/// argument (null at run time), so that alias analysis relates the two.
llvm::Value *guestPointer(llvm::IRBuilder<> &ir, llvm::Value *memory, llvm::Value *address) {
  return ir.CreateGEP(ir.getInt8Ty(), memory, address);
}

llvm::Type *xmmType(llvm::LLVMContext &context) {
  return llvm::FixedVectorType::get(llvm::Type::getInt64Ty(context), 2);
}

/// A native call of `function` with the argument registers (and for Float the vector ones)
/// as direct arguments; writes back rax, rdx (and xmm0, xmm1). The integer registers are
/// passed as pointers into the program's memory (a pointer and an i64 travel alike in a
/// register): the library may read and write that memory, and the optimizer must know it.
/// Registers from `integerArguments` on are passed undefined (ImportShapes.h).
void emitRegisterCall(llvm::IRBuilder<> &ir, StateAccess &state, llvm::Value *memory,
                      llvm::Value *function, bool withVectors, unsigned integerArguments) {
  llvm::LLVMContext &context = ir.getContext();
  std::vector<llvm::Type *> parameters(ArgumentRegisters, ir.getPtrTy());
  std::vector<llvm::Value *> arguments;
  for (HoistStateField field : IntegerArguments)
    arguments.push_back(arguments.size() < integerArguments
                            ? guestPointer(ir, memory, state.load(field))
                            : llvm::PoisonValue::get(ir.getPtrTy()));
  std::vector<llvm::Type *> results{ir.getInt64Ty(), ir.getInt64Ty()};
  if (withVectors) {
    for (unsigned i = 0; i < VectorArguments; ++i) {
      parameters.push_back(xmmType(context));
      arguments.push_back(state.loadXmm(i));
    }
    results.push_back(xmmType(context));
    results.push_back(xmmType(context));
  }
  // A struct result is returned in rax, rdx, then xmm0, xmm1 (LLVM's x86-64 return rules).
  auto *type = llvm::FunctionType::get(llvm::StructType::get(context, results), parameters,
                                       false);
  llvm::Value *result = ir.CreateCall(type, function, arguments);
  state.clobberCallerSaved();
  state.store(HOIST_FIELD_RAX, ir.CreateExtractValue(result, 0));
  state.store(HOIST_FIELD_RDX, ir.CreateExtractValue(result, 1));
  if (withVectors) {
    state.storeXmm(0, ir.CreateExtractValue(result, 2));
    state.storeXmm(1, ir.CreateExtractValue(result, 3));
  }
}

/// XMMi as a call passes it: for a variadic callee, only when al (the call's upper bound on
/// the vector registers it uses, AMD64 ABI 3.5.7) is not zero, zero otherwise. A variadic
/// function compiled by gcc or clang saves all eight registers for va_arg when al is not
/// zero and none when it is, so passing all eight then keeps even a caller that sets al too
/// low working as it does natively. When al is a constant, as at nearly every call (`xor
/// eax, eax` right before), the selects fold: with al = 0 the loads go, and with them the
/// writebacks of vector registers that were there only for the call.
llvm::Value *vectorArgument(llvm::IRBuilder<> &ir, StateAccess &state, unsigned i,
                            llvm::Value *noVectors) {
  llvm::Value *value = state.loadXmm(i);
  if (!noVectors)
    return value;
  return ir.CreateSelect(noVectors, llvm::Constant::getNullValue(value->getType()), value);
}

/// A call through hoist_native_call with a frame: every argument register, al, 32 stack
/// words from the guest stack, and a long double result pushed on State's x87 stack. For a
/// `variadic` callee the vector registers are passed as zero when al is zero.
void emitFrameCall(llvm::IRBuilder<> &ir, StateAccess &state, llvm::Value *stateArgument,
                   llvm::Value *memory, llvm::Value *function, llvm::Value *guestSp,
                   bool variadic) {
  llvm::Module &module = *ir.GetInsertBlock()->getModule();
  llvm::LLVMContext &context = module.getContext();
  auto *ptr = ir.getPtrTy();
  llvm::Function *current = ir.GetInsertBlock()->getParent();
  llvm::IRBuilder<> entry(&current->getEntryBlock(), current->getEntryBlock().begin());
  llvm::AllocaInst *frame = entry.CreateAlloca(ir.getInt8Ty(), ir.getInt32(FrameSize), "frame");
  frame->setAlignment(llvm::Align(16));
  auto at = [&](unsigned offset) { return ir.CreateConstInBoundsGEP1_32(ir.getInt8Ty(), frame, offset); };
  for (unsigned i = 0; i < ArgumentRegisters; ++i)
    ir.CreateStore(state.load(IntegerArguments[i]), at(8 * i));
  llvm::Value *rax = state.load(HOIST_FIELD_RAX);
  ir.CreateStore(rax, at(FrameRax));
  llvm::Value *noVectors =
      variadic ? ir.CreateICmpEQ(ir.CreateTrunc(rax, ir.getInt8Ty(), "al"), ir.getInt8(0),
                                 "no_vectors")
               : nullptr;
  for (unsigned i = 0; i < VectorArguments; ++i)
    ir.CreateStore(vectorArgument(ir, state, i, noVectors), at(FrameXmm + 16 * i));
  llvm::FunctionCallee nativeCall = module.getOrInsertFunction(
      "hoist_native_call", llvm::FunctionType::get(ir.getVoidTy(), {ptr, ir.getInt64Ty(), ptr}, false));
  // From the program's memory, which the library may read and write (see emitRegisterCall).
  llvm::Value *stackArguments = guestPointer(ir, memory, ir.CreateAdd(guestSp, ir.getInt64(8)));
  ir.CreateCall(nativeCall, {frame, function, stackArguments});
  state.clobberCallerSaved();
  state.store(HOIST_FIELD_RAX, ir.CreateLoad(ir.getInt64Ty(), at(FrameRax)));
  state.store(HOIST_FIELD_RDX, ir.CreateLoad(ir.getInt64Ty(), at(FrameRdx)));
  state.storeXmm(0, ir.CreateLoad(xmmType(context), at(FrameXmm)));
  state.storeXmm(1, ir.CreateLoad(xmmType(context), at(FrameXmm + 16)));
  // A long double result (rare: strtold, the <math.h> *l functions) goes to State's x87 stack.
  llvm::Value *hasSt0 =
      ir.CreateICmpNE(ir.CreateLoad(ir.getInt64Ty(), at(FrameSt0Valid)), ir.getInt64(0));
  auto *push = llvm::BasicBlock::Create(context, "push_st0", current);
  auto *after = llvm::BasicBlock::Create(context, "returned", current);
  ir.CreateCondBr(hasSt0, push, after, llvm::MDBuilder(context).createBranchWeights(1, 1000));
  llvm::IRBuilder<> pushing(push);
  llvm::FunctionCallee pushX87 = module.getOrInsertFunction(
      "hoist_push_x87_result", llvm::FunctionType::get(ir.getVoidTy(), {ptr, ptr}, false));
  pushing.CreateCall(pushX87, {stateArgument, frame});
  pushing.CreateBr(after);
  ir.SetInsertPoint(after);
}

/// The runtime's `hoist_guest_sp`: each thread has its own (a thread-local variable of the
/// runtime, which is linked into the same executable: local-exec, one %fs-relative store).
llvm::GlobalVariable *guestStackPointerOfThread(llvm::Module &module) {
  auto *global = llvm::cast<llvm::GlobalVariable>(
      module.getOrInsertGlobal("hoist_guest_sp", llvm::Type::getInt64Ty(module.getContext())));
  global->setDSOLocal(true);
  global->setThreadLocalMode(llvm::GlobalValue::LocalExecTLSModel);
  return global;
}

/// Marks the guest stack slot of an import call's return address (ClobberMarkers.h): a library
/// function returns on the native stack and never reads it, a callback's guest frames go
/// below it, and once the call has returned it lies below the caller's stack pointer, where
/// the convention promises nothing. So the lifted call's push of it is a dead store, which
/// the optimizer removes (in wc's loop, with the register that held the address, 5% of the
/// instructions; docs/TRANSLATE.md "Speed").
constexpr unsigned ReturnAddressSlotMarker = 0x10000;

/// The return address the lifted call pushed: read before the native call, which cannot
/// change it (the callee returns on the native stack). The marker goes right after the read,
/// before any other access to guest memory (a GOT load after it may alias as far as LLVM
/// knows), so that it overwrites the push with nothing between.
llvm::Value *takeReturnAddress(llvm::IRBuilder<> &ir, llvm::Value *memory, llvm::Value *guestSp) {
  llvm::Type *i64 = ir.getInt64Ty();
  llvm::Value *returnSlot = guestPointer(ir, memory, guestSp);
  llvm::Value *returnAddress = ir.CreateLoad(i64, returnSlot, "return");
  storeClobberMarker(ir, returnSlot, i64, ReturnAddressSlotMarker);
  return returnAddress;
}

/// Pops the return address as the native callee's `ret` did, and leaves the State function.
void returnToCaller(llvm::IRBuilder<> &ir, StateAccess &state, llvm::Value *returnAddress,
                    llvm::Value *guestSp) {
  state.store(HOIST_FIELD_RIP, returnAddress);
  state.store(HOIST_FIELD_RSP, ir.CreateAdd(guestSp, ir.getInt64(8)));
  ir.CreateRetVoid();
}

/// After the native call of error or error_at_line, which exit when their first argument
/// (an int, edi as it was at the call: `status`) is not zero: the call returns only when it
/// was zero. With a constant nonzero status, as in coreutils' `die`, the code after the call
/// is unreachable.
void continueIfStatusZero(llvm::IRBuilder<> &ir, llvm::Value *status) {
  llvm::Function *function = ir.GetInsertBlock()->getParent();
  auto *exits = llvm::BasicBlock::Create(ir.getContext(), "exited", function);
  auto *returns = llvm::BasicBlock::Create(ir.getContext(), "error_returned", function);
  ir.CreateCondBr(ir.CreateICmpNE(ir.CreateTrunc(status, ir.getInt32Ty()), ir.getInt32(0)),
                  exits, returns);
  llvm::IRBuilder<>(exits).CreateUnreachable();
  ir.SetInsertPoint(returns);
}

/// The body of `import.NAME`: the callee from the GOT slot (a program calling an import no
/// library defines ends with a message; only a weak import's slot can be empty by then), the
/// call as `shape` allows, the guest stack pointer published for callbacks during the call
/// (when the function may make any), and the return address popped as `ret` would.
void defineImportBody(llvm::Function &function, uint64_t slot, llvm::StringRef name,
                      bool slotMayBeEmpty) {
  llvm::Module &module = *function.getParent();
  llvm::LLVMContext &context = module.getContext();
  auto *i64 = llvm::Type::getInt64Ty(context);
  auto *ptr = llvm::PointerType::getUnqual(context);
  llvm::IRBuilder<> ir(llvm::BasicBlock::Create(context, "entry", &function));
  llvm::Value *stateArgument = function.getArg(0), *memory = function.getArg(1);
  StateAccess state(ir, stateArgument);

  llvm::Value *guestSp = state.load(HOIST_FIELD_RSP);
  llvm::Value *returnAddress = takeReturnAddress(ir, memory, guestSp);

  llvm::Value *callee = ir.CreateLoad(i64, guestPointer(ir, memory, ir.getInt64(slot)), "callee");
  if (slotMayBeEmpty) {
    auto *missing = llvm::BasicBlock::Create(context, "missing", &function);
    auto *call = llvm::BasicBlock::Create(context, "call", &function);
    ir.CreateCondBr(ir.CreateICmpEQ(callee, ir.getInt64(0)), missing, call,
                    llvm::MDBuilder(context).createBranchWeights(1, 1000));
    llvm::IRBuilder<> fail(missing);
    llvm::FunctionCallee report = module.getOrInsertFunction(
        "hoist_missing_import", llvm::FunctionType::get(fail.getVoidTy(), {ptr}, false));
    llvm::cast<llvm::Function>(report.getCallee())->setDoesNotReturn();
    fail.CreateCall(report, {fail.CreateGlobalString(name, ".hoist.import")});
    fail.CreateUnreachable();
    ir.SetInsertPoint(call);
  }
  // A callback's guest frames go below the caller's. Not restored after the call: a lower
  // value left behind only wastes guest stack, and every import call that may call back
  // publishes its own before calling, as the runtime's entry from native code restores the
  // value it found when its lifted function returns (runtime/calls.c). One store per library
  // call in a hot loop, none for a function that runs no code of the program.
  if (importMayCallBack(name))
    ir.CreateStore(guestSp, guestStackPointerOfThread(module));
  llvm::Value *target = ir.CreateIntToPtr(callee, ptr);
  llvm::Value *firstArgument = state.load(HOIST_FIELD_RDI);   // before the call clobbers it
  ImportCallShape call = importCallShape(name);
  switch (call.shape) {
  case ImportShape::Integer:
  case ImportShape::Float:
    emitRegisterCall(ir, state, memory, target, call.shape == ImportShape::Float,
                     call.integerArguments);
    break;
  case ImportShape::Any:
  case ImportShape::Variadic:
    emitFrameCall(ir, state, stateArgument, memory, callee, guestSp,
                  call.shape == ImportShape::Variadic);
    break;
  }
  // After a function that never returns to its caller (abort, exit, ...): nothing. The
  // lifter continues such a call with a jump to the address after it ("should the callee
  // return after all"), which hands all of State to the runtime; once that is unreachable,
  // the function's State summary (LiftedCallEffects.h) no longer reads every register, nor do
  // its callers' (sort's comparison reaches abort through xmemcoll0's collate_error and
  // quotearg's xalloc_die, and so wrote back every vector register before each comparison).
  if (isKnownNoReturnName(name)) {
    ir.CreateUnreachable();
    return;
  }
  if (isNoReturnWhenStatusNonzeroName(name))
    continueIfStatusZero(ir, firstArgument);
  returnToCaller(ir, state, returnAddress, guestSp);
}

} // namespace

void defineBrightenedBridge(llvm::Function &function, llvm::Function &native) {
  llvm::GlobalValue::LinkageTypes linkage = function.getLinkage();
  deleteLiftedBody(function); // keeps !hoist.entry, which the program tables read
  function.setLinkage(linkage);
  llvm::LLVMContext &context = function.getContext();
  llvm::IRBuilder<> ir(llvm::BasicBlock::Create(context, "entry", &function));
  llvm::Value *stateArgument = function.getArg(0), *memory = function.getArg(1);
  StateAccess state(ir, stateArgument);
  llvm::Value *guestSp = state.load(HOIST_FIELD_RSP);
  llvm::Value *returnAddress = takeReturnAddress(ir, memory, guestSp);
  // The brightened function may call back into State-form code (through a code address it
  // reads or was given), whose guest frames go below the caller's.
  ir.CreateStore(guestSp, guestStackPointerOfThread(*function.getParent()));
  // Every argument register, the vector registers, al and 32 stack words: right for any
  // System V signature the brightened function has, whatever brightening inferred.
  emitFrameCall(ir, state, stateArgument, memory, ir.CreatePtrToInt(&native, ir.getInt64Ty()),
                guestSp, /*variadic=*/false);
  returnToCaller(ir, state, returnAddress, guestSp);
}

void defineImports(llvm::Module &module, const Image &image, const ElfProgram &program) {
  llvm::LLVMContext &context = module.getContext();
  auto *ptr = llvm::PointerType::getUnqual(context);
  llvm::FunctionCallee startMain = module.getOrInsertFunction(
      "hoist_libc_start_main",
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {ptr, ptr}, false));
  std::map<std::string, uint64_t> slotByName;
  for (const Import &import : image.imports())
    slotByName.emplace(import.name, import.slotAddress);
  for (llvm::Function &function : module) {
    if (!function.isDeclaration() || !function.hasFnAttribute("hoist-import"))
      continue;
    std::string name = function.getFnAttribute("hoist-import").getValueAsString().str();
    if (name == "__libc_start_main") {
      llvm::IRBuilder<> ir(llvm::BasicBlock::Create(context, "entry", &function));
      ir.CreateCall(startMain, {function.getArg(0), function.getArg(1)});
      ir.CreateRetVoid();
    } else if (isSetjmpImport(name)) {
      defineSetjmpImport(function, name);   // its calls become part of their callers
    } else {
      uint64_t slot = slotByName[name];
      defineImportBody(function, slot, name, !program.filledBeforeStart(slot));
      function.addFnAttr(llvm::Attribute::AlwaysInline);
    }
    function.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
}

void describeStateArguments(llvm::Module &module) {
  uint64_t stateSize = module.getDataLayout().getTypeAllocSize(getStateType(module.getContext()));
  for (llvm::Function &function : module) {
    if (function.isIntrinsic() || function.arg_size() < 1 ||
        !function.getArg(0)->getType()->isPointerTy())
      continue;
    llvm::StringRef name = function.getName();
    if (function.isDeclaration()) {
      // The runtime's functions: the first argument is a State, a frame or a string.
      if (name.starts_with("__hoist_") || name.starts_with("hoist_"))
        function.addParamAttr(0, llvm::Attribute::NoCapture);
      continue;
    }
    // Lifted functions and import bodies: (State *, memory).
    if (function.arg_size() != 2 || !function.getReturnType()->isVoidTy())
      continue;
    function.addParamAttr(0, llvm::Attribute::NoCapture);
    function.addDereferenceableParamAttr(0, stateSize);
    function.addParamAttr(0, llvm::Attribute::getWithAlignment(module.getContext(), llvm::Align(16)));
  }
}

} // namespace hoist
