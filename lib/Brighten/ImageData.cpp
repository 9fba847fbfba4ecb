#include "Brighten/ImageData.h"

#include "Brighten/CodePointers.h"
#include "Brighten/ImportSlots.h"
#include "Brighten/IntToPtrRewrite.h"
#include "Brighten/PointerHolders.h"
#include "Image/WritableData.h"

#include "Passes/Passes.h"
#include "hoist/Image.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ConstantRange.h>
#include <llvm/IR/Operator.h>
#include <llvm/ADT/MapVector.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/IR/PatternMatch.h>

#include <map>
#include <set>

namespace hoist {
namespace {

constexpr const char *DataAtOriginalAddressesFlag = "hoist.data-at-original-addresses";

bool keepsDataAtOriginalAddresses(const llvm::Module &module) {
  return module.getModuleFlag(DataAtOriginalAddressesFlag) != nullptr;
}

using namespace llvm::PatternMatch;

constexpr unsigned MaxAddressDepth = 8;

/// Splits `address` into base + rest through add and disjoint or, the base being a term
/// `baseOf` turns into a pointer; rest is null when the address is the base alone. Returns
/// null when no term is a base.
llvm::Constant *splitBase(llvm::Value *address, llvm::Value *&rest, llvm::IRBuilder<> &builder,
                          llvm::function_ref<llvm::Constant *(llvm::Value *)> baseOf,
                          unsigned depth) {
  if (llvm::Constant *base = baseOf(address)) {
    rest = nullptr;
    return base;
  }
  llvm::Value *left = nullptr, *right = nullptr;
  if (depth > MaxAddressDepth ||
      !(match(address, m_Add(m_Value(left), m_Value(right))) ||
        match(address, m_DisjointOr(m_Value(left), m_Value(right)))))
    return nullptr;
  llvm::Value *inner = nullptr;
  if (llvm::Constant *base = splitBase(right, inner, builder, baseOf, depth + 1)) {
    rest = inner ? builder.CreateAdd(left, inner) : left;
    return base;
  }
  if (llvm::Constant *base = splitBase(left, inner, builder, baseOf, depth + 1)) {
    rest = inner ? builder.CreateAdd(inner, right) : right;
    return base;
  }
  return nullptr;
}

/// An image address put together from its halves, `(A & ~0xffffffff) | zext(A's low 32 bits)`
/// (SROA's merge of a 32-bit write into a register that held the address: `mov eax, ...`),
/// is the address again. InstCombine finds this for an instruction, not once the address is a
/// constant expression, whose low half folds into `ptrtoint @image.x to i32`.
bool foldJoinedHalves(llvm::Function &function) {
  llvm::SmallVector<std::pair<llvm::Instruction *, llvm::Value *>> joined;
  for (llvm::Instruction &instruction : llvm::instructions(function)) {
    llvm::Value *whole = nullptr, *low = nullptr;
    const llvm::APInt *mask = nullptr;
    if (!match(&instruction, m_c_Or(m_And(m_Value(whole), m_APInt(mask)), m_ZExt(m_Value(low)))))
      continue;
    llvm::Value *wholePointer = nullptr, *lowPointer = nullptr;
    unsigned lowBits = low->getType()->getIntegerBitWidth();
    if (match(whole, m_PtrToInt(m_Value(wholePointer))) &&
        match(low, m_PtrToInt(m_Value(lowPointer))) && wholePointer == lowPointer &&
        *mask == llvm::APInt::getHighBitsSet(mask->getBitWidth(), mask->getBitWidth() - lowBits))
      joined.emplace_back(&instruction, whole);
  }
  for (auto [instruction, whole] : joined) {
    instruction->replaceAllUsesWith(whole);
    instruction->eraseFromParent();
  }
  return !joined.empty();
}

/// Records on `global` (carrying `section`) the slots at `slots` (addresses, sorted) under
/// `kind` (PossiblePointersMetadata, OriginalAddressesMetadata): the original address of the
/// global's first byte (`base`), then each slot's offset from it, followed by its value from
/// `values` (by position in `slots`) if given.
void markSlots(llvm::GlobalVariable &global, const Section &section, uint64_t base,
               llvm::ArrayRef<uint64_t> slots, const char *kind,
               llvm::ArrayRef<uint64_t> values = {}) {
  auto first = std::lower_bound(slots.begin(), slots.end(), section.address);
  auto last = std::lower_bound(first, slots.end(), section.address + section.size);
  if (first == last)
    return;
  llvm::Type *i64 = llvm::Type::getInt64Ty(global.getContext());
  auto number = [&](uint64_t value) {
    return llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i64, value));
  };
  std::vector<llvm::Metadata *> operands = {number(base)};
  for (auto slot = first; slot != last; ++slot) {
    operands.push_back(number(*slot - base));
    if (!values.empty())
      operands.push_back(number(values[slot - slots.begin()]));
  }
  global.setMetadata(kind, llvm::MDNode::get(global.getContext(), operands));
}

