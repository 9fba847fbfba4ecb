#include "Discover/IndirectJumpAnalysis.h"

#include "Discover/PathSearch.h"
#include "Image/WritableData.h"
#include "Support/Error.h"

#include <llvm/ADT/StringRef.h>

#include <set>
#include <tuple>

namespace hoist {
namespace {

constexpr unsigned MaxCopies = 8;          // register copies followed back from the jmp
constexpr unsigned MaxSearches = 64;       // backward searches per jmp

ZydisRegister gpr64(ZydisRegister reg) {
  switch (ZydisRegisterGetClass(reg)) {
  case ZYDIS_REGCLASS_GPR32:
  case ZYDIS_REGCLASS_GPR64:
    return ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, reg);
  default:
    return ZYDIS_REGISTER_NONE;
  }
}

std::string regName(ZydisRegister reg) { return ZydisRegisterGetString(reg); }

/// A value the jump target may have: a constant, or what the loader puts in an import slot.
struct Value {
  bool import = false;
  uint64_t value = 0;
  bool operator<(const Value &o) const {
    return std::tie(import, value) < std::tie(o.import, o.value);
  }
};

/// Follows a register back to the instructions that define it, on every path.
class ValueTracer {
public:
  ValueTracer(const Image &image, const ExploredFunction &function, const LiftOptions &options)
      : image_(image), function_(function), options_(options),
        predecessors_(predecessorMap(function)) {}

  /// The values `reg` may hold at instruction `position` of `block`; false with `reason`.
  bool registerAt(const MachineBlock &block, size_t position, ZydisRegister reg, unsigned copies,
                  std::set<Value> &out) {
    if (++searches_ > MaxSearches)
      return refuse("the value analysis ran out of its search budget");
    ReachingDefinitions reaching = reachingDefinitions(function_, predecessors_, block, position,
                                                       reg, options_.jumpTableSearchBlocks);
    if (reaching.budgetExhausted)
      return refuse("the search for the writes of " + regName(reg) + " ran out of its budget");
    if (reaching.fromEntry)
      return refuse(regName(reg) + " holds a value the function's caller sets");
    for (const Definition &definition : reaching.definitions)
      if (!defined(definition, reg, copies, out))
        return false;
    return true;
  }

  /// The values the memory operand `mem` of `instr` (instruction `index` of `block`) reads.
  bool loadAt(const MachineBlock &block, size_t index, const Operand &mem, unsigned copies,
              std::set<Value> &out) {
    const Instr &instr = *block.instrs[index];
    if (mem.bits != 64)
      return refuse("loaded as fewer than 64 bits (" + instr.describe() + ")");
    if (mem.segment == ZYDIS_REGISTER_FS || mem.segment == ZYDIS_REGISTER_GS)
      return refuse("loaded from thread-local memory (" + instr.describe() + ")");
    if (mem.index != ZYDIS_REGISTER_NONE)
      return refuseComputed(std::string(inWritableTable(block, index, mem)
                                    ? "loaded from a table in writable memory"
                                    : "loaded from a computed address") +
                    " (" + instr.describe() + ")");
    std::set<Value> bases;
    if (mem.base == ZYDIS_REGISTER_RIP) {
      bases.insert({false, instr.next()});
    } else if (mem.base == ZYDIS_REGISTER_RSP || mem.base == ZYDIS_REGISTER_RBP) {
      return refuse("loaded from the stack (" + instr.describe() + ")");
    } else if (!registerAt(block, index, mem.base, copies + 1, bases)) {
      reason_ = "loaded through " + regName(mem.base) + " (" + instr.describe() + "): " + reason_;
      return false;
    }
    for (const Value &base : bases) {
      if (base.import)
        return refuse("loaded through an import's address (" + instr.describe() + ")");
      uint64_t slot = base.value + static_cast<uint64_t>(mem.disp);
      if (image_.importAtSlot(slot)) {
        out.insert({true, slot});
        continue;
      }
      std::optional<uint64_t> pointer = constantPointerAt(image_, slot);
      if (!pointer) {
        const Section *section = image_.sectionAt(slot);
        return refuse(std::string(section && section->mapped ? "loaded from writable memory"
                                                             : "loaded from outside the image") +
                      " at " + formatAddress(slot) + " (" + instr.describe() + ")");
      }
      out.insert({false, *pointer});
    }
    return true;
  }

  /// Whether `mem` (with an index register) reads a table at a constant address in writable
  /// memory: one the jump-table matcher refuses, as the program may rewrite it.
  bool inWritableTable(const MachineBlock &block, size_t index, const Operand &mem) {
    std::set<Value> bases;
    if (mem.base == ZYDIS_REGISTER_RIP)
      bases.insert({false, block.instrs[index]->next()});
    else if (mem.base == ZYDIS_REGISTER_NONE)
      bases.insert({false, 0});
    else if (!registerAt(block, index, mem.base, MaxCopies, bases))
      return false;
    if (bases.size() != 1 || bases.begin()->import)
      return false;
    const Section *section =
        image_.sectionAt(bases.begin()->value + static_cast<uint64_t>(mem.disp));
    return section && section->mapped && section->writable;
  }

