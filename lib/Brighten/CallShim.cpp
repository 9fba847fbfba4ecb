#include "Brighten/CallShim.h"

#include "Brighten/ClobberedRdx.h"
#include "Brighten/CodePointers.h"

#include "Arch/StateLayout.h"
#include "Brighten/ImportPrototypes.h"
#include "Brighten/LocalFrame.h"
#include "Prototypes/LibraryPrototype.h"

#include <llvm/IR/IRBuilder.h>

namespace hoist {
namespace {

/// On a typed call: the operand number of its first stack argument.
constexpr const char *StackArgumentsMetadata = "hoist.stack-arguments";

/// iN, float/double for a floating-point value of 32/64 bits, or a 128-bit vector of `shape`.
llvm::Type *valueType(llvm::LLVMContext &context, unsigned bits, bool isFloat,
                      VectorShape shape) {
  switch (shape) {
  case VectorShape::Float4:
    return llvm::FixedVectorType::get(llvm::Type::getFloatTy(context), 4);
  case VectorShape::Double2:
    return llvm::FixedVectorType::get(llvm::Type::getDoubleTy(context), 2);
  case VectorShape::Int2:
    return llvm::FixedVectorType::get(llvm::Type::getInt64Ty(context), 2);
  case VectorShape::None:
    break;
  }
  if (isFloat)
    return bits == 32 ? llvm::Type::getFloatTy(context) : llvm::Type::getDoubleTy(context);
  return llvm::IntegerType::get(context, bits);
}

/// The i64 at `address` of the process's memory (the caller's stack, in a flat copy).
llvm::Value *loadQuad(llvm::IRBuilder<> &builder, llvm::Value *address) {
  return builder.CreateLoad(builder.getInt64Ty(),
                            builder.CreateIntToPtr(address, builder.getPtrTy()));
}

/// An i64 register or stack slot as a value of `type`: the low bits, or a pointer.
llvm::Value *fromQuad(llvm::IRBuilder<> &builder, llvm::Value *quad, llvm::Type *type) {
  if (type->isPointerTy())
    return builder.CreateIntToPtr(quad, type);
  if (type->isFloatingPointTy())
    return builder.CreateBitCast(
        builder.CreateTrunc(quad, builder.getIntNTy(type->getPrimitiveSizeInBits())), type);
  return builder.CreateTrunc(quad, type);
}

llvm::Type *typeOf(llvm::LLVMContext &context, CType type) {
  switch (type) {
  case CType::Void:
    return llvm::Type::getVoidTy(context);
  case CType::Int:
    return llvm::Type::getInt32Ty(context);
  case CType::Long:
    return llvm::Type::getInt64Ty(context);
  case CType::Pointer:
  case CType::CodePointer:
    return llvm::PointerType::getUnqual(context);
  case CType::Double:
    return llvm::Type::getDoubleTy(context);
  case CType::Float:
    return llvm::Type::getFloatTy(context);
  }
  return nullptr;
}

bool isFloating(CType type) { return type == CType::Double || type == CType::Float; }

/// Where a caller in `convention` puts the arguments of `prototype`: SysV gives integers and
/// floating-point values their registers class by class, Win64 by position; the rest go on the
/// stack in order. nullopt when more arguments than slots.
std::optional<Signature> signatureFor(const ImportPrototype &prototype,
                                      CallingConvention convention) {
  llvm::ArrayRef<HoistStateField> integers = integerArgumentRegisters(convention);
  unsigned floats = floatArgumentRegisterCount(convention);
  Signature signature;
  unsigned nextInteger = 0, nextFloat = 0, nextStack = 0;
  for (auto [position, type] : llvm::enumerate(prototype.arguments)) {
    bool floating = isFloating(type);
    unsigned bits = type == CType::Int || type == CType::Float ? 32 : 64;
    if (convention == CallingConvention::Win64) {
      nextInteger = nextFloat = position;
    }
    if (floating && nextFloat < floats) {
      signature.arguments.push_back({HOIST_FIELD_YMM, nextFloat++, bits, true});
      continue;
    }
    if (!floating && nextInteger < integers.size()) {
      signature.arguments.push_back({integers[nextInteger++], 0, bits, false});
    } else {
      if (nextStack == StackArgumentSlots)
        return std::nullopt;
      signature.arguments.push_back({HOIST_FIELD_RSP, nextStack++, bits, floating, true});
    }
    signature.arguments.back().isCode = type == CType::CodePointer;
  }
  signature.returnsFloat = isFloating(prototype.result);
  signature.returnBits = prototype.result == CType::Void                            ? 0
                         : prototype.result == CType::Int || prototype.result == CType::Float ? 32
                                                                                         : 64;
  return signature;
}

} // namespace

llvm::FunctionType *functionTypeFor(const Signature &signature, llvm::LLVMContext &context) {
  std::vector<llvm::Type *> parameters;
  for (const Signature::Argument &argument : signature.arguments)
    parameters.push_back(argument.isPointer
                             ? llvm::PointerType::getUnqual(context)
                             : valueType(context, argument.bits, argument.isFloat,
                                         argument.vector));
  llvm::Type *result = signature.returnBits
                           ? valueType(context, signature.returnBits, signature.returnsFloat,
                                       signature.returnVector)
                           : llvm::Type::getVoidTy(context);
  if (std::vector<ResultRegister> registers = resultRegisters(signature); !registers.empty()) {
    std::vector<llvm::Type *> elements;
    for (const ResultRegister &reg : registers)
      elements.push_back(reg.field == HOIST_FIELD_YMM
                             ? static_cast<llvm::Type *>(llvm::FixedVectorType::get(llvm::Type::getInt64Ty(context), 2))
                             : llvm::Type::getInt64Ty(context));
    result = llvm::StructType::get(context, elements);
  }
  return llvm::FunctionType::get(result, parameters, false);
}

namespace {

/// A call's effects on the caller's State that both a typed call and a modeled one have: the
/// result in RAX or XMM0 (the upper lanes zero, the other of the two poison) and RDX (the
/// second half of a result, or the clobbered marker: ClobberedRdx.h), then the callee's
/// `ret`: RIP the return address, popped.
struct CallFrame {
  llvm::Value *state;
  llvm::Value *rspPointer;
  llvm::Value *rsp;             ///< at the return address the lifted call pushed
  llvm::Value *returnAddress;   ///< read before the callee runs
  llvm::MDNode *pc;             ///< the lifted call's address
};

/// The store of the return address the lifted `call` pushed just before `call` (the stores of
/// RSP, RIP and the flags, and what they are computed from, between them), or null. Its pointer is `gep %mem, RSP` or, once the
/// flat copy rewrote it, `inttoptr RSP`.
llvm::StoreInst *returnAddressPush(llvm::CallBase &call, llvm::Value *rspPointer) {
  const llvm::DataLayout &layout = call.getDataLayout();
  // State fields are equal by their offset from the State, not by the instruction (lifted
  // code addresses them with `gep i8`, stateFieldPointer with a struct gep).
  auto offsetInState = [&](llvm::Value *pointer) -> std::optional<int64_t> {
    llvm::APInt offset(64, 0);
    if (pointer->stripAndAccumulateConstantOffsets(layout, offset, true) !=
        call.getArgOperand(0))
      return std::nullopt;
    return offset.getSExtValue();
  };
  std::optional<int64_t> rspField = offsetInState(rspPointer);
  llvm::Value *rsp = nullptr;
  for (llvm::Instruction *at = call.getPrevNode(); at && rspField; at = at->getPrevNode()) {
    // Computations (the flags' values, enterCall's own reads of the State) stand between.
    if (!at->mayWriteToMemory() && !at->mayHaveSideEffects())
      continue;
    auto *store = llvm::dyn_cast<llvm::StoreInst>(at);
    if (!store)
      return nullptr;
    llvm::Value *pointer = store->getPointerOperand();
    if (!rsp) {
      // The last store of RSP before the call is the push's.
      if (offsetInState(pointer) == rspField)
        rsp = store->getValueOperand();
      continue;
    }
    llvm::Value *address = nullptr;
    if (auto *cast = llvm::dyn_cast<llvm::IntToPtrInst>(pointer))
      address = cast->getOperand(0);
    else if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(pointer);
             gep && gep->getNumIndices() == 1 && llvm::isa<llvm::Argument>(gep->getPointerOperand()))
      address = gep->getOperand(1);
    if (address == rsp && llvm::isa<llvm::ConstantInt>(store->getValueOperand()))
      return store;
  }
  return nullptr;
}

CallFrame enterCall(llvm::IRBuilder<> &builder, llvm::CallBase &call) {
  CallFrame frame;
  frame.pc = call.getMetadata("hoist.pc");
  frame.state = call.getArgOperand(0);
  frame.rspPointer = stateFieldPointer(builder, frame.state, HOIST_FIELD_RSP);
  frame.rsp = builder.CreateLoad(builder.getInt64Ty(), frame.rspPointer);
  // The callee is a function of the recompiled program, which pushes its own return address:
  // the lifted push is only where the return check finds the address. Left in the stack, it
  // would stay there for a callee given a pointer into the stack (a local's address), which
  // LLVM must assume reads it, and the original's code address would survive.
  if (llvm::StoreInst *push = returnAddressPush(call, frame.rspPointer)) {
    frame.returnAddress = push->getValueOperand();
    push->eraseFromParent();
    return frame;
  }
  // Read before the callee runs: a callee that takes a pointer into the stack (memset of a
  // local array) could write it as far as LLVM knows.
  frame.returnAddress = loadQuad(builder, frame.rsp);
  return frame;
}

void leaveCall(llvm::IRBuilder<> &builder, const CallFrame &frame, llvm::Value *rax,
               llvm::Value *xmm0, llvm::Value *rdx, bool keepXmm0 = false,
               bool keepRdx = false) {
  if (rdx || !keepRdx)
    builder.CreateStore(rdx ? rdx : emitClobberedRdx(builder, frame.pc),
                        stateFieldPointer(builder, frame.state, HOIST_FIELD_RDX));
  if (xmm0 || !keepXmm0)
    builder.CreateStore(xmm0 ? xmm0 : llvm::PoisonValue::get(builder.getInt128Ty()),
                        stateFieldPointer(builder, frame.state, HOIST_FIELD_YMM, 0));
  builder.CreateStore(rax ? rax : emitClobberedRax(builder, frame.pc),
                      stateFieldPointer(builder, frame.state, HOIST_FIELD_RAX));
  builder.CreateStore(frame.returnAddress,
                      stateFieldPointer(builder, frame.state, HOIST_FIELD_RIP));
  builder.CreateStore(builder.CreateAdd(frame.rsp, builder.getInt64(8)), frame.rspPointer);
}

} // namespace