/// Whether brightened code carries the memory at `address`: a library's object an executable
/// copies (by name), or a carried data section (as a global).
bool isCarriedAddress(const Image &image, uint64_t address) {
  if (image.copiedObjectAt(address))
    return true;
  const Section *section = addressedSection(image, address);
  return section && isCarriedDataSection(image, *section);
}

/// A pointer `offset` bytes into `global`.
llvm::Constant *pointerInto(llvm::GlobalVariable &global, uint64_t offset) {
  llvm::Type *i64 = llvm::Type::getInt64Ty(global.getContext());
  if (!global.getValueType()->isArrayTy())
    return llvm::ConstantExpr::getGetElementPtr(llvm::Type::getInt8Ty(global.getContext()),
                                                &global, llvm::ConstantInt::get(i64, offset));
  return llvm::ConstantExpr::getGetElementPtr(
      global.getValueType(), &global,
      llvm::ArrayRef<llvm::Constant *>{llvm::ConstantInt::get(i64, 0),
                                       llvm::ConstantInt::get(i64, offset)});
}

/// What the loader writes into `section`: each pointer slot (8 bytes) with the pointer's
/// target, an address in the image (relocatedPointer) or another module's symbol.
struct LoaderSlot {
  uint64_t slot;
  std::optional<uint64_t> target;
  const SymbolPointer *symbol = nullptr;
};

std::vector<LoaderSlot> loaderSlotsIn(const Image &image, const Section &section) {
  std::vector<LoaderSlot> slots;
  uint64_t end = section.address + section.size;
  auto relocated = std::lower_bound(image.relocatedPointers().begin(),
                                    image.relocatedPointers().end(),
                                    std::make_pair(section.address, uint64_t(0)));
  for (; relocated != image.relocatedPointers().end() && relocated->first < end; ++relocated)
    slots.push_back({relocated->first, relocated->second});
  auto symbol = std::lower_bound(
      image.symbolPointers().begin(), image.symbolPointers().end(), section.address,
      [](const SymbolPointer &pointer, uint64_t address) { return pointer.slot < address; });
  for (; symbol != image.symbolPointers().end() && symbol->slot < end; ++symbol)
    slots.push_back({symbol->slot, std::nullopt, &*symbol});
  llvm::sort(slots, [](const LoaderSlot &a, const LoaderSlot &b) { return a.slot < b.slot; });
  return slots;
}

/// A slot's code address as the original program has it, a pointer field the brightened
/// function may replace (pointSlotsAtFunctions).
llvm::Constant *originalCodePointer(llvm::LLVMContext &context, uint64_t address) {
  return llvm::ConstantExpr::getIntToPtr(
      llvm::ConstantInt::get(llvm::Type::getInt64Ty(context), address),
      llvm::PointerType::getUnqual(context));
}

/// What a pointer slot holds in the recompiled program: a pointer into the global carrying its
/// target (or into the library's object an executable copies), or another module's symbol by
/// name. A code address stays the original's, as a pointer field, until the function there is
/// brightened (pointSlotsAtFunctions): lifted code compares jump targets with those integers
/// (a jump table's or a VM's handler table).
llvm::Constant *slotPointer(llvm::Module &module, const Image &image, const LoaderSlot &slot) {
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *i8 = llvm::Type::getInt8Ty(context);
  if (slot.target && image.isExecutable(*slot.target))
    return originalCodePointer(context, *slot.target);
  if (slot.symbol) {
    llvm::Constant *object = module.getNamedValue(slot.symbol->name);
    if (!object)
      object = new llvm::GlobalVariable(module, i8, false, llvm::GlobalValue::ExternalLinkage,
                                        nullptr, slot.symbol->name);
    return llvm::ConstantExpr::getGetElementPtr(
        i8, object, llvm::ConstantInt::get(llvm::Type::getInt64Ty(context), slot.symbol->addend));
  }
  return imageDataPointer(module, image, *slot.target);
}

/// The original address of the first byte of `region`'s global: the run's address rounded
/// down to 64 bytes, with zeros before the run. The global is aligned to 64 bytes (or to more,
/// as far as the address is, up to a page), so that every address in the run keeps its
/// alignment up to 64 in the recompiled program: `movdqa` and `vmovdqa64` on an array that was
/// aligned for them. (`.data` at 0x4018 with an array at 0x4050: a global starting at 0x4018
/// and aligned 16 put the array at 8 modulo 16, and the optimizer took the aligned store for
/// undefined behaviour and the function for unreachable.)
/// Data kept at its original addresses (keepDataAtOriginalAddresses) starts at the run's own
/// address, where every object has its alignment already, and zeros before it could overlap
/// the run before, which the link places too.
uint64_t globalStart(const llvm::Module &module, const Section &region) {
  if (keepsDataAtOriginalAddresses(module))
    return region.address;
  return region.address & ~uint64_t(63);
}

