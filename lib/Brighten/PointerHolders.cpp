#include "Brighten/PointerHolders.h"

#include "Brighten/ImageData.h"
#include "Brighten/Signature.h"
#include "hoist/Image.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Support/FormatVariadic.h>

#include <algorithm>
#include <vector>

namespace hoist {
namespace {

using Extent = std::pair<uint64_t, uint64_t>;   // [start, end)

/// The symbols' objects of a section, sorted by start, with `furthestEnd[i]` the largest end
/// of the first i + 1.
struct SectionObjects {
  std::vector<Extent> objects;
  std::vector<uint64_t> furthestEnd;

  /// How many objects start at or before `address`.
  size_t startingBy(uint64_t address) const {
    return static_cast<size_t>(
        std::upper_bound(objects.begin(), objects.end(), address,
                         [](uint64_t at, const Extent &object) { return at < object.first; }) -
        objects.begin());
  }

  /// The object holding `slot`, or nullopt where no symbol describes the data there.
  std::optional<Extent> around(uint64_t slot) const {
    size_t count = startingBy(slot);
    if (count == 0 || furthestEnd[count - 1] <= slot)
      return std::nullopt;
    for (size_t i = count; i-- > 0;)
      if (objects[i].first <= slot && slot < objects[i].second)
        return objects[i];
    return std::nullopt;
  }