const Signature *KnownCallee::signatureAt(const llvm::CallBase &call) const {
  if (!variadic)
    return &signature;
  auto site = callSites.find(pcOf(call));
  return site == callSites.end() ? nullptr : &site->second;
}

namespace {

/// Stack argument slot `slot` of a call at `frame` in `convention`, as the callee reads it. A
/// call pushed a return address below the caller's frame: a slot at or above the caller's own
/// return address (`entryRsp`) is none the caller wrote, and passes 0, so that the caller's
/// return address and stack arguments do not become arguments it takes. A tail call (RSP still
/// at the caller's return address) hands on the caller's own stack arguments there. The depth
/// is a constant once RSP's arithmetic folds; until then each load reads a slot the caller has.
llvm::Value *stackArgument(llvm::IRBuilder<> &builder, const CallFrame &frame,
                           llvm::Value *entryRsp, unsigned slot, CallingConvention convention) {
  llvm::Value *offset = builder.getInt64(stackArgumentOffset(slot, convention));
  llvm::Value *depth = builder.CreateSub(entryRsp, frame.rsp);
  llvm::Value *passed = builder.CreateOr(builder.CreateICmpEQ(depth, builder.getInt64(0)),
                                         builder.CreateICmpULT(offset, depth));
  llvm::Value *address =
      builder.CreateSelect(passed, builder.CreateAdd(frame.rsp, offset), frame.rsp);
  return builder.CreateSelect(passed, loadQuad(builder, address), builder.getInt64(0));
}

} // namespace