  const std::string &reason() const { return reason_; }
  bool computed() const { return computed_; }
  bool refuse(std::string reason) {
    reason_ = std::move(reason);
    return false;
  }
  /// Refuses a value computed by arithmetic or loaded from a computed address, as a jump
  /// table's target is.
  bool refuseComputed(std::string reason) {
    computed_ = true;
    return refuse(std::move(reason));
  }

private:
  /// The values the write of `reg` at `definition` leaves in it.
  bool defined(const Definition &definition, ZydisRegister reg, unsigned copies,
               std::set<Value> &out) {
    const Instr &instr = definition.instr();
    if (instr.category == ZYDIS_CATEGORY_CALL)
      return refuse(regName(reg) + " is what a call leaves in it (" + instr.describe() + ")");
    const Operand &dst = instr.op(0), &src = instr.op(1);
    bool writesWhole = dst.isReg() && gpr64(dst.reg) == reg && dst.bits >= 32;
    if (writesWhole && instr.mnemonic == ZYDIS_MNEMONIC_MOV && src.isImm()) {
      out.insert({false, dst.bits == 32 ? (src.imm & 0xffffffffu) : src.imm});
      return true;
    }
    if (writesWhole && dst.bits == 64 && instr.mnemonic == ZYDIS_MNEMONIC_LEA &&
        src.base == ZYDIS_REGISTER_RIP && src.index == ZYDIS_REGISTER_NONE) {
      out.insert({false, instr.next() + src.disp});
      return true;
    }
    if (writesWhole && dst.bits == 64 && instr.mnemonic == ZYDIS_MNEMONIC_MOV && src.isReg() &&
        gpr64(src.reg) != ZYDIS_REGISTER_NONE && src.bits == 64) {
      if (copies >= MaxCopies)
        return refuse("copied through more than " + std::to_string(MaxCopies) + " registers");
      return registerAt(*definition.block, definition.index, gpr64(src.reg), copies + 1, out);
    }
    if (writesWhole && dst.bits == 64 && instr.mnemonic == ZYDIS_MNEMONIC_MOV && src.isMem())
      return loadAt(*definition.block, definition.index, src, copies, out);
    if (instr.mnemonic == ZYDIS_MNEMONIC_POP)
      return refuse("loaded from the stack (" + instr.describe() + ")");
    return refuseComputed(regName(reg) + " is computed (" + instr.describe() + ")");
  }

  const Image &image_;
  const ExploredFunction &function_;
  const LiftOptions &options_;
  PredecessorMap predecessors_;
  unsigned searches_ = 0;
  std::string reason_;
  bool computed_ = false;
};

} // namespace

std::optional<uint64_t> constantPointerAt(const Image &image, uint64_t slot) {
  const Section *section = image.sectionAt(slot);
  if (!section || !section->mapped || image.importAtSlot(slot))
    return std::nullopt;
  // A writable slot may change before it is read (a function pointer variable); a read-only
  // one, or one in .data.rel.ro, which the loader makes read-only once relocated, may not.
  if (writableAtRunTime(*section))
    return std::nullopt;
  uint64_t pointer = 0;
  if (!image.readRelocated(slot, &pointer, sizeof pointer))
    return std::nullopt;
  return pointer;
}

namespace {

/// What the indirect jmp or call at instruction `position` of `block` goes to.
IndirectJumpValue analyzeIndirectTransfer(const Image &image, InstructionCache &cache,
                                          const ExploredFunction &function,
                                          const MachineBlock &block, size_t position,
                                          const LiftOptions &options) {
  IndirectJumpValue result;
  if (position >= block.instrs.size()) {
    result.reason = "no instructions";
    return result;
  }
  const Instr &jmp = *block.instrs[position];
  const Operand &operand = jmp.op(0);
  ValueTracer tracer(image, function, options);
  std::set<Value> values;
  bool traced = false;
  if (operand.isReg())
    traced = tracer.registerAt(block, position, gpr64(operand.reg), 0, values);
  else if (operand.isMem())
    traced = tracer.loadAt(block, position, operand, 0, values);
  else
    tracer.refuse("not an indirect jmp");
  if (!traced) {
    result.reason = tracer.reason();
    result.computed = tracer.computed();
    return result;
  }
  if (values.empty()) {
    result.reason = "no definition of the target reaches the jmp";
    return result;
  }
  if (values.rbegin()->import) {
    if (values.size() > 1) {
      result.reason = "paths disagree: an import's slot on one, another value on another";
      return result;
    }
    result.kind = IndirectJumpValue::Kind::Import;
    result.importSlot = values.begin()->value;
    return result;
  }
  if (values.size() > options.maxJumpTableEntries) {
    result.reason = "more targets than a jump table may have";
    return result;
  }
  if (values.size() == 1 && values.begin()->value == 0) {
    // `mov eax, offset weak_symbol; test rax, rax; je ...; jmp rax` (crtstuff's
    // _ITM_deregisterTMCloneTable in a non-PIE): the symbol is not defined, the jmp not taken.
    result.reason = "the target is 0 (an undefined weak symbol): the jmp is never taken";
    return result;
  }
  for (const Value &value : values) {
    const DecodedAt *decoded = cache.at(value.value);
    if (!decoded || decoded->status != DecodeStatus::Ok) {
      result.reason = "the target " + formatAddress(value.value) + " is not code";
      result.targets.clear();
      return result;
    }
    result.targets.push_back(value.value);
  }
  result.kind = IndirectJumpValue::Kind::Constant;
  return result;
}

} // namespace

IndirectJumpValue analyzeIndirectJump(const Image &image, InstructionCache &cache,
                                      const ExploredFunction &function, const MachineBlock &block,
                                      const LiftOptions &options) {
  return analyzeIndirectTransfer(image, cache, function, block,
                                 block.instrs.empty() ? 0 : block.instrs.size() - 1, options);
}

IndirectJumpValue analyzeIndirectCall(const Image &image, InstructionCache &cache,
                                      const ExploredFunction &function, const MachineBlock &block,
                                      size_t position, const LiftOptions &options) {
  return analyzeIndirectTransfer(image, cache, function, block, position, options);
}

} // namespace hoist
