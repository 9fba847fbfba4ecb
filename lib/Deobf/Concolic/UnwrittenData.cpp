#include "Deobf/Concolic/UnwrittenData.h"

#include "Decode/Decoder.h"
#include "Deobf/Concolic/LocalPointer.h"
#include "Image/WritableData.h"
#include "Support/Error.h"

#include <llvm/ADT/StringRef.h>

#include <algorithm>
#include <set>

namespace hoist {
namespace {

/// The constant address an operand refers to, and whether a register is added to it (an
/// indexed access at a constant base). Nullopt when no constant address is in the operand.
struct ConstantReference {
  uint64_t address = 0;
  bool indexed = false;
};

std::optional<ConstantReference> constantReference(const Instr &instr, const Operand &operand,
                                                   bool positionIndependent) {
  if (operand.isImm() && !operand.immRelative && !positionIndependent)
    return ConstantReference{operand.imm, false};
  if (!operand.isMem() || operand.segment == ZYDIS_REGISTER_FS ||
      operand.segment == ZYDIS_REGISTER_GS)
    return std::nullopt;
  if (operand.base == ZYDIS_REGISTER_RIP)
    return ConstantReference{instr.next() + static_cast<uint64_t>(operand.disp), false};
  // A PIE's code holds no absolute address (it would need a text relocation).
  if (positionIndependent)
    return std::nullopt;
  bool indexed = operand.base != ZYDIS_REGISTER_NONE || operand.index != ZYDIS_REGISTER_NONE;
  return ConstantReference{static_cast<uint64_t>(operand.disp), indexed};
}

} // namespace

std::optional<UnwrittenData::Region> UnwrittenData::regionAt(uint64_t address) const {
  const Section *section = image_.sectionAt(address);
  if (!section || !writableAtRunTime(*section))
    return std::nullopt;
  Region region{section->address, section->address + section->size};
  auto next = objects_.upper_bound(address);
  if (next != objects_.begin()) {
    auto holder = std::prev(next);
    if (address < holder->second)
      return Region{holder->first, holder->second};
    region.begin = std::max(region.begin, holder->second);
  }
  if (next != objects_.end())
    region.end = std::min(region.end, next->first);
  return region;
}

bool UnwrittenData::taint(uint64_t address, const std::string &reason) {
  std::optional<Region> region = regionAt(address);
  return region && written_.emplace(region->begin, reason).second;
}

void UnwrittenData::taintPointer(uint64_t address, const std::string &reason) {
  taint(address, reason);
  if (toolchainEnds_.count(address))
    return;
  if (std::optional<Region> region = regionAt(address); region && region->begin == address)
    taint(address - 1, reason);
}

void UnwrittenData::collectObjects() {
  for (const Symbol &symbol : image_.symbols()) {
    // The end of the C runtime's transactional-memory clone table: crtstuff compares it and
    // hands it to libitm, which reads the table below it; it is no pointer past the object
    // that the linker happened to put before it.
    if (symbol.name == "__TMC_END__")
      toolchainEnds_.insert(symbol.address);
    if (symbol.kind != Symbol::Kind::Object || symbol.size == 0)
      continue;
    const Section *section = image_.sectionAt(symbol.address);
    if (!section || !writableAtRunTime(*section))
      continue;
    uint64_t begin = symbol.address;
    uint64_t end = std::min(symbol.address + symbol.size, section->address + section->size);
    // Overlapping symbols (aliases, a union's views) are one object.
    auto after = objects_.upper_bound(begin);
    if (after != objects_.begin() && std::prev(after)->second > begin)
      after = std::prev(after);
    while (after != objects_.end() && after->first < end) {
      begin = std::min(begin, after->first);
      end = std::max(end, after->second);
      after = objects_.erase(after);
    }
    objects_.emplace(begin, end);
  }
}

void UnwrittenData::sweepCode(const Section &section) {
  llvm::ArrayRef<uint8_t> bytes = image_.bytesAt(section.address);
  uint64_t size = std::min<uint64_t>(bytes.size(), section.size);
  std::set<uint64_t> restarts;
  for (const Symbol &symbol : image_.symbols())
    if (symbol.kind == Symbol::Kind::Function && symbol.address > section.address &&
        symbol.address < section.address + size)
      restarts.insert(symbol.address);
  std::set<uint64_t> functionStarts = restarts;
  for (const Symbol &symbol : image_.symbols())
    if (symbol.kind == Symbol::Kind::Function && symbol.address == section.address)
      functionStarts.insert(symbol.address);
  Decoder decoder;
  bool pie = image_.isPositionIndependent();
  auto restart = restarts.begin();
  for (uint64_t offset = 0; offset < size;) {
    uint64_t address = section.address + offset;
    Instr instr;
    uint64_t next = address + 1;
    if (decoder.decode(bytes.data() + offset, size - offset, address, instr) == DecodeStatus::Ok) {
      next = instr.next();
      for (unsigned i = 0; i < instr.operandCount; ++i) {
        const Operand &operand = instr.op(i);
        std::optional<ConstantReference> reference = constantReference(instr, operand, pie);
        if (!reference)
          continue;
        if (operand.isImm() || operand.isAgen) {
          if (!regionAt(reference->address))
            continue;
          // Whether the pointer stays local is decided after the sweep, in the function a
          // symbol starts (a stripped image's whole section is no function to follow it in).
          auto after = functionStarts.upper_bound(address);
          if (after == functionStarts.begin()) {
            taintPointer(reference->address, "its address is taken at " + instr.describe() +
                                                 " outside any function symbol");
            continue;
          }
          uint64_t end = after == functionStarts.end() ? section.address + size : *after;
          taken_.push_back({reference->address, address, *std::prev(after), end});
        } else if (operand.written) {
          taint(reference->address, "written at " + instr.describe());
          // A constant base with an index may be biased (`table - 8`): the next object too.
          if (reference->indexed)
            taint(reference->address + operand.bits / 8, "written at " + instr.describe());
        }
      }
    }
    // A function symbol inside what was decoded starts a sweep of its own.
    while (restart != restarts.end() && *restart < next) {
      if (*restart > address) {
        next = *restart;
        break;
      }
      ++restart;
    }
    offset = next - section.address;
  }
}

// The largest function a taken address is followed in: the analysis passes over all of it.
constexpr uint64_t LocalPointerMaxBytes = 16384;

std::optional<std::string> UnwrittenData::escapes(const TakenAddress &taken) {
  auto [cached, fresh] = functions_.try_emplace(taken.begin);
  FunctionCode &function = cached->second;
  if (taken.end - taken.begin > LocalPointerMaxBytes)
    return "its function is over " + std::to_string(LocalPointerMaxBytes) + " bytes";
  if (fresh) {
    function.begin = taken.begin;
    function.end = taken.end;
    llvm::ArrayRef<uint8_t> bytes = image_.bytesAt(taken.begin);
    uint64_t size = std::min<uint64_t>(bytes.size(), taken.end - taken.begin);
    Decoder decoder;
    for (uint64_t at = taken.begin; at < taken.end;) {
      Instr instr;
      uint64_t offset = at - taken.begin;
      if (offset >= size || decoder.decode(bytes.data() + offset, size - offset, at, instr) !=
                                DecodeStatus::Ok) {
        function.complete = false;
        break;
      }
      function.instructions.push_back(instr);
      at = instr.next();
    }
  }
  auto taker = std::find_if(function.instructions.begin(), function.instructions.end(),
                            [&](const Instr &instr) { return instr.address == taken.taker; });
  if (taker == function.instructions.end())
    return std::string("it is taken by code outside its function's sweep");
  std::optional<Region> object = regionAt(taken.address);
  // The code addresses the object holds, the targets of jumps read from it: 64-bit ones
  // (relocated) and 32-bit ones, at every 4-byte step, as scanData looks for pointers.
  auto targetsStayIn = [&](uint64_t begin, uint64_t end) {
    auto outside = [&](uint64_t value) {
      const Section *section = image_.sectionAt(value);
      return section && section->executable && (value < begin || value >= end);
    };
    for (uint64_t slot = object->begin; slot + 4 <= object->end; slot += 4) {
      uint64_t wide = 0;
      uint32_t narrow = 0;
      if ((slot + 8 <= object->end && image_.readRelocated(slot, &wide, 8) && outside(wide)) ||
          (image_.read(slot, &narrow, 4) && outside(narrow)))
        return false;
    }
    return true;
  };
  return localPointerEscapes(function, taker - function.instructions.begin(),
                             {object->begin, object->end}, targetsStayIn);
}

void UnwrittenData::scanData(const Section &section) {
  bool pie = image_.isPositionIndependent();
  // Past the file's bytes (`.bss`) the data is zero: no pointers.
  uint64_t end = section.address + std::min(section.size, section.fileSize);
  for (uint64_t slot = (section.address + 3) & ~uint64_t(3); slot + 4 <= end; slot += 4) {
    uint64_t pointer = 0;
    if (slot % 8 == 0 && image_.readRelocated(slot, &pointer, 8) && regionAt(pointer))
      taintPointer(pointer, "a pointer to it is in the data at " + formatAddress(slot));
    // A non-PIE may also hold a 32-bit absolute address (`.long buffer`).
    uint32_t narrow = 0;
    if (!pie && image_.read(slot, &narrow, 4) && regionAt(narrow))
      taintPointer(narrow, "a pointer to it is in the data at " + formatAddress(slot));
  }
}

void UnwrittenData::build() {
  built_ = true;
  collectObjects();
  for (const Section &section : image_.sections()) {
    if (!section.mapped)
      continue;
    if (section.executable)
      sweepCode(section);
    // A relocation table's offsets and addends are the loader's to read: the pointers they
    // make are scanned where the loader writes them, relocated.
    else if (!llvm::StringRef(section.name).starts_with(".rel"))
      scanData(section);
  }
  for (const TakenAddress &taken : taken_)
    if (std::optional<std::string> why = escapes(taken))
      taintPointer(taken.address, "its address is taken at " + formatAddress(taken.taker) +
                                      " and " + *why);
  taken_.clear();
  auto loaderWrites = [&](uint64_t begin, uint64_t size, std::string why) {
    loaderWritten_.emplace(begin, std::make_pair(begin + size, std::move(why)));
  };
  for (const CopiedObject &object : image_.copiedObjects())
    loaderWrites(object.address, std::max<uint64_t>(object.size, 1),
                 "the loader copies " + object.name + " there");
  for (const SymbolPointer &pointer : image_.symbolPointers())
    loaderWrites(pointer.slot, 8, "the loader writes a pointer to " + pointer.name + " there");
  for (uint64_t slot : image_.opaqueSlots())
    loaderWrites(slot, 8, "the loader writes a relocation there");
  // The GOT's reserved entries (the loader's link map and resolver) and `.dynamic`'s
  // DT_DEBUG have no relocation.
  for (const Section &section : image_.sections())
    if (writableAtRunTime(section) && (llvm::StringRef(section.name).starts_with(".got") ||
                                        section.name == ".dynamic"))
      loaderWrites(section.address, section.size, "the loader fills " + section.name);
  for (const Import &import : image_.imports())
    loaderWrites(import.slotAddress, 8, "the loader writes " + import.name + "'s address there");
}

std::optional<std::string> UnwrittenData::mayBeWritten(uint64_t address, uint64_t size) {
  if (!built_)
    build();
  uint64_t end = address + size;
  if (end < address)
    return std::string("the range wraps around");
  for (auto it = loaderWritten_.begin(); it != loaderWritten_.end() && it->first < end; ++it)
    if (it->second.first > address)
      return it->second.second;
  for (uint64_t at = address; at < end;) {
    std::optional<Region> region = regionAt(at);
    if (!region)
      return std::string("not in the image's writable data");
    if (auto found = written_.find(region->begin); found != written_.end())
      return found->second;
    at = region->end;
  }
  return std::nullopt;
}

bool UnwrittenData::storeSeen(uint64_t address, uint64_t instructionAddress) {
  if (!built_)
    build();
  return taint(address, "written at " + formatAddress(instructionAddress));
}

} // namespace hoist