void emitTypedCall(llvm::CallBase &call, const KnownCallee &callee, CallingConvention convention,
                   llvm::Value *entryRsp) {
  llvm::IRBuilder<> builder(&call);
  llvm::Type *i64 = builder.getInt64Ty();
  // The lifted call pushed the return address: RSP points at it, stack arguments lie above.
  CallFrame frame = enterCall(builder, call);

  llvm::FunctionType *type = callee.function->getFunctionType();
  const Signature &signature = *callee.signatureAt(call);
  std::vector<llvm::Value *> arguments;
  for (auto [position, argument] : llvm::enumerate(signature.arguments)) {
    // A variadic argument has the type the format gives it (the ABI promotes float to double
    // and small integers to int).
    llvm::Type *parameterType =
        position < type->getNumParams()
            ? type->getParamType(position)
            : valueType(builder.getContext(), argument.bits, argument.isFloat, argument.vector);
    if (argument.isFloat && !argument.onStack) {
      llvm::Type *bits = builder.getIntNTy(parameterType->getPrimitiveSizeInBits());
      llvm::Value *lane = builder.CreateLoad(
          bits, stateFieldPointer(builder, frame.state, HOIST_FIELD_YMM, argument.element));
      // A variadic callee's XMM registers at or above AL carry no argument: the caller's
      // leftovers there would be read as its parameters.
      if (signature.vectorCountInAl) {
        llvm::Value *al = builder.CreateLoad(
            builder.getInt8Ty(), stateFieldPointer(builder, frame.state, HOIST_FIELD_RAX));
        lane = builder.CreateSelect(builder.CreateICmpUGT(al, builder.getInt8(argument.element)),
                                    lane, llvm::Constant::getNullValue(bits));
      }
      arguments.push_back(builder.CreateBitCast(lane, parameterType));
      continue;
    }
    llvm::Value *quad =
        argument.onStack
            ? stackArgument(builder, frame, entryRsp, argument.element, convention)
            : builder.CreateLoad(i64, stateFieldPointer(builder, frame.state, argument.field));
    // A library calls a code argument: the recompiled program's function, not the original
    // address.
    arguments.push_back(argument.isCode
                            ? builder.CreateCall(codePointerMap(*call.getModule()), {quad})
                            : fromQuad(builder, quad, parameterType));
  }
  llvm::CallInst *result = builder.CreateCall(callee.function, arguments);
  result->setCallingConv(callee.function->getCallingConv());
  result->setAttributes(callee.function->getAttributes());
  result->copyMetadata(call);
  // Stack arguments come after the register ones (Signature::arguments).
  if (auto stack = llvm::find_if(signature.arguments,
                                 [](const Signature::Argument &argument) { return argument.onStack; });
      stack != signature.arguments.end())
    result->setMetadata(StackArgumentsMetadata,
                        llvm::MDNode::get(builder.getContext(),
                                          llvm::ConstantAsMetadata::get(builder.getInt32(
                                              unsigned(stack - signature.arguments.begin())))));

  // The other of RAX and XMM0 is clobbered, as the callee may have: a caller that reads it
  // after the call is reading garbage, and a recursive SCC's first guesses (void callees)
  // must not show the caller's own RAX flowing through the call. XMM0 stays where the probe
  // showed that the callee leaves it untouched (Signature::keepsXmm0).
  llvm::Type *resultType = type->getReturnType();
  llvm::Value *xmm0 = nullptr, *rax = nullptr, *rdx = nullptr;
  if (resultType->isStructTy()) {   // returnsPassedThrough, returnsRdx, returnsXmm1
    for (auto [index, reg] : llvm::enumerate(resultRegisters(callee.signature))) {
      llvm::Value *element = builder.CreateExtractValue(result, unsigned(index));
      if (reg.field == HOIST_FIELD_YMM && reg.element == 1)
        builder.CreateStore(builder.CreateBitCast(element, builder.getInt128Ty()),
                            stateFieldPointer(builder, frame.state, HOIST_FIELD_YMM, 1));
      else if (reg.field == HOIST_FIELD_YMM)
        xmm0 = builder.CreateBitCast(element, builder.getInt128Ty());
      else
        (reg.field == HOIST_FIELD_RDX ? rdx : rax) = element;
    }
  } else if (resultType->isFloatingPointTy() || resultType->isVectorTy())
    xmm0 = builder.CreateZExt(
        builder.CreateBitCast(result, builder.getIntNTy(resultType->getPrimitiveSizeInBits())),
        builder.getInt128Ty());
  else if (resultType->isPointerTy())
    rax = builder.CreatePtrToInt(result, i64);
  else if (!resultType->isVoidTy())
    rax = builder.CreateZExt(result, i64);
  leaveCall(builder, frame, rax, xmm0, rdx, callee.signature.keepsXmm0,
            callee.signature.keepsRdx);
}