/// The most bytes one global carries for a run of sections (carriedRegion): past it, a huge
/// `.bss` would become that many bytes of zeros in the object.
constexpr uint64_t MaxCarriedRegion = uint64_t(64) << 20;

/// The run of carried sections `section` belongs to: each starting where the one before ends,
/// all writable at run time or all not, together at most MaxCarriedRegion bytes. One global
/// carries the run (named after its first section), so that the run's layout is the
/// original's: an address one past one section's last object is the next section's start, and
/// code's `&array[n]` (a loop's bound) must stay one past the array, not become the start of a
/// global the linker places elsewhere.
Section carriedRegion(const Image &image, const Section &section) {
  bool writable = writableAtRunTime(section);
  uint64_t begin = section.address, end = section.address + section.size;
  auto joins = [&](const Section *other) {
    return other && isCarriedDataSection(image, *other) &&
           writableAtRunTime(*other) == writable &&
           std::max(end, other->address + other->size) - std::min(begin, other->address) <=
               MaxCarriedRegion;
  };
  const Section *first = &section;
  while (begin) {
    const Section *before = image.sectionAt(begin - 1);
    if (!joins(before) || before->address + before->size != begin)
      break;
    first = before;
    begin = before->address;
  }
  while (true) {
    const Section *after = image.sectionAt(end);
    if (!joins(after) || after->address != end)
      break;
    end = after->address + after->size;
  }
  Section region = *first;
  region.size = end - begin;
  region.fileSize = std::min(region.fileSize, region.size);
  return region;
}

/// The global holding `section`'s bytes (zero past the file's): constant and private for
/// read-only data; for writable data a variable with external linkage, since its state is
/// what the brightened functions leave for their callers (and an internal one that is only
/// written would lose its stores to the optimizer). Where the loader writes pointers, the
/// global holds the pointers the recompiled program's loader writes instead (slotPointer): a
/// packed struct of byte runs and pointers.
llvm::GlobalVariable *sectionGlobal(llvm::Module &module, const Image &image,
                                    const Section &section) {
  std::string name = "image" + section.name;
  if (llvm::GlobalVariable *existing = module.getNamedGlobal(name))
    return existing;
  llvm::LLVMContext &context = module.getContext();
  // Zeros first, up to the run's address (globalStart).
  uint64_t start = globalStart(module, section);
  std::vector<uint8_t> bytes(section.address - start + section.size, 0);
  image.read(section.address, bytes.data() + (section.address - start), section.size);
  bool constant = !writableAtRunTime(section);
  llvm::Align alignment(start ? std::min<uint64_t>(uint64_t(1) << llvm::countr_zero(start), 4096)
                              : 4096);
  auto linkage = constant ? llvm::GlobalValue::PrivateLinkage : llvm::GlobalValue::ExternalLinkage;
  std::vector<LoaderSlot> slots = loaderSlotsIn(image, section);
  std::erase_if(slots, [&](const LoaderSlot &slot) {
    return slot.slot + 8 > section.address + section.size;
  });
  // A slot whose target is not carried keeps the original address: as an integer, or for
  // code as a pointer field that pointSlotsAtFunctions may point at the brightened function.
  std::vector<uint64_t> originalAddresses;
  std::vector<uint64_t> originalTargets;
  std::erase_if(slots, [&](const LoaderSlot &slot) {
    if (slot.symbol)
      return false;
    bool carried = isCarriedAddress(image, *slot.target);
    if (!carried) {
      uint64_t offset = slot.slot - start;
      for (unsigned i = 0; i < 8 && offset + i < bytes.size(); ++i)
        bytes[offset + i] = static_cast<uint8_t>(*slot.target >> (8 * i));
      originalAddresses.push_back(slot.slot);
      originalTargets.push_back(*slot.target);
    }
    return !carried && !image.isExecutable(*slot.target);
  });
  // The slots come sorted (loaderSlotsIn), and so do these.
  bool atOriginalAddress = keepsDataAtOriginalAddresses(module);
  auto mark = [&](llvm::GlobalVariable &global) {
    markSlots(global, section, start, originalAddresses, OriginalAddressesMetadata,
              originalTargets);
    // At the binary's address a word the linker stored means what it did there.
    if (atOriginalAddress) {
      global.setSection(originalAddressSection(start));
      return;
    }
    markSlots(global, section, start, image.possiblePointers(), PossiblePointersMetadata);
    markPointerHolders(global, section, start, image);
  };
  if (slots.empty()) {
    auto *initializer = llvm::ConstantDataArray::get(context, llvm::ArrayRef(bytes));
    auto *global = new llvm::GlobalVariable(module, initializer->getType(), constant, linkage,
                                            initializer, name);
    global->setAlignment(alignment);
    mark(*global);
    return global;
  }
  // The type first: a slot may point into this very section.
  std::vector<llvm::Type *> fields;
  std::vector<std::pair<uint64_t, uint64_t>> runs;   // byte runs between the slots
  uint64_t at = 0;
  for (const LoaderSlot &slot : slots) {
    uint64_t offset = slot.slot - start;
    if (offset < at)
      continue;   // overlapping slots: the first one wins, as it does in `runs`
    if (offset > at) {
      fields.push_back(llvm::ArrayType::get(llvm::Type::getInt8Ty(context), offset - at));
      runs.emplace_back(at, offset);
    }
    fields.push_back(llvm::PointerType::getUnqual(context));
    runs.emplace_back(offset, offset + 8);
    at = offset + 8;
  }
  if (at < bytes.size()) {
    fields.push_back(llvm::ArrayType::get(llvm::Type::getInt8Ty(context), bytes.size() - at));
    runs.emplace_back(at, bytes.size());
  }
  llvm::StructType *type = llvm::StructType::get(context, fields, /*isPacked=*/true);
  auto *global = new llvm::GlobalVariable(module, type, constant, linkage, nullptr, name);
  global->setAlignment(alignment);
  std::vector<llvm::Constant *> values;
  auto slot = slots.begin();
  for (auto [begin, end] : runs) {
    if (fields[values.size()]->isPointerTy()) {
      while (slot->slot - start != begin)
        ++slot;
      values.push_back(slotPointer(module, image, *slot));
      continue;
    }
    values.push_back(llvm::ConstantDataArray::get(
        context, llvm::ArrayRef(bytes).slice(begin, end - begin)));
  }
  global->setInitializer(llvm::ConstantStruct::get(type, values));
  mark(*global);
  return global;
}

