#include "Brighten/Signature.h"

#include "Arch/StateLayout.h"
#include "Brighten/ImageData.h"
#include "Brighten/LocalFrame.h"
#include "Brighten/PromoteStack.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/DemandedBits.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Support/FormatVariadic.h>

namespace hoist {
namespace {

constexpr const char *ProbeSinkName = "__hoist_probe_result";
constexpr unsigned XmmArgumentRegisters = 8;

/// A register or a stack argument slot (field RSP, element the slot).
struct ProbeRegister {
  HoistStateField field;
  unsigned element;
  bool isStackSlot() const { return field == HOIST_FIELD_RSP; }
};

/// The probe's parameters, in order: the general-purpose registers but RSP, FS/GS base,
/// XMM0-7, the stack argument slots.
std::vector<ProbeRegister> probeRegisters() {
  std::vector<ProbeRegister> registers;
  for (unsigned field = HOIST_FIELD_RAX; field <= HOIST_FIELD_R15; ++field)
    if (field != HOIST_FIELD_RSP)
      registers.push_back({HoistStateField(field), 0});
  registers.push_back({HOIST_FIELD_FS_BASE, 0});
  registers.push_back({HOIST_FIELD_GS_BASE, 0});
  for (unsigned i = 0; i < XmmArgumentRegisters; ++i)
    registers.push_back({HOIST_FIELD_YMM, i});
  for (unsigned i = 0; i < StackArgumentSlots; ++i)
    registers.push_back({HOIST_FIELD_RSP, i});
  return registers;
}

std::string registerName(const ProbeRegister &reg) {
  std::string name = llvm::StringRef(stateField(reg.field).name).lower();
  if (reg.field == HOIST_FIELD_YMM)
    return "xmm" + std::to_string(reg.element);
  if (reg.isStackSlot())
    return "stack" + std::to_string(reg.element);
  return name;
}

bool isProbeSink(const llvm::User *user) {
  const auto *call = llvm::dyn_cast<llvm::CallInst>(user);
  return call && call->getCalledFunction() &&
         call->getCalledFunction()->getName() == ProbeSinkName;
}

/// Whether the function computes with `argument` (reporting it unchanged to the sink is not).
/// (RAX or XMM0 unchanged on some path reaches the sink through a phi or select.)
bool isRead(const llvm::Value &value, unsigned depth = 0) {
  return llvm::any_of(value.users(), [depth](const llvm::User *user) {
    if (isProbeSink(user))
      return false;
    if (depth < 4 && (llvm::isa<llvm::PHINode>(user) || llvm::isa<llvm::SelectInst>(user)))
      return isRead(*user, depth + 1);
    return true;
  });
}

/// Whether `argument` is only stored: a callee-saved register saved in a frame the optimizer
/// could not dissolve (its restore reads the frame, not the register).
bool isOnlySaved(const llvm::Argument &argument) {
  return llvm::all_of(argument.users(), [&argument](const llvm::User *user) {
    const auto *store = llvm::dyn_cast<llvm::StoreInst>(user);
    return store && store->getValueOperand() == &argument;
  });
}

/// The low bits of `argument` the function's results depend on (LLVM's DemandedBits over its
/// uses), rounded up to 8, 16, 32 or 64.
llvm::APInt demandedBits(const llvm::Argument &argument, llvm::DemandedBits &demanded) {
  unsigned width = argument.getType()->getIntegerBitWidth();
  llvm::APInt bits(width, 0);
  for (const llvm::Use &use : argument.uses()) {
    // DemandedBits answers for integer-typed users; a store, inttoptr or call keeps them all.
    if (!use.getUser()->getType()->isIntOrIntVectorTy())
      return llvm::APInt::getAllOnes(width);
    bits |= demanded.getDemandedBits(&const_cast<llvm::Use &>(use));
  }
  return bits;
}

unsigned usedBits(const llvm::Argument &argument, llvm::DemandedBits &demanded) {
  llvm::APInt bits = demandedBits(argument, demanded);
  for (unsigned width : {8u, 16u, 32u})
    if (bits.getActiveBits() <= width)
      return width;
  return 64;
}

/// 32 or 64: whether `value` fits 32 bits, the rest being known zero. Never narrower: a C
/// caller of an `int` function reads all of EAX, and LLVM does not extend an i8 result (even
/// `zeroext`) past AL.
unsigned returnedBits(const llvm::Value *value, const llvm::DataLayout &layout) {
  llvm::KnownBits known = llvm::computeKnownBits(value, layout);
  return 64 - known.countMinLeadingZeros() <= 32 ? 32 : 64;
}

/// The bits of an XMM argument a scalar SSE function reads: 32 or 64 from its truncations, 0
/// when its lanes only pass through to the result (the base of an insertelement), nullopt for
/// a use as a vector.
std::optional<unsigned> floatArgumentBits(const llvm::Argument &argument,
                                          llvm::DemandedBits &demanded) {
  unsigned bits = 0;
  for (const llvm::Use &use : argument.uses()) {
    const llvm::User *user = use.getUser();
    if (isProbeSink(user))
      continue;
    if (llvm::isa<llvm::TruncInst>(user)) {
      // cvtss2sd reads a float as i64 bit fields: what counts is the bits it keeps.
      bits = std::max(
          bits, demanded.getDemandedBits(&const_cast<llvm::Use &>(use)).getActiveBits());
      continue;
    }
    const llvm::Value *view = user;
    if (const auto *mask = llvm::dyn_cast<llvm::BinaryOperator>(user);
        mask && mask->getOpcode() == llvm::Instruction::And &&
        llvm::isa<llvm::ConstantInt>(mask->getOperand(1))) {
      // movss from memory keeps only lane 0 of the register's old value: `and` then a view.
      bits = std::max(bits, llvm::cast<llvm::ConstantInt>(mask->getOperand(1))
                                ->getValue().getActiveBits());
      if (!mask->hasOneUse())
        return std::nullopt;
      view = *mask->user_begin();
    }
    const auto *cast = llvm::dyn_cast<llvm::BitCastInst>(view);
    if (!cast || !llvm::all_of(cast->users(), [cast](const llvm::User *viewUser) {
          const auto *insert = llvm::dyn_cast<llvm::InsertElementInst>(viewUser);
          return insert && insert->getOperand(0) == cast;
        }))
      return std::nullopt;
  }
  if (bits == 0)
    return 0u;   // also a truncation nothing depends on
  if (bits <= 64)
    return bits <= 32 ? 32u : 64u;
  return std::nullopt;
}

/// The scalar that lands in lane 0 of a vector value, through views, lane-0 extracts and
/// shuffles that keep lane 0; null when it cannot be followed.
const llvm::Value *lowLaneScalar(const llvm::Value *value) {
  for (unsigned depth = 0; depth < 8 && value; ++depth) {
    if (const auto *insert = llvm::dyn_cast<llvm::InsertElementInst>(value)) {
      const auto *index = llvm::dyn_cast<llvm::ConstantInt>(insert->getOperand(2));
      if (index && index->isZero())
        return insert->getOperand(1);
      value = insert->getOperand(0);
    } else if (const auto *extract = llvm::dyn_cast<llvm::ExtractElementInst>(value)) {
      const auto *index = llvm::dyn_cast<llvm::ConstantInt>(extract->getIndexOperand());
      value = index && index->isZero() ? extract->getVectorOperand() : nullptr;
    } else if (const auto *cast = llvm::dyn_cast<llvm::BitCastInst>(value)) {
      value = cast->getOperand(0);
    } else if (const auto *widened = llvm::dyn_cast<llvm::ZExtInst>(value)) {
      // A call's floating-point result in XMM0, the upper lanes zero.
      value = widened->getOperand(0);
    } else if (const auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(value)) {
      value = shuffle->getMaskValue(0) == 0 ? shuffle->getOperand(0) : nullptr;
    } else {
      return value->getType()->isVectorTy() ? nullptr : value;
    }
  }
  return nullptr;
}

/// How many of `bits` count: up to the last one used.
size_t usedPrefix(llvm::ArrayRef<unsigned> bits) {
  size_t count = bits.size();
  while (count > 0 && bits[count - 1] == 0)
    --count;
  return count;
}

/// The arguments, in the order LLVM's lowering of `convention` assigns them the registers and
/// stack slots read (docs/BRIGHTEN.md): an unused register before a used one is an i64 (or a
/// double) nobody reads.
std::variant<Signature, std::string> assembleArguments(llvm::ArrayRef<unsigned> integerBits,
                                                       llvm::ArrayRef<unsigned> floatBits,
                                                       llvm::ArrayRef<unsigned> stackBits,
                                                       CallingConvention convention) {
  llvm::ArrayRef<HoistStateField> integers = integerArgumentRegisters(convention);
  size_t stackCount = usedPrefix(stackBits);
  Signature signature;
  auto integer = [&](size_t i) {
    signature.arguments.push_back({integers[i], 0, integerBits[i] ? integerBits[i] : 64, false});
  };
  auto floating = [&](size_t i) {
    signature.arguments.push_back(
        {HOIST_FIELD_YMM, unsigned(i), floatBits[i] ? floatBits[i] : 64, true});
  };
  if (convention == CallingConvention::Win64) {
    // Microsoft x64: argument i is in the i-th integer register or in XMMi, never both.
    size_t positions = stackCount ? integers.size()
                                  : std::max(usedPrefix(integerBits), usedPrefix(floatBits));
    for (size_t i = 0; i < positions; ++i) {
      if (integerBits[i] && floatBits[i])
        return llvm::formatv("reads {0} and xmm{1}, both argument {2} in win64",
                             llvm::StringRef(stateField(integers[i]).name).lower(), i, i + 1)
          .str();
      if (floatBits[i])
        floating(i);
      else
        integer(i);
    }
  } else {
    size_t integerCount = stackCount ? integers.size() : usedPrefix(integerBits);
    for (size_t i = 0; i < integerCount; ++i)
      integer(i);
    for (size_t i = 0, count = usedPrefix(floatBits); i < count; ++i)
      floating(i);
  }
  for (size_t i = 0; i < stackCount; ++i)
    signature.arguments.push_back(
        {HOIST_FIELD_RSP, unsigned(i), stackBits[i] ? stackBits[i] : 64, false, true});
  return signature;
}

} // namespace

llvm::Expected<llvm::Function *> buildSignatureProbe(llvm::Function &flat,
                                                     CallingConvention convention) {
  llvm::Module &module = *flat.getParent();
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  llvm::Type *i128 = llvm::Type::getInt128Ty(context);
  std::vector<ProbeRegister> registers = probeRegisters();
  std::vector<llvm::Type *> parameterTypes;
  for (const ProbeRegister &reg : registers)
    parameterTypes.push_back(reg.field == HOIST_FIELD_YMM ? i128 : i64);
  auto *probe = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), parameterTypes, false),
      llvm::GlobalValue::InternalLinkage, flat.getName() + ".probe", module);

  // The sink only touches memory nobody else can see: it keeps the values alive without
  // keeping the local stack alive.
  llvm::FunctionCallee sink = module.getOrInsertFunction(
      ProbeSinkName, llvm::FunctionType::get(llvm::Type::getVoidTy(context), {i64, i128}, false));
  if (auto *sinkFunction = llvm::dyn_cast<llvm::Function>(sink.getCallee())) {
    sinkFunction->setMemoryEffects(llvm::MemoryEffects::inaccessibleMemOnly());
    sinkFunction->addFnAttr(llvm::Attribute::NoUnwind);
    sinkFunction->addFnAttr(llvm::Attribute::WillReturn);
  }

  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", probe));
  std::vector<RegisterInput> inputs;
  std::vector<llvm::Value *> stackArguments;
  for (auto [reg, argument] : llvm::zip(registers, probe->args())) {
    argument.setName(registerName(reg));
    if (reg.isStackSlot())
      stackArguments.push_back(&argument);
    else
      inputs.push_back({reg.field, reg.element, &argument});
  }
  llvm::Expected<llvm::AllocaInst *> state =
      emitLocalFrameCall(builder, flat, inputs, stackArguments, convention);
  if (!state)
    return state.takeError();
  llvm::Value *rax = builder.CreateLoad(i64, stateFieldPointer(builder, *state, HOIST_FIELD_RAX));
  llvm::Value *xmm0 =
      builder.CreateLoad(i128, stateFieldPointer(builder, *state, HOIST_FIELD_YMM, 0));
  builder.CreateCall(sink, {rax, xmm0});
  builder.CreateRetVoid();
  return probe;
}