void emitModeledCall(llvm::CallBase &call, llvm::FunctionCallee model,
                     llvm::ArrayRef<llvm::Value *> arguments) {
  llvm::IRBuilder<> builder(&call);
  CallFrame frame = enterCall(builder, call);
  llvm::CallInst *result = builder.CreateCall(model, arguments);
  result->copyMetadata(call);
  leaveCall(builder, frame, result, builder.CreateZExt(result, builder.getInt128Ty()), nullptr);
}

namespace {

/// Operands of a call emitPointerCall made: the integer argument registers, the XMM ones, then
/// the stack slots.
constexpr unsigned PointerCallRegisterOperands = 6 + 8;

/// By its shape, which no other call in brightened code has: a metadata mark would be lost
/// where SimplifyCFG merges two such calls.
bool isPointerCall(const llvm::User *user) {
  const auto *call = llvm::dyn_cast_or_null<llvm::CallBase>(user);
  return call && call->isIndirectCall() && call->getFunctionType()->isVarArg() &&
         call->getType()->isStructTy() && call->getType()->getStructNumElements() == 4;
}

} // namespace

bool isPointerCallResult(const llvm::Value *value, unsigned index) {
  const auto *extract = llvm::dyn_cast<llvm::ExtractValueInst>(value);
  return extract && extract->getNumIndices() == 1 && extract->getIndices()[0] == index &&
         isPointerCall(llvm::dyn_cast<llvm::User>(extract->getAggregateOperand()));
}