/// Whether `symbol` names an object of the program's own: not the toolchain's (`__dso_handle`,
/// `_CRT_MT`), not a static inside a function (`count.1`, which C cannot name), not a copy of
/// a shared library's object (`stdout`), which an alias of the same name would take over.
bool isProgramObject(const Symbol &symbol, const Image &image) {
  llvm::StringRef name = symbol.name;
  if (symbol.kind != Symbol::Kind::Object || symbol.source == Symbol::Source::Dynamic ||
      name.empty() || name.starts_with("_") || name.contains('.') ||
      image.copiedObjectAt(symbol.address))
    return false;
  return llvm::none_of(image.imports(), [&](const Import &import) { return import.name == name; });
}

} // namespace

std::optional<std::pair<const llvm::GlobalVariable *, llvm::ConstantRange>>
offsetsInto(const llvm::Value *pointer, const llvm::DataLayout &layout) {
  llvm::ConstantRange offsets(llvm::APInt(64, 0));
  for (unsigned depth = 0; depth < 8; ++depth) {
    pointer = pointer->stripPointerCasts();
    if (const auto *global = llvm::dyn_cast<llvm::GlobalVariable>(pointer))
      return std::pair{global, offsets};
    const auto *gep = llvm::dyn_cast<llvm::GEPOperator>(pointer);
    if (!gep)
      break;
    llvm::MapVector<llvm::Value *, llvm::APInt> variables;
    llvm::APInt constant(64, 0);
    if (!gep->collectOffset(layout, 64, variables, constant))
      break;
    offsets = offsets.add(llvm::ConstantRange(constant));
    for (auto &[variable, scale] : variables) {
      llvm::ConstantRange range =
          llvm::computeConstantRange(variable, /*ForSigned=*/true).sextOrTrunc(64);
      offsets = offsets.add(range.multiply(llvm::ConstantRange(scale)));
    }
    pointer = gep->getPointerOperand();
  }
  // Somewhere in a global, at an offset not followed.
  if (const auto *global = llvm::dyn_cast<llvm::GlobalVariable>(llvm::getUnderlyingObject(pointer)))
    return std::pair{global, llvm::ConstantRange::getFull(64)};
  return std::nullopt;
}