  /// The stretch of `section` around `slot` that no symbol describes: from the end of the
  /// objects before it to the start of the one after it.
  Extent gapAround(const Section &section, uint64_t slot) const {
    size_t count = startingBy(slot);
    return {count == 0 ? section.address : std::max(section.address, furthestEnd[count - 1]),
            count == objects.size() ? section.address + section.size : objects[count].first};
  }
};

bool isTextByte(uint8_t byte) {
  return (byte >= 0x20 && byte < 0x7f) || byte == '\t' || byte == '\n' || byte == '\r';
}

/// How many bytes of `bytes` are string literals (text, each ending in its NUL), with zeros
/// between them, before other data. Where no symbol says where objects are, a string literal
/// is an object of its own, whatever data follows it (string literals are merged apart from
/// other constants: `.rodata.str1.1`).
size_t leadingStrings(llvm::ArrayRef<uint8_t> bytes) {
  size_t at = 0, stringsEnd = 0;
  while (at < bytes.size()) {
    if (bytes[at] == 0) {
      ++at;
      continue;
    }
    size_t end = at;
    while (end < bytes.size() && isTextByte(bytes[end]))
      ++end;
    if (end == bytes.size() || bytes[end] != 0)
      break;
    at = stringsEnd = end + 1;
  }
  return stringsEnd;
}

/// How many bytes at the end of `bytes` are string literals, with zeros between them, after
/// other data.
size_t trailingStrings(llvm::ArrayRef<uint8_t> bytes) {
  size_t at = bytes.size(), stringsStart = bytes.size();
  while (at > 0) {
    if (bytes[at - 1] == 0) {
      --at;
      continue;
    }
    size_t start = at;
    while (start > 0 && isTextByte(bytes[start - 1]))
      --start;
    // Text that follows other data (a pointer's low bytes) is no string of its own.
    if (start == at || (start > 0 && bytes[start - 1] != 0))
      break;
    at = stringsStart = start;
  }
  return bytes.size() - stringsStart;
}

/// `gap`, around `slot` in read-only `section`, without the string literals at its ends: a
/// pointer to one of them (a format handed to printf) does not reach the pointer words.
Extent withoutStrings(Extent gap, uint64_t slot, const Image &image) {
  std::vector<uint8_t> bytes(gap.second - gap.first);
  if (bytes.empty() || !image.read(gap.first, bytes.data(), bytes.size()))
    return gap;
  uint64_t before = std::min<uint64_t>(slot - gap.first, bytes.size());
  uint64_t after = std::min<uint64_t>(slot + 8 - gap.first, bytes.size());
  uint64_t start = gap.first + leadingStrings(llvm::ArrayRef(bytes).take_front(before));
  uint64_t end = gap.second - trailingStrings(llvm::ArrayRef(bytes).drop_front(after));
  return {start, end};
}

/// The original address of the pointer holder that an access at `offsets` into `global` may
/// touch, or nullopt.
std::optional<uint64_t> holderAt(const llvm::GlobalVariable &global,
                                 const llvm::ConstantRange &offsets) {
  const llvm::MDNode *holders = global.getMetadata(PointerHoldersMetadata);
  if (!holders)
    return std::nullopt;
  auto number = [&](unsigned i) {
    return llvm::mdconst::extract<llvm::ConstantInt>(holders->getOperand(i))->getZExtValue();
  };
  uint64_t base = number(0);
  for (unsigned i = 1; i + 1 < holders->getNumOperands(); i += 2) {
    llvm::ConstantRange holder(llvm::APInt(64, number(i)), llvm::APInt(64, number(i + 1)));
    if (!offsets.intersectWith(holder).isEmptySet())
      return base + number(i);
  }
  return std::nullopt;
}

/// The holder a pointer `constant` is, or computes with (`ptrtoint (gep @image.data, 8)`),
/// points into, or nullopt.
std::optional<uint64_t> holderIn(const llvm::Constant &constant, const llvm::DataLayout &layout) {
  if (constant.getType()->isPointerTy())
    if (auto into = offsetsInto(&constant, layout))
      return holderAt(*into->first, into->second);
  if (!llvm::isa<llvm::ConstantExpr>(constant) && !llvm::isa<llvm::ConstantAggregate>(constant))
    return std::nullopt;
  for (const llvm::Use &operand : constant.operands())
    if (std::optional<uint64_t> holder = holderIn(*llvm::cast<llvm::Constant>(operand), layout))
      return holder;
  return std::nullopt;
}

/// How `use` of a holder's address (or a value computed from it) hands it on where no read is
/// traced, or nullopt. Follows the values computed from it (`seen` breaks phi cycles).
std::optional<const char *> handsOn(const llvm::Use &use,
                                    llvm::SmallPtrSetImpl<const llvm::User *> &seen) {
  const llvm::User *user = use.getUser();
  const llvm::DataLayout &layout =
      llvm::cast<llvm::Instruction>(user)->getDataLayout();
  if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(user)) {
    // A read at a place offsetsInto follows is whyReadsUncarriedSlot's to check; one through
    // a pointer computed on the way (a phi, a select) is not followed there. A read narrower
    // than a pointer reads no pointer (whyReadsUncarriedSlot).
    if (offsetsInto(load->getPointerOperand(), layout) ||
        layout.getTypeStoreSize(load->getType()) < 8)
      return std::nullopt;
    return "reads through it where nothing traces the read";
  }
  if (llvm::isa<llvm::StoreInst>(user))
    return use.getOperandNo() == 0 ? std::optional("stores it") : std::nullopt;
  if (const auto *exchange = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(user))
    return use.get() == exchange->getPointerOperand() ? std::nullopt : std::optional("stores it");
  if (const auto *update = llvm::dyn_cast<llvm::AtomicRMWInst>(user))
    return use.get() == update->getPointerOperand() ? std::nullopt : std::optional("stores it");
  if (const auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(user)) {
    switch (intrinsic->getIntrinsicID()) {
    case llvm::Intrinsic::lifetime_start:
    case llvm::Intrinsic::lifetime_end:
    case llvm::Intrinsic::memset:
    case llvm::Intrinsic::prefetch:
    case llvm::Intrinsic::assume:
      return std::nullopt;
    case llvm::Intrinsic::memcpy:
    case llvm::Intrinsic::memmove:
    case llvm::Intrinsic::memcpy_inline:
      // Copying into it writes the holder; copying out of it carries its words elsewhere.
      return use.getOperandNo() == 0 ? std::nullopt : std::optional("copies out of it");
    default:
      return "passes it to a call";
    }
  }
  if (const auto *call = llvm::dyn_cast<llvm::CallBase>(user)) {
    if (call->isCallee(&use))
      return std::nullopt;
    // A probe returns its results through the sink.
    if (const llvm::Function *callee = call->getCalledFunction();
        callee && callee->getName() == ProbeSinkName)
      return "returns it";
    return "passes it to a call";
  }
  if (llvm::isa<llvm::ReturnInst>(user))
    return "returns it";
  if (llvm::isa<llvm::ICmpInst>(user))
    return std::nullopt;
  if (llvm::isa<llvm::PHINode, llvm::SelectInst, llvm::GetElementPtrInst, llvm::CastInst,
                llvm::BinaryOperator, llvm::FreezeInst>(user)) {
    if (!seen.insert(user).second)
      return std::nullopt;
    for (const llvm::Use &next : user->uses())
      if (std::optional<const char *> how = handsOn(next, seen))
        return how;
    return std::nullopt;
  }
  return "uses it in a way not followed";
}

} // namespace