std::variant<Signature, std::string> readSignatureProbe(llvm::Function &probe,
                                                        CallingConvention convention) {
  if (llvm::Attribute data = probe.getFnAttribute(ImageDataAttribute); data.isValid())
    return llvm::formatv("accesses the binary's writable or executable memory at {0} (global "
                         "data is not in this slice)",
                         data.getValueAsString())
        .str();
  if (llvm::Attribute outside = probe.getFnAttribute(StackOutsideAttribute);
      outside.isValid())
    return llvm::formatv("addresses the stack {0} bytes past the local stack's top (more "
                         "than {1} stack arguments, or its caller's frame)",
                         outside.getValueAsString(), StackArgumentSlots)
        .str();

  for (const llvm::Instruction &instruction : llvm::instructions(probe))
    if (const auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
        call && call->getCalledFunction() &&
        call->getCalledFunction()->getName() == UnresolvedJumpMarker)
      return llvm::formatv("jumps to a target the lifter did not resolve at {0:x}",
                           llvm::cast<llvm::ConstantInt>(call->getArgOperand(0))->getZExtValue())
          .str();

  std::vector<ProbeRegister> registers = probeRegisters();
  llvm::DominatorTree dominators(probe);
  llvm::AssumptionCache assumptions(probe);
  llvm::DemandedBits demanded(probe, assumptions, dominators);
  llvm::ArrayRef<HoistStateField> argumentRegisters = integerArgumentRegisters(convention);
  std::vector<unsigned> argumentBits(argumentRegisters.size(), 0);
  std::vector<unsigned> floatBits(XmmArgumentRegisters, 0);
  std::vector<unsigned> stackBits(StackArgumentSlots, 0);
  for (auto [reg, argument] : llvm::zip(registers, probe.args())) {
    if (!isRead(argument))
      continue;
    if (reg.isStackSlot()) {
      stackBits[reg.element] = usedBits(argument, demanded);
      continue;
    }
    if (reg.field == HOIST_FIELD_YMM) {
      std::optional<unsigned> bits = floatArgumentBits(argument, demanded);
      if (!bits)
        return llvm::formatv("reads {0} as a vector (vector arguments are not in this slice)",
                             registerName(reg))
            .str();
      if (*bits == 0)
        continue;
      if (reg.element >= floatArgumentRegisterCount(convention))
        return llvm::formatv("reads {0} before writing it, which is not an argument register "
                             "of {1}",
                             registerName(reg), callingConventionName(convention))
            .str();
      floatBits[reg.element] = *bits;
      continue;
    }
    bool calleeSaved = isCalleeSaved(reg.field, convention);
    if (calleeSaved && isOnlySaved(argument))
      continue;
    if (calleeSaved)
      return llvm::formatv("reads {0} before writing it, which is callee-saved in {1}, not an "
                           "argument",
                           registerName(reg), callingConventionName(convention))
          .str();
    if (reg.field == HOIST_FIELD_RAX)
      return std::string("reads rax before writing it, which is not an argument register");
    if (reg.field == HOIST_FIELD_FS_BASE || reg.field == HOIST_FIELD_GS_BASE)
      return llvm::formatv("reads the {0} (thread-local storage or a stack protector)",
                           registerName(reg))
          .str();
    auto *position = llvm::find(argumentRegisters, reg.field);
    if (position == argumentRegisters.end())
      return llvm::formatv("reads {0} before writing it, which is not an argument register "
                           "of {1}",
                           registerName(reg), callingConventionName(convention))
          .str();
    argumentBits[position - argumentRegisters.begin()] = usedBits(argument, demanded);
  }

  std::variant<Signature, std::string> assembled =
      assembleArguments(argumentBits, floatBits, stackBits, convention);
  if (auto *reason = std::get_if<std::string>(&assembled))
    return *reason;
  Signature signature = std::get<Signature>(assembled);

  const llvm::Argument *raxIn = probe.getArg(0);
  bool raxWritten = false, xmm0Written = false;
  const llvm::Argument *xmm0In = probe.getArg(
      llvm::find_if(registers, [](const ProbeRegister &reg) {
        return reg.field == HOIST_FIELD_YMM && reg.element == 0;
      }) - registers.begin());
  unsigned bits = 0, floatResultBits = 0;
  // A scalar in XMM0's low lane is the result unless RAX holds something else (gcc -O0 moves
  // a double result through RAX: movq rax, xmm0); a vector in XMM0 next to a RAX result is
  // SSE scratch.
  bool floatResult = true;
  for (const llvm::Instruction &instruction : llvm::instructions(probe)) {
    if (!isProbeSink(&instruction))
      continue;
    const auto *call = llvm::cast<llvm::CallInst>(&instruction);
    const llvm::Value *rax = call->getArgOperand(0);
    const llvm::Value *xmm0 = call->getArgOperand(1);
    // Poison: a call clobbered RAX (its callee returns in XMM0 or nothing).
    bool raxClobbered = llvm::isa<llvm::PoisonValue>(rax);
    if (rax != raxIn && !raxClobbered) {
      raxWritten = true;
      bits = std::max(bits, returnedBits(rax, probe.getDataLayout()));
    }
    if (xmm0 == xmm0In)
      continue;
    xmm0Written = true;
    const llvm::Value *scalar = lowLaneScalar(xmm0);
    unsigned scalarBits = scalar ? scalar->getType()->getPrimitiveSizeInBits() : 0;
    floatResult &= (scalarBits == 32 || scalarBits == 64) && (rax == raxIn || rax == scalar || raxClobbered);
    floatResultBits = std::max(floatResultBits, scalarBits);
  }
  if (xmm0Written && floatResult) {
    signature.returnsFloat = true;
    signature.returnBits = floatResultBits;
    return signature;
  }
  if (xmm0Written && !raxWritten)
    return std::string("writes xmm0 with a vector (vector results are not in this slice)");
  signature.returnBits = raxWritten ? bits : 0;
  return signature;
}

} // namespace hoist