namespace {

/// The address of a slot marked `kind` (markSlots) of the carried data `global` that an access
/// of `size` bytes at an offset in `offsets` may overlap, leaving out the original-address
/// slots whose code address `isMapped` says will be the brightened function's.
std::optional<uint64_t> markedSlotInRange(const llvm::GlobalVariable &global, const char *kind,
                                          const llvm::ConstantRange &offsets, uint64_t size,
                                          llvm::function_ref<bool(uint64_t)> isMapped) {
  const llvm::MDNode *slots = global.getMetadata(kind);
  if (!slots || slots->getNumOperands() == 0)
    return std::nullopt;
  auto number = [&](unsigned i) {
    return llvm::mdconst::extract<llvm::ConstantInt>(slots->getOperand(i))->getZExtValue();
  };
  uint64_t base = number(0);
  bool withTargets = kind == llvm::StringRef(OriginalAddressesMetadata);
  for (unsigned i = 1; i < slots->getNumOperands(); i += withTargets ? 2 : 1) {
    int64_t slot = static_cast<int64_t>(number(i));
    llvm::ConstantRange overlapping(llvm::APInt(64, slot - static_cast<int64_t>(size) + 1, true),
                                    llvm::APInt(64, slot + 8, true));
    if (offsets.intersectWith(overlapping).isEmptySet())
      continue;
    if (withTargets && isMapped(number(i + 1)))
      continue;
    return base + static_cast<uint64_t>(slot);
  }
  return std::nullopt;
}

/// Whether every use of `value` compares it with a constant: a jump's target checked against
/// the targets the lifter resolved (a switch over a jump table's or a VM's handler addresses).
/// Whether `value` is only called through the code-pointer map.
bool isOnlyCalled(const llvm::Value &value) {
  return llvm::all_of(value.users(),
                      [](const llvm::User *user) { return isCodePointerMapping(*user); });
}

/// Whether `value`, an original code address, is only compared (a jump target) or called
/// (through the code-pointer map, which knows the original addresses).
bool isOnlyComparedOrCalled(const llvm::Value &value) {
  return llvm::all_of(value.users(), [&](const llvm::User *user) {
    if (const auto *compare = llvm::dyn_cast<llvm::ICmpInst>(user))
      return llvm::isa<llvm::Constant>(compare->getOperand(0)) ||
             llvm::isa<llvm::Constant>(compare->getOperand(1));
    if (const auto *branch = llvm::dyn_cast<llvm::SwitchInst>(user))
      return branch->getCondition() == &value;
    return isCodePointerMapping(*user);
  });
}

/// Why `load`, `size` bytes at `offsets` into `global`, may read what the recompiled program
/// does not have, or nullopt.
std::optional<std::string> whyUncarried(const llvm::LoadInst &load,
                                        const llvm::GlobalVariable &global,
                                        const llvm::ConstantRange &offsets, uint64_t size,
                                        llvm::function_ref<bool(uint64_t)> isBrightenedEntry) {
  // Narrower than a pointer, it does not carry one: an integer array's element beside a
  // function pointer (gzip's ct_tally counts in arrays next to one), whose index the
  // optimizer cannot bound, reads the slot only if the index runs out of its array.
  if (size < 8)
    return std::nullopt;
  // A slot holding a brightened function's entry will point at that function
  // (pointSlotsAtFunctions): whatever the code does with the value, it has the function's
  // address in the recompiled program, as the original had the relocated entry.
  if (std::optional<uint64_t> slot = markedSlotInRange(global, OriginalAddressesMetadata,
                                                       offsets, size, isBrightenedEntry);
      slot && !isOnlyComparedOrCalled(load))
    return llvm::formatv("may read the original address stored at {0:x} in the binary's data "
                         "(code or memory the recompiled program does not carry) and use it "
                         "as a value",
                         *slot)
        .str();
  if (std::optional<uint64_t> slot =
          markedSlotInRange(global, PossiblePointersMetadata, offsets, size, {});
      slot && !isOnlyCalled(load))
    return llvm::formatv("may read the value at {0:x} in the binary's data, which may be an "
                         "address the linker stored there (a position-dependent image has no "
                         "relocation to tell), and the recompiled program's data is elsewhere",
                         *slot)
        .str();
  return std::nullopt;
}

} // namespace

bool isCarriedDataSection(const Image &image, const Section &section) {
  if (section.executable || !section.mapped)
    return false;
  // A slot whose value the image cannot tell (an IFUNC's choice, a TLS offset) cannot be
  // carried; the pointers the loader writes are (sectionGlobal).
  auto opaque = std::lower_bound(image.opaqueSlots().begin(), image.opaqueSlots().end(),
                                 section.address);
  if (opaque != image.opaqueSlots().end() && *opaque < section.address + section.size)
    return false;
  if (!section.writable)
    return true;
  // Writable sections that hold data, and `.data.rel.ro`, whose pointers the loader writes
  // (the image knows them only from an ELF's dynamic relocations); the GOT, `.idata`, `.tls`
  // and the like hold imports' addresses (ImportSlots.h) or thread-local templates.
  llvm::StringRef name = section.name;
  if (name.starts_with(".data.rel") && image.format() != ImageFormat::Elf)
    return false;
  return name == ".data" || name == ".bss" || name.starts_with(".data.") ||
         name.starts_with(".bss.");
}

