#include "Brighten/StackProtector.h"

#include "Decode/Decoder.h"
#include "Discover/FunctionExplorer.h"
#include "Decode/Instr.h"
#include "hoist/Image.h"
#include "hoist/Lifter.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

namespace hoist {
namespace {

/// glibc's `tcbhead_t.stack_guard`, which gcc and clang compile in as %fs:0x28.
constexpr uint64_t StackGuardOffset = 0x28;
/// LLVM's X86 address space of FS-relative pointers (`__seg_fs`).
constexpr unsigned FsAddressSpace = 257;

bool isStackGuardOperand(const Operand &operand) {
  return operand.isMem() && operand.segment == ZYDIS_REGISTER_FS &&
         operand.base == ZYDIS_REGISTER_NONE && operand.index == ZYDIS_REGISTER_NONE &&
         operand.disp == static_cast<int64_t>(StackGuardOffset);
}

/// Whether `pointer` is inttoptr(fsBase + 0x28).
bool isStackGuardAddress(const llvm::Value *pointer, const llvm::Argument &fsBase) {
  const auto *cast = llvm::dyn_cast<llvm::IntToPtrInst>(pointer);
  const auto *add = cast ? llvm::dyn_cast<llvm::BinaryOperator>(cast->getOperand(0)) : nullptr;
  const auto *offset = add && add->getOpcode() == llvm::Instruction::Add
                           ? llvm::dyn_cast<llvm::ConstantInt>(add->getOperand(1))
                           : nullptr;
  return offset && add->getOperand(0) == &fsBase && offset->getZExtValue() == StackGuardOffset;
}

/// Whether `wanted` (RAX or RDX) reaches a `ret` from the guard check `check` as the check
/// left it: on the path taken when the guard holds (past a jne, to a je's target), within 32
/// instructions, nothing writes it. clang -O1 with -fstack-protector checks in RAX and then
/// zeroes EAX for `return 0`: that zero is the function's result, not the check's.
bool reachesReturnUnwritten(const Image &image, Decoder &decoder, const Instr &check,
                            ZydisRegister wanted) {
  uint64_t at = check.next();
  for (unsigned count = 0; count < 32; ++count) {
    llvm::ArrayRef<uint8_t> bytes = image.bytesAt(at);
    Instr instr;
    if (bytes.empty() || decoder.decode(bytes.data(), bytes.size(), at, instr) != DecodeStatus::Ok)
      return false;
    if (instr.mnemonic == ZYDIS_MNEMONIC_RET)
      return true;
    for (unsigned i = 0; i < instr.operandCount; ++i)
      if (instr.op(i).isReg() && instr.op(i).written &&
          ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, instr.op(i).reg) == wanted)
        return false;
    switch (instr.mnemonic) {
    case ZYDIS_MNEMONIC_JNZ:
      break;
    case ZYDIS_MNEMONIC_JZ:
    case ZYDIS_MNEMONIC_JMP:
      if (std::optional<uint64_t> target = directTarget(instr)) {
        at = *target;
        continue;
      }
      return false;
    default:
      if (instr.category == ZYDIS_CATEGORY_COND_BR || instr.category == ZYDIS_CATEGORY_UNCOND_BR ||
          instr.category == ZYDIS_CATEGORY_CALL)
        return false;
    }
    at = instr.next();
  }
  return false;
}

} // namespace

bool isLeftByTheGuardCheck(const llvm::Value *value, const llvm::Argument &fsBase) {
  if (const auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value))
    return constant->isZero();
  auto isGuard = [&fsBase](const llvm::Value *value) {
    const auto *load = llvm::dyn_cast<llvm::LoadInst>(value);
    return load && isStackGuardAddress(load->getPointerOperand(), fsBase);
  };
  // gcc's `sub %fs:0x28, %rdx` (or xor) of the saved copy, where the stack stays memory.
  if (const auto *check = llvm::dyn_cast<llvm::BinaryOperator>(value);
      check && (check->getOpcode() == llvm::Instruction::Sub ||
                check->getOpcode() == llvm::Instruction::Xor))
    return isGuard(check->getOperand(1)) ||
           (check->getOpcode() == llvm::Instruction::Xor && isGuard(check->getOperand(0)));
  return isGuard(value);
}