bool isPointerCallStackSlot(const llvm::Use &use) {
  const auto *call = llvm::dyn_cast<llvm::CallBase>(use.getUser());
  if (!call || use.getOperandNo() >= call->arg_size())
    return false;
  if (isPointerCall(call))
    return use.getOperandNo() >= PointerCallRegisterOperands;
  const llvm::MDNode *stack = call->getMetadata(StackArgumentsMetadata);
  return stack && use.getOperandNo() >=
                      llvm::mdconst::extract<llvm::ConstantInt>(stack->getOperand(0))->getZExtValue();
}

void emitPointerCall(llvm::CallBase &call, llvm::Value *entryRsp,
                     llvm::Instruction *insertBefore) {
  llvm::IRBuilder<> builder(insertBefore ? insertBefore : &call);
  llvm::LLVMContext &context = builder.getContext();
  llvm::Module &module = *call.getModule();
  llvm::Type *i64 = builder.getInt64Ty();
  llvm::Type *i128 = builder.getInt128Ty();
  llvm::Type *vector = llvm::FixedVectorType::get(i64, 2);
  CallFrame frame = enterCall(builder, call);

  llvm::Value *target = builder.CreateCall(codePointerMap(module), {call.getArgOperand(2)});

  llvm::ArrayRef<HoistStateField> integers = integerArgumentRegisters(CallingConvention::SysV);
  std::vector<llvm::Value *> arguments;
  for (HoistStateField field : integers)
    arguments.push_back(builder.CreateLoad(i64, stateFieldPointer(builder, frame.state, field)));
  for (unsigned xmm = 0; xmm < floatArgumentRegisterCount(CallingConvention::SysV); ++xmm)
    arguments.push_back(builder.CreateBitCast(
        builder.CreateLoad(i128, stateFieldPointer(builder, frame.state, HOIST_FIELD_YMM, xmm)),
        vector));
  assert(arguments.size() == PointerCallRegisterOperands);
  for (unsigned slot = 0; slot < HandedOnStackSlots; ++slot)
    arguments.push_back(stackArgument(builder, frame, entryRsp, slot, CallingConvention::SysV));
  llvm::Type *result = llvm::StructType::get(context, {i64, i64, vector, vector});
  auto *type = llvm::FunctionType::get(
      result, std::vector<llvm::Type *>(integers.size(), i64), true);
  llvm::CallInst *returned = builder.CreateCall(type, target, arguments);
  returned->copyMetadata(call);

  auto lane = [&](unsigned index) {
    return builder.CreateBitCast(builder.CreateExtractValue(returned, index), i128);
  };
  builder.CreateStore(lane(3), stateFieldPointer(builder, frame.state, HOIST_FIELD_YMM, 1));
  leaveCall(builder, frame, builder.CreateExtractValue(returned, 0), lane(2),
            builder.CreateExtractValue(returned, 1));
}