std::vector<uint64_t> codeAddressesInCarriedData(const Image &image) {
  std::vector<uint64_t> targets;
  for (auto [slot, target] : image.relocatedPointers())
    if (const Section *section = image.sectionAt(slot);
        section && isCarriedDataSection(image, *section) && image.isExecutable(target))
      targets.push_back(target);
  llvm::sort(targets);
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  return targets;
}

std::optional<uint64_t> carriedGlobalAddress(const llvm::GlobalVariable &global,
                                             const Image &image) {
  llvm::StringRef name = global.getName();
  if (!name.consume_front("image") || !global.getParent())
    return std::nullopt;
  for (const Section &section : image.sections())
    if (section.name == name && isCarriedDataSection(image, section))
      return globalStart(*global.getParent(), section);
  return std::nullopt;
}

const Section *addressedSection(const Image &image, uint64_t address) {
  if (const Section *section = image.sectionAt(address))
    return section;
  return image.sectionEndingAt(address);
}

llvm::Constant *imageDataPointer(llvm::Module &module, const Image &image, uint64_t address) {
  // A library's object the executable holds a copy of (stdout, optind): the recompiled
  // program's is the library's own, by name; the file's bytes there are only zeros.
  if (const CopiedObject *copied = image.copiedObjectAt(address)) {
    llvm::Type *bytes = llvm::ArrayType::get(llvm::Type::getInt8Ty(module.getContext()),
                                             std::max<uint64_t>(copied->size, 1));
    auto *object = llvm::dyn_cast<llvm::GlobalVariable>(
        module.getOrInsertGlobal(copied->name, bytes));
    return object ? pointerInto(*object, address - copied->address) : nullptr;
  }
  if (!isCarriedAddress(image, address))
    return nullptr;
  Section region = carriedRegion(image, *addressedSection(image, address));
  // The start of a run that follows another carried one it could not join (too large): one
  // past the end of the run before, or the start of this one; the code cannot tell which.
  if (address == region.address && region.address)
    if (const Section *before = image.sectionAt(address - 1);
        before && isCarriedDataSection(image, *before) && before->address + before->size == address)
      return nullptr;
  return pointerInto(*sectionGlobal(module, image, region), address - globalStart(module, region));
}

llvm::Constant *ImageDataPass::imagePointer(llvm::Function &function, uint64_t address) const {
  if (llvm::Constant *pointer = imageDataPointer(*function.getParent(), image_, address)) {
    listOriginalAddresses(function, image_, pointer);
    return pointer;
  }
  if (addressedSection(image_, address))
    function.addFnAttr(ImageDataAttribute, "0x" + llvm::utohexstr(address, true));
  return nullptr;
}

void listOriginalAddresses(llvm::Function &function, const Image &image,
                           const llvm::Constant *pointer) {
  const auto *global =
      llvm::dyn_cast<llvm::GlobalVariable>(llvm::getUnderlyingObject(pointer));
  const llvm::MDNode *slots = global ? global->getMetadata(OriginalAddressesMetadata) : nullptr;
  if (!slots)
    return;
  for (unsigned i = 2; i < slots->getNumOperands(); i += 2) {
    uint64_t target =
        llvm::mdconst::extract<llvm::ConstantInt>(slots->getOperand(i))->getZExtValue();
    addListedAddress(function,
                     image.isExecutable(target) ? CodeAddressAttribute : UncarriedAddressAttribute,
                     target);
  }
}

std::optional<std::string>
whyReadsUncarriedSlot(const llvm::Function &probe,
                      llvm::function_ref<bool(uint64_t)> isBrightenedEntry) {
  const llvm::DataLayout &layout = probe.getDataLayout();
  for (const llvm::Instruction &instruction : llvm::instructions(probe)) {
    // Loads the optimizer could not fold: at a variable offset (`ops[i]`), or from writable
    // data (a `.data` hook).
    if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) {
      if (auto into = offsetsInto(load->getPointerOperand(), layout))
        if (std::optional<std::string> reason =
                whyUncarried(*load, *into->first, into->second,
                             layout.getTypeStoreSize(load->getType()), isBrightenedEntry))
          return reason;
    }
  }
  return std::nullopt;
}

