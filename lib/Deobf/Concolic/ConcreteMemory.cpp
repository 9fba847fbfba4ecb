#include "Deobf/Concolic/ConcreteMemory.h"

#include "Deobf/Concolic/LocalSimplifier.h"
#include "Deobf/Concolic/PossibleTargets.h"
#include "Image/WritableData.h"
#include "Support/Error.h"

#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/ADT/Hashing.h>
#include <llvm/IR/Constants.h>

#include <algorithm>
#include <array>
#include <limits>

namespace hoist {
namespace {

constexpr unsigned MaxAccessBytes = 64;
/// A load at a symbolic address is answered as a select over at most this many addresses.
constexpr unsigned MaxFewAddresses = 16;
/// Larger writes of a known size are taken as writes of unknown size (cheaper, as safe).
constexpr uint64_t MaxClobberBytes = 4096;

/// Whether the stack byte at `offset` belongs to an inlined call's return address.
bool isReturnAddressByte(const MemoryState &state, int64_t offset) {
  auto slot = state.returnSlots.upper_bound(offset);
  return slot != state.returnSlots.begin() && offset < *std::prev(slot) + 8;
}

/// Forgets the stack bytes at or above `from`, but not the return addresses.
void forgetStackFrom(MemoryState &state, int64_t from) {
  for (auto it = state.stack.lower_bound(from); it != state.stack.end();)
    it = isReturnAddressByte(state, it->first) ? std::next(it) : state.stack.erase(it);
}

bool inAny(const std::vector<AddressRange> &ranges, uint64_t begin, uint64_t end) {
  for (const AddressRange &range : ranges)
    if (begin < range.end && range.begin < end)
      return true;
  return false;
}

/// "0x404028 (.bss)".
std::string describeAddress(const Image &image, uint64_t address) {
  std::string text = formatAddress(address);
  if (const Section *section = image.sectionAt(address))
    text += " (" + section->name + ")";
  return text;
}

} // namespace

std::string describeDataRead(const Image &image, const WritableDataRead &read) {
  std::string range = formatAddress(read.address) + "-" + formatAddress(read.address + read.size);
  std::string bytes = std::to_string(read.size) + (read.size == 1 ? " byte at " : " bytes at ") +
                      describeAddress(image, read.address);
  if (read.assumed)
    return "reads " + bytes + " as the file holds them, as --concrete-memory assumes; the " +
           "program may write them: " + read.why;
  return "reads " + bytes + " as symbolic: the program may write them before the call (" +
         read.why + "); --concrete-memory " + range + " assumes the file's bytes";
}

std::string describeAssumptions(const Image &image, const std::set<uint64_t> &addresses) {
  std::string text;
  for (uint64_t address : addresses)
    text += (text.empty() ? "" : ", ") + describeAddress(image, address);
  return text;
}

ConcreteMemory::ConcreteMemory(const Image &image, const DeobfuscateOptions &options,
                               const llvm::DataLayout &layout, UnwrittenData &unwritten)
    : image_(image), options_(options), layout_(layout), unwritten_(unwritten) {
  // An import slot is filled by the loader: what the file holds there is not what runs.
  for (const Import &import : image.imports())
    importSlots_.push_back({import.slotAddress, import.slotAddress + 8});
}

bool ConcreteMemory::concreteAbsolute(uint64_t address, unsigned size) const {
  uint64_t end = address + size;
  if (end < address || inAny(options_.symbolic, address, end) || inAny(importSlots_, address, end))
    return false;
  for (const AddressRange &range : options_.concrete)
    if (range.contains(address) && end <= range.end)
      return true;
  const Section *section = image_.sectionAt(address);
  return section && section->mapped && end <= section->address + section->size;
}

ConcreteMemory::Initial ConcreteMemory::initialByte(uint64_t address, std::string *why) const {
  const Section *section = image_.sectionAt(address);
  if (!section || !writableAtRunTime(*section))
    return Initial::File;
  std::optional<std::string> written = unwritten_.mayBeWritten(address, 1);
  if (!written)
    return Initial::File;
  if (why)
    *why = *written;
  for (const AddressRange &range : options_.concrete)
    if (range.contains(address))
      return Initial::Assumed;
  return Initial::Symbolic;
}

void ConcreteMemory::noteWritableRead(uint64_t address, uint64_t size) {
  for (uint64_t i = 0; i < size; ++i) {
    if (state_.absolute.count(address + i))
      continue;
    std::string why;
    Initial initial = initialByte(address + i, &why);
    if (initial == Initial::File)
      continue;
    bool assumed = initial == Initial::Assumed;
    if (assumed)
      state_.assumedReads.insert(address);
    writableReads_.push_back({address, size, assumed, why});
    return;
  }
}

MemoryByte ConcreteMemory::absoluteByte(const MemoryState &state, uint64_t address) const {
  if (auto found = state.absolute.find(address); found != state.absolute.end())
    return found->second;
  const Section *section = image_.sectionAt(address);
  if (section && state.clobberedSections.count(section->address))
    return MemoryByte{};
  // Writable data the program may have set before the call is not the file's.
  if (initialByte(address) == Initial::Symbolic)
    return MemoryByte{};
  uint8_t byte = 0;
  // As the process sees it: a PIE's pointer tables (a threaded VM's handlers) are relocated.
  if (!image_.readRelocated(address, &byte, 1))
    return MemoryByte{};
  MemoryByte known;
  known.kind = MemoryByte::Kind::Constant;
  known.byte = byte;
  return known;
}

void ConcreteMemory::normalize(MemoryState &state) const {
  for (auto it = state.absolute.begin(); it != state.absolute.end();) {
    if (it->second.kind != MemoryByte::Kind::Constant) {
      ++it;
      continue;
    }
    uint64_t address = it->first;
    MemoryByte byte = it->second;
    it = state.absolute.erase(it);
    if (!(absoluteByte(state, address) == byte))
      it = std::next(state.absolute.emplace_hint(it, address, byte));
  }
}

llvm::Value *ConcreteMemory::knownLoad(llvm::IRBuilderBase &ir, llvm::Value *address,
                                       llvm::Type *type) {
  uint64_t size = layout_.getTypeStoreSize(type);
  if (size == 0 || size > MaxAccessBytes || !entryStack_)
    return nullptr;
  AbstractValue where = classify(address, entryStack_);
  std::vector<MemoryByte> bytes;
  bytes.reserve(size);
  if (where.isStack()) {
    for (uint64_t i = 0; i < size; ++i) {
      int64_t offset = where.offset() + static_cast<int64_t>(i);
      if (log_)
        log_->readStack(offset);
      auto found = state_.stack.find(offset);
      if (found == state_.stack.end())
        return nullptr;
      bytes.push_back(found->second);
    }
  } else if (where.isConstant() && concreteAbsolute(where.value, size)) {
    noteWritableRead(where.value, size);
    for (uint64_t i = 0; i < size; ++i) {
      if (log_)
        log_->readAbsolute(where.value + i);
      bytes.push_back(absoluteByte(state_, where.value + i));
    }
  } else {
    return loadAtFewAddresses(ir, address, type);
  }

  const MemoryByte &first = bytes.front();
  auto all = [&](auto predicate) { return std::all_of(bytes.begin(), bytes.end(), predicate); };
  if (all([](const MemoryByte &b) { return b.kind == MemoryByte::Kind::Constant; })) {
    llvm::APInt value(size * 8, 0);
    for (uint64_t i = 0; i < size; ++i)
      value.insertBits(bytes[i].byte, i * 8, 8);
    llvm::Constant *constant = llvm::ConstantInt::get(type->getContext(), value);
    if (where.isConstant())
      imageReads_ = llvm::hash_combine(imageReads_, where.value, llvm::hash_value(value));
    if (type->isIntegerTy())
      return constant;
    return llvm::ConstantFoldCastOperand(llvm::Instruction::BitCast, constant, type, layout_);
  }
  bool sameValue = true;
  for (uint64_t i = 0; i < size; ++i)
    sameValue &= bytes[i].kind == first.kind && bytes[i].value == first.value &&
                 bytes[i].stackOffset == first.stackOffset && bytes[i].reg == first.reg &&
                 bytes[i].index == first.index + i && bytes[i].size == first.size;
  if (!sameValue)
    return nullptr;
  if (first.kind == MemoryByte::Kind::StackPointer && first.index == 0 && size == 8 &&
      type->isIntegerTy(64))
    return materialize(ir, AbstractValue::stack(first.stackOffset), type, entryStack_);
  llvm::Value *value = first.value;
  if (first.kind == MemoryByte::Kind::EntryRegister)
    value = entryRegisters_[first.reg];
  else if (first.kind != MemoryByte::Kind::Value)
    return nullptr;
  if (first.index == 0 && size == first.size && value->getType() == type)
    return value;
  if (value->getType()->isIntegerTy() && type->isIntegerTy()) {
    if (first.index)
      value = ir.CreateLShr(value, first.index * 8);
    return ir.CreateTrunc(value, type);
  }
  return nullptr;
}

llvm::Value *ConcreteMemory::loadAtFewAddresses(llvm::IRBuilderBase &ir, llvm::Value *address,
                                                llvm::Type *type) {
  uint64_t size = layout_.getTypeStoreSize(type);
  if (!type->isIntegerTy() || !address->getType()->isIntegerTy(64))
    return nullptr;
  // Not through a phi: an index merged from other paths (a generalized loop's) stays a load,
  // so that a dispatch it steers refutes the generalization (ConcolicLifter::jumpIndirect).
  bool throughPhi = false;
  std::optional<std::vector<uint64_t>> addresses =
      possibleTargets(address, MaxFewAddresses, &throughPhi);
  if (!addresses || throughPhi)
    return nullptr;
  std::vector<llvm::Constant *> values;
  for (uint64_t at : *addresses) {
    if (!concreteAbsolute(at, size))
      return nullptr;
    llvm::APInt value(size * 8, 0);
    for (uint64_t i = 0; i < size; ++i) {
      MemoryByte byte = absoluteByte(state_, at + i);
      if (byte.kind != MemoryByte::Kind::Constant)
        return nullptr;
      value.insertBits(byte.byte, i * 8, 8);
    }
    values.push_back(llvm::ConstantInt::get(type->getContext(), value));
  }
  for (size_t k = 0; k < addresses->size(); ++k) {
    uint64_t at = (*addresses)[k];
    noteWritableRead(at, size);
    for (uint64_t i = 0; i < size && log_; ++i)
      log_->readAbsolute(at + i);
    imageReads_ = llvm::hash_combine(imageReads_, at, 
                                     llvm::hash_value(llvm::cast<llvm::ConstantInt>(values[k])->getValue()));
  }
  // The address is one of them: the last needs no comparison.
  llvm::Value *value = values.back();
  for (size_t k = values.size() - 1; k-- > 0;)
    value = ir.CreateSelect(ir.CreateICmpEQ(address, ir.getInt64((*addresses)[k])), values[k],
                            value);
  return value;
}

std::vector<MemoryByte> ConcreteMemory::bytesOf(llvm::Value *value, unsigned size) const {
  std::vector<MemoryByte> bytes(size);
  llvm::Constant *constant = constantLanes(value);
  if (constant && !constant->getType()->isIntegerTy())
    constant = llvm::ConstantFoldCastOperand(
        llvm::Instruction::BitCast, constant,
        llvm::IntegerType::get(value->getContext(), size * 8), layout_);
  if (auto *integer = llvm::dyn_cast_or_null<llvm::ConstantInt>(constant);
      integer && integer->getBitWidth() == size * 8) {
    for (unsigned i = 0; i < size; ++i) {
      bytes[i].kind = MemoryByte::Kind::Constant;
      bytes[i].byte = static_cast<uint8_t>(integer->getValue().extractBitsAsZExtValue(8, i * 8));
    }
    return bytes;
  }
  AbstractValue known = value->getType()->isIntegerTy(64) ? classify(value, entryStack_)
                                                          : AbstractValue{};
  for (unsigned i = 0; i < size; ++i) {
    bytes[i].index = static_cast<uint8_t>(i);
    bytes[i].size = static_cast<uint8_t>(size);
    if (known.isStack()) {
      bytes[i].kind = MemoryByte::Kind::StackPointer;
      bytes[i].stackOffset = known.offset();
    } else if (auto entry = std::find(entryRegisters_.begin(), entryRegisters_.end(), value);
               entry != entryRegisters_.end()) {
      bytes[i].kind = MemoryByte::Kind::EntryRegister;
      bytes[i].reg = static_cast<uint8_t>(entry - entryRegisters_.begin());
    } else {
      bytes[i].kind = MemoryByte::Kind::Value;
      bytes[i].value = value;
    }
  }
  return bytes;
}

void ConcreteMemory::stored(llvm::Value *address, llvm::Value *value) {
  if (!entryStack_)
    return;
  uint64_t size = layout_.getTypeStoreSize(value->getType());
  AbstractValue where = classify(address, entryStack_);
  if (size > MaxAccessBytes) {
    clobber(address, static_cast<unsigned>(std::min<uint64_t>(size, MaxClobberBytes)));
    return;
  }
  if (where.isStack()) {
    std::vector<MemoryByte> bytes = bytesOf(value, static_cast<unsigned>(size));
    for (uint64_t i = 0; i < size; ++i) {
      int64_t offset = where.offset() + static_cast<int64_t>(i);
      state_.stack[offset] = bytes[i];
      if (log_)
        log_->wroteStack(offset);
    }
    return;
  }
  if (where.isConstant()) {
    // Code the proof's sweep did not decode writes here: what it proved may not hold.
    if (unwritten_.storeSeen(where.value, instructionAddress_))
      proofContradicted_ = true;
    if (!concreteAbsolute(where.value, static_cast<unsigned>(size)))
      return;
    std::vector<MemoryByte> bytes = bytesOf(value, static_cast<unsigned>(size));
    for (uint64_t i = 0; i < size; ++i) {
      state_.absolute[where.value + i] = bytes[i];
      if (log_)
        log_->wroteAbsolute(where.value + i);
    }
    return;
  }
  clobber(address, static_cast<unsigned>(size));
}

void ConcreteMemory::clobber(llvm::Value *address, unsigned size) {
  clobber(classify(address, entryStack_), size);
}

void ConcreteMemory::clobber(const AbstractValue &where, unsigned size) {
  if (where.isStack()) {
    for (unsigned i = 0; i < size; ++i)
      state_.stack.erase(where.offset() + static_cast<int64_t>(i));
    return;
  }
  if (where.isConstant()) {
    for (unsigned i = 0; i < size; ++i)
      if (concreteAbsolute(where.value + i, 1))
        state_.absolute[where.value + i] = MemoryByte{};
    return;
  }
  // A symbolic address: a stack array indexed by a symbolic value may write any of the stack
  // but the return addresses; a global array's base says which section it writes.
  if (where.touchesStack) {
    forgetStackFrom(state_, std::numeric_limits<int64_t>::min());
  }
  if (const Section *section = image_.sectionAt(where.constantPart))
    if (section->writable)
      clobberSection(*section);
}

void ConcreteMemory::clobberSection(const Section &section) {
  state_.clobberedSections.insert(section.address);
  state_.absolute.erase(state_.absolute.lower_bound(section.address),
                        state_.absolute.lower_bound(section.address + section.size));
}

void ConcreteMemory::externalCall(llvm::ArrayRef<AbstractValue> registers, bool mayWriteGlobals) {
  std::vector<int64_t> escaped;
  for (const AbstractValue &value : registers) {
    if (value.isStack())
      escaped.push_back(value.offset());
    if (value.isConstant())
      if (const Section *section = image_.sectionAt(value.value))
        if (section->writable)
          clobberSection(*section);
  }
  for (const auto &[offset, byte] : state_.stack)
    if (byte.kind == MemoryByte::Kind::StackPointer)
      escaped.push_back(byte.stackOffset);
  for (int64_t from : escaped) {
    noteExternalRead(from, frameEnd(from));
    forgetObjectAt(from);
  }
  if (mayWriteGlobals)
    for (const Section &section : image_.sections())
      if (section.mapped && section.writable)
        clobberSection(section);
}

int64_t ConcreteMemory::frameEnd(int64_t from) const {
  auto slot = state_.returnSlots.upper_bound(from);
  return slot == state_.returnSlots.end() ? std::numeric_limits<int64_t>::max() : *slot;
}

void ConcreteMemory::forgetObjectAt(int64_t from) {
  // The object runs at most to the end of its frame; the return addresses stay.
  int64_t to = frameEnd(from);
  for (auto it = state_.stack.lower_bound(from); it != state_.stack.end() && it->first < to;)
    it = isReturnAddressByte(state_, it->first) ? std::next(it) : state_.stack.erase(it);
}

void ConcreteMemory::knownCall(llvm::ArrayRef<WrittenObject> writes) {
  for (const WrittenObject &object : writes) {
    if (object.bytes && *object.bytes <= MaxClobberBytes) {
      clobber(object.where, static_cast<unsigned>(*object.bytes));
    } else if (object.where.isStack()) {
      forgetObjectAt(object.where.offset());
    } else if (object.where.isConstant()) {
      if (const Section *section = image_.sectionAt(object.where.value))
        if (section->writable)
          clobberSection(*section);
    } else {
      clobber(object.where, 1);   // symbolic: the stack or a section, as a store would
    }
  }
}

AbstractValue ConcreteMemory::stackQuad(int64_t offset) const {
  std::array<MemoryByte, 8> bytes;
  for (int64_t i = 0; i < 8; ++i) {
    if (log_)
      log_->readStack(offset + i);
    auto found = state_.stack.find(offset + i);
    if (found == state_.stack.end())
      return AbstractValue{};
    bytes[i] = found->second;
  }
  uint64_t value = 0;
  bool constant = true, pointer = true;
  for (unsigned i = 0; i < 8; ++i) {
    constant &= bytes[i].kind == MemoryByte::Kind::Constant;
    value |= uint64_t(bytes[i].byte) << (8 * i);
    pointer &= bytes[i].kind == MemoryByte::Kind::StackPointer && bytes[i].index == i &&
               bytes[i].size == 8 && bytes[i].stackOffset == bytes[0].stackOffset;
  }
  if (constant)
    return AbstractValue::constant(value);
  if (pointer)
    return AbstractValue::stack(bytes[0].stackOffset);
  if (bytes[0].kind == MemoryByte::Kind::Value && bytes[0].size == 8 &&
      bytes[0].value->getType()->isIntegerTy(64))
    return classify(bytes[0].value, entryStack_);
  return AbstractValue{};
}

void ConcreteMemory::forgetStack(int64_t offset, uint64_t size) {
  state_.stack.erase(state_.stack.lower_bound(offset),
                     state_.stack.lower_bound(offset + static_cast<int64_t>(size)));
}

} // namespace hoist