bool readsOnlyTheStackGuard(const llvm::Argument &fsBase) {
  auto onlyLoaded = [](const llvm::Value &pointer) {
    return llvm::all_of(pointer.users(), [&pointer](const llvm::User *user) {
      const auto *load = llvm::dyn_cast<llvm::LoadInst>(user);
      return load && load->getPointerOperand() == &pointer && !load->isVolatile();
    });
  };
  return llvm::all_of(fsBase.users(), [&](const llvm::User *add) {
    return llvm::all_of(add->users(), [&](const llvm::User *cast) {
      return isStackGuardAddress(cast, fsBase) && onlyLoaded(*cast);
    });
  });
}

bool loadsTheThreadsStackGuard(const llvm::LoadInst &load) {
  if (!load.getType()->isIntegerTy(64))
    return false;
  const llvm::Value *pointer = load.getPointerOperand();
  const llvm::Value *base = nullptr;
  uint64_t offset = 0;
  // inttoptr(thread pointer + 0x28), or a getelementptr of 0x28 bytes from inttoptr(it).
  if (const auto *cast = llvm::dyn_cast<llvm::IntToPtrInst>(pointer)) {
    const auto *add = llvm::dyn_cast<llvm::BinaryOperator>(cast->getOperand(0));
    const auto *constant = add && add->getOpcode() == llvm::Instruction::Add
                               ? llvm::dyn_cast<llvm::ConstantInt>(add->getOperand(1))
                               : nullptr;
    if (!constant)
      return false;
    base = add->getOperand(0);
    offset = constant->getZExtValue();
  } else if (const auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(pointer)) {
    llvm::APInt bytes(64, 0);
    const auto *cast = llvm::dyn_cast<llvm::IntToPtrInst>(gep->getPointerOperand());
    if (!cast || !gep->accumulateConstantOffset(load.getDataLayout(), bytes))
      return false;
    base = cast->getOperand(0);
    offset = bytes.getZExtValue();
  }
  const auto *thread = llvm::dyn_cast_or_null<llvm::LoadInst>(base);
  return thread && offset == StackGuardOffset &&
         thread->getPointerAddressSpace() == FsAddressSpace &&
         llvm::isa<llvm::ConstantPointerNull>(thread->getPointerOperand());
}

llvm::Value *loadThreadPointer(llvm::IRBuilder<> &builder) {
  llvm::Value *self =
      llvm::ConstantPointerNull::get(llvm::PointerType::get(builder.getContext(), FsAddressSpace));
  return builder.CreateLoad(builder.getInt64Ty(), self, "thread.pointer");
}

bool checksTheStackGuardIn(const llvm::Function &lifted, const Image &image,
                           HoistStateField field) {
  ZydisRegister wanted = field == HOIST_FIELD_RDX ? ZYDIS_REGISTER_RDX : ZYDIS_REGISTER_RAX;
  Decoder decoder;
  for (const llvm::Instruction &instruction : llvm::instructions(lifted)) {
    std::optional<uint64_t> address = pcMetadataOf(instruction);
    if (!address || !llvm::isa<llvm::LoadInst>(instruction))
      continue;
    llvm::ArrayRef<uint8_t> bytes = image.bytesAt(*address);
    Instr instr;
    if (bytes.empty() ||
        decoder.decode(bytes.data(), bytes.size(), *address, instr) != DecodeStatus::Ok)
      continue;
    bool writes = instr.mnemonic == ZYDIS_MNEMONIC_SUB || instr.mnemonic == ZYDIS_MNEMONIC_XOR ||
                  instr.mnemonic == ZYDIS_MNEMONIC_MOV;
    if (writes && instr.explicitCount == 2 && instr.op(0).isReg() &&
        instr.op(0).reg == wanted && isStackGuardOperand(instr.op(1)) &&
        reachesReturnUnwritten(image, decoder, instr, wanted))
      return true;
  }
  return false;
}

} // namespace hoist