llvm::PreservedAnalyses ImageDataPass::run(llvm::Function &function,
                                           llvm::FunctionAnalysisManager &) {
  // A slot the optimizer found the address of only now.
  bool changed = replaceImportSlotLoads(function, image_);
  changed |= foldJoinedHalves(function);
  // In a position-independent image every address the code computes is RIP-relative, and
  // ImageReferences made each of those a pointer into its global before optimization. An
  // integer constant here is then a number, whatever section address it equals: a struct
  // field's offset (zlib's `s + 0xb68`, inside a library's .dynsym at base 0) taken for an
  // address made a store through the struct a store into a constant global, which the
  // optimizer deleted.
  bool constantsAreAddresses = !image_.isPositionIndependent();
  // Constant addresses arrive folded: `load i64, ptr inttoptr (i64 0x4018 to ptr)`.
  for (llvm::Instruction &instruction : llvm::instructions(function))
    for (llvm::Use &operand : instruction.operands()) {
      auto *expression = llvm::dyn_cast<llvm::ConstantExpr>(operand.get());
      if (!expression || expression->getOpcode() != llvm::Instruction::IntToPtr)
        continue;
      auto *address = llvm::dyn_cast<llvm::ConstantInt>(expression->getOperand(0));
      if (!address)
        continue;
      if (!constantsAreAddresses) {
        // Every address of a position-independent image became a pointer before this; one
        // that is left (an address the lifter folded with a number that an instruction also
        // names) would be used as the absolute number it is: decline, never guess.
        if (addressedSection(image_, address->getZExtValue()))
          function.addFnAttr(ImageDataAttribute, "0x" + llvm::utohexstr(address->getZExtValue(), true));
        continue;
      }
      if (llvm::Constant *pointer = imagePointer(function, address->getZExtValue())) {
        operand.set(pointer);
        changed = true;
      }
    }
  // A term of an address is an image address as a constant, or one ImageReferences rewrote
  // (`ptrtoint @image.data + 8`) that comes back as an address.
  auto baseOf = [&](llvm::Value *term) -> llvm::Constant * {
    if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(term))
      return constantsAreAddresses ? imagePointer(function, constant->getZExtValue()) : nullptr;
    if (auto *expression = llvm::dyn_cast<llvm::ConstantExpr>(term);
        expression && expression->getOpcode() == llvm::Instruction::PtrToInt)
      return expression->getOperand(0);
    return nullptr;
  };
  changed |= rewriteIntToPtrs(
      function, [&](llvm::IntToPtrInst &cast, llvm::IRBuilder<> &builder) -> llvm::Value * {
        llvm::Value *rest = nullptr;
        llvm::Constant *base = splitBase(cast.getOperand(0), rest, builder, baseOf, 0);
        if (!base || !rest)
          return base;
        return builder.CreateGEP(builder.getInt8Ty(), base, rest);
      });
  return preservedAfter(changed);
}

void keepDataAtOriginalAddresses(llvm::Module &module, const Image &image) {
  if (image.isPositionIndependent() || image.format() != ImageFormat::Elf ||
      keepsDataAtOriginalAddresses(module))
    return;
  module.addModuleFlag(llvm::Module::Warning, DataAtOriginalAddressesFlag, 1);
}

std::string originalAddressSection(uint64_t address) {
  return ".hoist.data." + llvm::utohexstr(address, true);
}

void defineImageDataSymbols(llvm::Module &module, const Image &image) {
  for (const Section &section : image.sections()) {
    if (!section.writable || !isCarriedDataSection(image, section))
      continue;
    Section region = carriedRegion(image, section);
    llvm::GlobalVariable *global = module.getNamedGlobal("image" + region.name);
    if (!global)
      continue;
    for (const Symbol &symbol : image.symbols())
      if (isProgramObject(symbol, image) && symbol.address >= section.address &&
          symbol.address < section.address + section.size && !module.getNamedValue(symbol.name))
        llvm::GlobalAlias::create(llvm::Type::getInt8Ty(module.getContext()), 0,
                                  llvm::GlobalValue::ExternalLinkage, symbol.name,
                                  pointerInto(*global,
                                              symbol.address - globalStart(module, region)),
                                  &module);
  }
}