void markPointerHolders(llvm::GlobalVariable &global, const Section &section, uint64_t base,
                        const Image &image) {
  llvm::ArrayRef<uint64_t> slots = image.possiblePointers();
  auto first = std::lower_bound(slots.begin(), slots.end(), section.address);
  auto last = std::lower_bound(first, slots.end(), section.address + section.size);
  if (first == last)
    return;
  SectionObjects symbols;
  for (const Symbol &symbol : image.symbols())
    if (symbol.address >= section.address && symbol.address < section.address + section.size)
      symbols.objects.emplace_back(symbol.address, symbol.address + symbol.size);
  llvm::sort(symbols.objects);
  for (const Extent &object : symbols.objects)
    symbols.furthestEnd.push_back(
        std::max(symbols.furthestEnd.empty() ? 0 : symbols.furthestEnd.back(), object.second));
  std::vector<Extent> holders;
  for (auto slot = first; slot != last; ++slot) {
    uint64_t value = 0;
    const Section *target = image.read(*slot, &value, sizeof value) ? image.sectionAt(value)
                                                                    : nullptr;
    if (!target || target->executable)
      continue;
    if (std::optional<Extent> object = symbols.around(*slot))
      holders.push_back(*object);
    else if (Extent gap = symbols.gapAround(section, *slot); section.writable)
      holders.push_back(gap);
    else
      holders.push_back(withoutStrings(gap, *slot, image));
  }
  if (holders.empty())
    return;
  llvm::sort(holders);
  holders.erase(std::unique(holders.begin(), holders.end()), holders.end());
  llvm::Type *i64 = llvm::Type::getInt64Ty(global.getContext());
  auto number = [&](uint64_t value) {
    return llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i64, value));
  };
  std::vector<llvm::Metadata *> operands = {number(base)};
  for (auto [start, end] : holders) {
    operands.push_back(number(start - base));
    operands.push_back(number(end - base));
  }
  global.setMetadata(PointerHoldersMetadata, llvm::MDNode::get(global.getContext(), operands));
}

std::optional<std::string> whyHandsOnPointerHolder(const llvm::Function &probe) {
  const llvm::DataLayout &layout = probe.getDataLayout();
  llvm::SmallPtrSet<const llvm::User *, 16> seen;
  for (const llvm::Instruction &instruction : llvm::instructions(probe))
    for (const llvm::Use &operand : instruction.operands()) {
      const auto *constant = llvm::dyn_cast<llvm::Constant>(operand.get());
      if (!constant || llvm::isa<llvm::ConstantData>(constant) ||
          llvm::isa<llvm::Function>(constant))
        continue;
      std::optional<uint64_t> holder = holderIn(*constant, layout);
      if (!holder)
        continue;
      if (std::optional<const char *> how = handsOn(operand, seen))
        return llvm::formatv("hands on the address of the data at {0:x} ({1}), which holds a "
                             "value the linker may have stored there as an address (a "
                             "position-dependent image has no relocation to tell): code reading "
                             "it through that pointer would get the original address",
                             *holder, *how)
            .str();
    }
  return std::nullopt;
}

} // namespace hoist