namespace {

/// The declaration of the library function `name` of `type`, called in `convention` (the
/// binary's C library: `win64cc` for a DLL's function, msvcrt's strlen).
std::variant<KnownCallee, std::string> declareLibraryCallee(llvm::Module &module,
                                                           llvm::StringRef name,
                                                           llvm::StringRef library,
                                                           llvm::FunctionType *type,
                                                           const Signature &signature,
                                                           CallingConvention convention) {
  // A pointer to the function in carried data came first (BLAKE2's `memset_v = &memset` in
  // b2sum): the slot named it as an external object; it is the function.
  if (auto *object = module.getNamedGlobal(name); object && object->isDeclaration()) {
    llvm::Function *function =
        llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, "", module);
    object->replaceAllUsesWith(function);
    function->takeName(object);
    object->eraseFromParent();
  }
  llvm::FunctionCallee declared = module.getOrInsertFunction(name, type);
  auto *function = llvm::dyn_cast<llvm::Function>(declared.getCallee());
  if (!function || function->getFunctionType() != type)
    return std::string("has a name the module already uses with another type");
  function->setCallingConv(llvmCallingConvention(convention));
  // Its DLL: what it writes is looked up by name and DLL (ImportEffects.h).
  if (!library.empty())
    function->addFnAttr("hoist-library", library);
  return KnownCallee{function, signature};
}

} // namespace

std::variant<KnownCallee, std::string> libraryCallee(llvm::Module &module, llvm::StringRef name,
                                                    llvm::StringRef library,
                                                    CallingConvention convention) {
  std::variant<ImportPrototype, std::string> prototype = importPrototype(name, library);
  if (auto *reason = std::get_if<std::string>(&prototype))
    return *reason;
  const ImportPrototype &known = std::get<ImportPrototype>(prototype);
  std::optional<Signature> signature = signatureFor(known, convention);
  if (!signature)
    return std::string("takes more stack arguments than brightening passes");
  llvm::LLVMContext &context = module.getContext();
  std::vector<llvm::Type *> parameters;
  for (CType argument : known.arguments)
    parameters.push_back(typeOf(context, argument));
  std::variant<KnownCallee, std::string> callee = declareLibraryCallee(
      module, name, library,
      llvm::FunctionType::get(typeOf(context, known.result), parameters,
                              known.variadic.has_value()),
      *signature, convention);
  if (auto *declared = std::get_if<KnownCallee>(&callee)) {
    declared->variadic = known.variadic;
    // The lifted call is followed by the return check and the next instruction's code, which
    // the function may not even contain (gcc puts `call __stack_chk_fail` last): the
    // attribute lets the optimizer end the path at the call, as the compiler did.
    if (known.noReturn)
      declared->function->setDoesNotReturn();
    // setjmp's second return comes from a longjmp, vfork's child runs on this frame until it
    // execs or exits: the attribute keeps code generation from a tail call or from reusing
    // the frame's slots across the call (PromoteStack keeps the frame itself in memory).
    if (library.empty() && returnsTwice(name))
      declared->function->addFnAttr(llvm::Attribute::ReturnsTwice);
  }
  return callee;
}

std::variant<KnownCallee, std::string> inferredLibraryCallee(llvm::Module &module,
                                                            llvm::StringRef name,
                                                            llvm::StringRef library,
                                                            unsigned integerArguments,
                                                            CallingConvention convention) {
  llvm::ArrayRef<HoistStateField> registers = integerArgumentRegisters(convention);
  Signature signature;
  for (unsigned i = 0; i < integerArguments && i < registers.size(); ++i)
    signature.arguments.push_back({registers[i], 0, 64, false});
  signature.returnBits = 64;
  return declareLibraryCallee(module, name, library,
                              functionTypeFor(signature, module.getContext()), signature,
                              convention);
}

} // namespace hoist