namespace {

/// Calls `rewrite` on each field of each carried global's initializer in `module` (each run's
/// global once) and sets the initializer where a field changed. `rewrite` returns the field's
/// new value, or null to keep it.
void rewriteSlotFields(llvm::Module &module, const Image &image,
                       llvm::function_ref<llvm::Constant *(const llvm::GlobalVariable &,
                                                           llvm::Constant *)>
                           rewrite) {
  for (const Section &section : image.sections()) {
    // Each run's global once: it is named after the run's first section.
    if (!isCarriedDataSection(image, section) ||
        carriedRegion(image, section).address != section.address)
      continue;
    llvm::GlobalVariable *global = module.getNamedGlobal("image" + section.name);
    auto *fields = global ? llvm::dyn_cast<llvm::ConstantStruct>(global->getInitializer())
                          : nullptr;
    if (!fields)
      continue;
    std::vector<llvm::Constant *> values;
    bool changed = false;
    for (unsigned i = 0; i < fields->getNumOperands(); ++i) {
      llvm::Constant *value = fields->getOperand(i);
      if (llvm::Constant *rewritten = rewrite(*global, value)) {
        value = rewritten;
        changed = true;
      }
      values.push_back(value);
    }
    if (changed)
      global->setInitializer(llvm::ConstantStruct::get(fields->getType(), values));
  }
}

} // namespace

std::vector<UnmappedSlots>
pointSlotsAtFunctions(llvm::Module &module, const Image &image,
                      const std::map<uint64_t, llvm::Function *> &functions) {
  std::vector<UnmappedSlots> unmapped;
  rewriteSlotFields(module, image,
                    [&](const llvm::GlobalVariable &global,
                        llvm::Constant *value) -> llvm::Constant * {
                      auto *cast = llvm::dyn_cast<llvm::ConstantExpr>(value);
                      auto *address = cast && cast->getOpcode() == llvm::Instruction::IntToPtr
                                          ? llvm::dyn_cast<llvm::ConstantInt>(cast->getOperand(0))
                                          : nullptr;
                      if (!address)
                        return nullptr;
                      if (auto function = functions.find(address->getZExtValue());
                          function != functions.end())
                        return function->second;
                      if (unmapped.empty() || unmapped.back().global != &global)
                        unmapped.push_back({&global, {}});
                      unmapped.back().targets.push_back(address->getZExtValue());
                      return nullptr;
                    });
  return unmapped;
}

void unpointSlots(llvm::Module &module, const Image &image, llvm::Function &function,
                  uint64_t address) {
  rewriteSlotFields(module, image,
                    [&](const llvm::GlobalVariable &, llvm::Constant *value) -> llvm::Constant * {
                      return value == &function
                                 ? originalCodePointer(module.getContext(), address)
                                 : nullptr;
                    });
}

void addListedAddress(llvm::Function &function, const char *attribute, uint64_t address) {
  std::string hex = "0x" + llvm::utohexstr(address, true);
  llvm::Attribute known = function.getFnAttribute(attribute);
  if (!known.isValid()) {
    function.addFnAttr(attribute, hex);
    return;
  }
  llvm::SmallVector<llvm::StringRef, 4> listed;
  known.getValueAsString().split(listed, ',');
  if (!llvm::is_contained(listed, hex))
    function.addFnAttr(attribute, (known.getValueAsString() + "," + hex).str());
}

namespace {

/// The address of `addresses` that `operand` is, or holds inside a constant expression (a load
/// from `inttoptr (i64 0x3fb8 to ptr)`, a GOT slot), as 64 bits or their low 32.
std::optional<uint64_t> listedIn(const llvm::Value *operand, const std::set<uint64_t> &addresses) {
  if (const auto *constant = llvm::dyn_cast<llvm::ConstantInt>(operand)) {
    unsigned bits = constant->getBitWidth();
    if (bits != 64 && bits != 32)
      return std::nullopt;
    uint64_t value = constant->getZExtValue();
    for (uint64_t address : addresses)
      if (value == (bits == 64 ? address : address & 0xffffffffu))
        return address;
    return std::nullopt;
  }
  if (const auto *expression = llvm::dyn_cast<llvm::ConstantExpr>(operand))
    for (const llvm::Value *inner : expression->operands())
      if (std::optional<uint64_t> address = listedIn(inner, addresses))
        return address;
  return std::nullopt;
}

} // namespace

std::optional<uint64_t> listedAddressSurvives(const llvm::Function &function,
                                              const char *attribute) {
  llvm::Attribute known = function.getFnAttribute(attribute);
  if (!known.isValid())
    return std::nullopt;
  std::set<uint64_t> addresses;
  llvm::SmallVector<llvm::StringRef, 4> listed;
  known.getValueAsString().split(listed, ',');
  for (llvm::StringRef hex : listed)
    if (uint64_t address = 0; !hex.drop_front(2).getAsInteger(16, address))
      addresses.insert(address);
  for (const llvm::Instruction &instruction : llvm::instructions(function)) {
    // Called through the code-pointer map, an original code address is what the map expects.
    if (isCodePointerMapping(instruction))
      continue;
    for (const llvm::Value *operand : instruction.operands())
      if (std::optional<uint64_t> address = listedIn(operand, addresses))
        return address;
  }
  return std::nullopt;
}

} // namespace hoist
