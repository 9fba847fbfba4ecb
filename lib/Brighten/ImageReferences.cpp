#include "Brighten/ImageReferences.h"
#include "Brighten/ImageData.h"
#include "Brighten/ImportSlots.h"
#include "Brighten/LocalFrame.h"

#include "Decode/Decoder.h"
#include "Decode/Instr.h"
#include "hoist/Image.h"
#include "hoist/Lifter.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Operator.h>

#include <optional>

namespace hoist {
namespace {

/// The longest run of instructions without IR decoded between two tagged ones; a longer gap
/// is another part of the function (a `.cold` block) or code of another.
constexpr uint64_t MaxUntaggedBytes = 256;

/// The addresses instruction `instr` names: RIP-relative memory operands (lea included) and,
/// unless the image is position-independent (its code then has no absolute addresses),
/// absolute ones and immediates that are not branch displacements.
void addressesNamedBy(const Instr &instr, bool positionIndependent, std::vector<uint64_t> &out) {
  for (unsigned i = 0; i < instr.operandCount; ++i) {
    const Operand &operand = instr.op(i);
    if (operand.isMem() && operand.base == ZYDIS_REGISTER_RIP)
      out.push_back(instr.next() + static_cast<uint64_t>(operand.disp));
    else if (positionIndependent)
      continue;
    else if (operand.isMem() && operand.base == ZYDIS_REGISTER_NONE &&
             operand.index == ZYDIS_REGISTER_NONE)
      out.push_back(static_cast<uint64_t>(operand.disp));
    else if (operand.isImm() && !operand.immRelative)
      out.push_back(operand.imm);
  }
}

/// The displacements of `instr`'s memory operands that have a base or index register other
/// than RIP, and its immediates that are not branch displacements: what position-independent
/// code computes with as numbers.
void addNumbersNamedBy(const Instr &instr, std::set<uint64_t> &out) {
  for (unsigned i = 0; i < instr.operandCount; ++i) {
    const Operand &operand = instr.op(i);
    if (operand.isMem() && operand.base != ZYDIS_REGISTER_RIP &&
        (operand.base != ZYDIS_REGISTER_NONE || operand.index != ZYDIS_REGISTER_NONE) &&
        operand.disp != 0)
      out.insert(static_cast<uint64_t>(operand.disp));
    else if (operand.isImm() && !operand.immRelative)
      out.insert(operand.imm);
  }
}

/// Whether `constant` is one of `numbers`, as 64 bits or as a 32-bit value either extended.
bool isNamedNumber(const llvm::ConstantInt &constant, const std::set<uint64_t> &numbers) {
  return numbers.count(constant.getZExtValue()) ||
         numbers.count(static_cast<uint64_t>(constant.getSExtValue()));
}

/// Whether `use` (an integer constant) hands the value on as it is: a function's address
/// there can be the brightened function's, where arithmetic on it could not.
bool isHandedOn(const llvm::Use &use) {
  const auto *user = llvm::dyn_cast<llvm::Instruction>(use.getUser());
  if (!user)
    return false;
  switch (user->getOpcode()) {
  case llvm::Instruction::Store:
    return use.getOperandNo() == 0;
  case llvm::Instruction::Select:
    return use.getOperandNo() != 0;
  case llvm::Instruction::Call:
    return llvm::cast<llvm::CallBase>(user)->isArgOperand(&use);
  case llvm::Instruction::Ret:
  case llvm::Instruction::PHI:
  case llvm::Instruction::ICmp:
    return true;
  default:
    return false;
  }
}

/// Whether `use` (an integer constant) is where an address goes when code hands it on or
/// computes with it as an address (ImageReferences.h).
bool isAddressPosition(const llvm::Use &use) {
  if (isHandedOn(use))
    return true;
  const auto *user = llvm::dyn_cast<llvm::Instruction>(use.getUser());
  if (!user)
    return false;
  switch (user->getOpcode()) {
  case llvm::Instruction::Add:
  case llvm::Instruction::Sub:
  case llvm::Instruction::IntToPtr:
    return true;
  case llvm::Instruction::Or:
    return llvm::cast<llvm::PossiblyDisjointInst>(user)->isDisjoint();
  default:
    return false;
  }
}

/// The address inside one of `sections` that `constant` is: a 64-bit one itself, a 32-bit
/// one the low half of (code computing with the low half of an address: `sub ecx, r9d`).
std::optional<uint64_t> addressIn(const llvm::ConstantInt *constant,
                                  const std::set<uint64_t> &sections, const Image &image) {
  uint64_t value = constant->getZExtValue();
  for (uint64_t start : sections) {
    uint64_t address = constant->getBitWidth() == 64 ? value : (start & ~0xffffffffull) | value;
    const Section *section = addressedSection(image, address);
    if (section && section->address == start)
      return address;
  }
  return std::nullopt;
}

/// Replaces each load of a slot that brightened code does not carry (the GOT) and that the
/// loader fills with an address of the image (R_X86_64_RELATIVE: a PIE takes a function's
/// address as `mov f@GOTPCREL(%rip), %rax`) by that address, which `sites` then names as
/// exactly as the instruction named the slot. Returns whether anything changed.
bool replaceRelocatedSlotLoads(llvm::Function &flat, const Image &image,
                               ImageReferenceSites &sites) {
  llvm::SmallVector<std::pair<llvm::LoadInst *, llvm::Constant *>> loads;
  for (llvm::Instruction &instruction : llvm::instructions(flat)) {
    auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
    if (!load || !load->getType()->isIntegerTy(64))
      continue;
    std::optional<uint64_t> slot = loadedSlot(*load);
    const Section *holder = slot ? image.sectionAt(*slot) : nullptr;
    if (!holder || isCarriedDataSection(image, *holder))
      continue;
    std::optional<uint64_t> target = image.relocatedPointer(*slot);
    const Section *section = target ? image.sectionAt(*target) : nullptr;
    if (!section)
      continue;
    sites.sections.insert(section->address);
    if (section->executable)
      sites.codeAddresses.insert(*target);
    sites.numbers.erase(*target);
    loads.emplace_back(load, llvm::ConstantInt::get(load->getType(), *target));
  }
  replaceSlotLoads(loads);
  return !loads.empty();
}

} // namespace

ImageReferenceSites imageReferenceSites(const llvm::Function &lifted, const Image &image) {
  // The entry too: a function may start with instructions that leave no IR of their own.
  std::set<uint64_t> pcs;
  if (std::optional<uint64_t> entry = entryAddressOf(lifted))
    pcs.insert(*entry);
  std::set<uint64_t> tagged;
  for (const llvm::Instruction &instruction : llvm::instructions(lifted))
    if (std::optional<uint64_t> pc = pcMetadataOf(instruction))
      tagged.insert(*pc);
  pcs.insert(tagged.begin(), tagged.end());
  // An instruction that only writes a register leaves no IR of its own until the register
  // is used (`lea rax, [rip+buffer]` before `ret`), so the instructions between two tagged
  // ones are decoded too: the function's code runs straight from one to the next.
  Decoder decoder;
  ImageReferenceSites sites;
  std::vector<uint64_t> addresses;
  std::set<uint64_t> ripTargets, untaggedNumbers;
  for (auto pc = pcs.begin(); pc != pcs.end(); ++pc) {
    uint64_t end = std::next(pc) == pcs.end() ? *pc + 1 : *std::next(pc);
    if (end - *pc > MaxUntaggedBytes)
      end = *pc + 1;
    for (uint64_t at = *pc; at < end;) {
      llvm::ArrayRef<uint8_t> bytes = image.bytesAt(at);
      Instr instr;
      if (bytes.empty() ||
          decoder.decode(bytes.data(), bytes.size(), at, instr) != DecodeStatus::Ok)
        break;
      addresses.clear();
      addressesNamedBy(instr, image.isPositionIndependent(), addresses);
      for (uint64_t address : addresses)
        if (const Section *section = addressedSection(image, address)) {
          sites.sections.insert(section->address);
          ripTargets.insert(address);
          if (section->executable)
            sites.codeAddresses.insert(address);
        }
      if (image.isPositionIndependent()) {
        addNumbersNamedBy(instr, sites.numbers);
        addNumbersNamedBy(instr, tagged.count(at) ? sites.numbersAt[at] : untaggedNumbers);
      }
      at = instr.next();
    }
  }
  for (uint64_t address : ripTargets) {
    sites.numbers.erase(address);
    if (untaggedNumbers.count(address))
      sites.ambiguous.insert(address);
  }
  sites.named = std::move(ripTargets);
  return sites;
}

bool rewriteImageAddresses(llvm::Function &flat, const ImageReferenceSites &named,
                           const Image &image,
                           llvm::function_ref<llvm::Function *(uint64_t)> functionAt) {
  ImageReferenceSites sites = named;
  bool changed = replaceRelocatedSlotLoads(flat, image, sites);
  const std::set<uint64_t> &sections = sites.sections;
  if (sections.empty())
    return changed;
  llvm::Module &module = *flat.getParent();
  // In a position-independent image an address is never an instruction's immediate or a
  // displacement beside a register: the constant that instruction itself leaves is a number,
  // even where another instruction names the same value as a RIP-relative address (csmith's
  // `movl $0x7b0e, g_110(%rip)` beside `lea 0x7b0e(%rip), %rsi`; the stored int became the
  // low half of a pointer into .rodata, different on every run).
  auto namedByItsInstruction = [&](const llvm::Instruction &instruction,
                                   const llvm::ConstantInt &constant) {
    auto numbers = sites.numbersAt.find(pcOf(instruction));
    return numbers != sites.numbersAt.end() && isNamedNumber(constant, numbers->second);
  };
  // A vector's lanes: only an address an instruction names exactly, as a vector of numbers
  // (a SIMD constant) may hold any value.
  auto rewriteLanes = [&](llvm::Instruction &instruction, llvm::Use &operand) {
    auto *vectorType = llvm::dyn_cast<llvm::FixedVectorType>(operand.get()->getType());
    uint64_t bits = vectorType ? vectorType->getPrimitiveSizeInBits().getFixedValue() : 0;
    if (!vectorType || bits % 64 || !llvm::isa<llvm::Constant>(operand.get()))
      return;
    llvm::Type *i64 = llvm::Type::getInt64Ty(flat.getContext());
    auto *lanesType = llvm::FixedVectorType::get(i64, bits / 64);
    // `bitcast (<1 x i128> <i128 A> to <2 x i64>)`, as the lifter writes an XMM register,
    // folds to <i64 A, i64 0>.
    const llvm::DataLayout &layout = module.getDataLayout();
    llvm::Constant *lanes =
        llvm::ConstantFoldConstant(llvm::cast<llvm::Constant>(operand.get()), layout);
    if (lanes && lanes->getType() != lanesType)
      lanes = llvm::ConstantFoldCastOperand(llvm::Instruction::BitCast, lanes, lanesType, layout);
    if (!lanes)
      return;
    std::vector<llvm::Constant *> rewritten;
    bool found = false;
    for (unsigned lane = 0; lane < bits / 64; ++lane) {
      llvm::Constant *element = lanes->getAggregateElement(lane);
      auto *value = llvm::dyn_cast_or_null<llvm::ConstantInt>(element);
      rewritten.push_back(element);
      if (!value || !sites.named.count(value->getZExtValue()) ||
          isNamedNumber(*value, sites.numbers) || namedByItsInstruction(instruction, *value))
        continue;
      uint64_t address = value->getZExtValue();
      // A function's address moved into a vector register to be stored with its neighbour
      // (zstd's `lea f; movq %rcx,%xmm0; punpcklqdq; movups`): handed on, as a scalar's.
      if (llvm::Function *function =
              sites.codeAddresses.count(address) ? functionAt(address) : nullptr) {
        rewritten.back() = llvm::ConstantExpr::getPtrToInt(function, i64);
        found = true;
        continue;
      }
      llvm::Constant *pointer = imageDataPointer(module, image, address);
      if (!pointer) {
        addListedAddress(flat,
                         addressedSection(image, address)->executable ? CodeAddressAttribute
                                                                      : UncarriedAddressAttribute,
                         address);
        continue;
      }
      listOriginalAddresses(flat, image, pointer);
      rewritten.back() = llvm::ConstantExpr::getPtrToInt(pointer, i64);
      found = true;
    }
    if (!found)
      return;
    operand.set(llvm::ConstantExpr::getBitCast(llvm::ConstantVector::get(rewritten),
                                               operand.get()->getType()));
    changed = true;
  };
  for (llvm::Instruction &instruction : llvm::instructions(flat))
    for (llvm::Use &operand : instruction.operands()) {
      rewriteLanes(instruction, operand);
      auto *constant = llvm::dyn_cast<llvm::ConstantInt>(operand.get());
      unsigned bits = constant ? constant->getType()->getIntegerBitWidth() : 0;
      if ((bits != 64 && bits != 32) || !isAddressPosition(operand) ||
          isNamedNumber(*constant, sites.numbers) ||
          namedByItsInstruction(instruction, *constant))
        continue;
      std::optional<uint64_t> address = addressIn(constant, sections, image);
      if (!address)
        continue;
      if (sites.ambiguous.count(*address)) {
        addListedAddress(flat, AmbiguousAddressAttribute, *address);
        continue;
      }
      // Compared (`cmp` subtracts), the function's address must be the pointer that was
      // stored; the probe declines a function that computes with it (readSignatureProbe).
      bool compared = llvm::isa<llvm::BinaryOperator>(operand.getUser()) &&
                      llvm::cast<llvm::BinaryOperator>(operand.getUser())->getOpcode() ==
                          llvm::Instruction::Sub;
      // Only an address an instruction names exactly: an integer that merely equals some
      // function's entry stays an integer.
      if (llvm::Function *function =
              bits == 64 && (isHandedOn(operand) || compared) && sites.codeAddresses.count(*address)
                  ? functionAt(*address)
                  : nullptr) {
        operand.set(llvm::ConstantExpr::getPtrToInt(function, constant->getType()));
        changed = true;
        continue;
      }
      llvm::Constant *pointer = imageDataPointer(module, image, *address);
      // A code address means the original function, and an address in memory the recompiled
      // program does not carry means what only the original process has; but either may die
      // in simplification (the return address `push`/`ret` obfuscation leaves in a dead stack
      // slot or scratch register, a PIE VM's handler table), so the probe decides
      // (readSignatureProbe), not this first sight of it. A load that stays keeps its address.
      if (!pointer) {
        addListedAddress(flat,
                         addressedSection(image, *address)->executable ? CodeAddressAttribute
                                                               : UncarriedAddressAttribute,
                         *address);
        continue;
      }
      listOriginalAddresses(flat, image, pointer);
      operand.set(llvm::ConstantExpr::getTrunc(
          llvm::ConstantExpr::getPtrToInt(pointer, llvm::Type::getInt64Ty(flat.getContext())),
          constant->getType()));
      changed = true;
    }
  return changed;
}

} // namespace hoist
