#include "Discover/EntryShape.h"

#include "Discover/StackDepth.h"

#include <map>
#include <set>

namespace hoist {
namespace {

/// What is known to be written on every way to a point: callee-saved registers (one bit each,
/// calleeSavedBit) and status flags (FlagMask bits).
struct Written {
  uint32_t registers = 0;
  uint32_t flags = 0;
  bool operator==(const Written &) const = default;
};

constexpr Written Everything{~0u, ~0u};

/// The bit of a callee-saved general-purpose register of the System V ABI, or 0.
uint32_t calleeSavedBit(ZydisRegister reg) {
  if (reg == ZYDIS_REGISTER_NONE)
    return 0;
  switch (ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, reg)) {
  case ZYDIS_REGISTER_RBX: return 1u << 0;
  case ZYDIS_REGISTER_RBP: return 1u << 1;
  case ZYDIS_REGISTER_R12: return 1u << 2;
  case ZYDIS_REGISTER_R13: return 1u << 3;
  case ZYDIS_REGISTER_R14: return 1u << 4;
  case ZYDIS_REGISTER_R15: return 1u << 5;
  default: return 0;
  }
}

/// `xor ebx, ebx`, `sub ebx, ebx`, `or ebx, -1` (gcc -Os), `and ebx, 0`: a write of the register
/// whose value does not depend on it.
bool overwritesRegister(const Instr &instr) {
  const Operand &dst = instr.op(0), &src = instr.op(1);
  if (!dst.isReg())
    return false;
  if (instr.mnemonic == ZYDIS_MNEMONIC_XOR || instr.mnemonic == ZYDIS_MNEMONIC_SUB)
    return src.isReg() && dst.reg == src.reg;
  uint64_t ones = dst.bits >= 64 ? ~0ull : (1ull << dst.bits) - 1;
  if (instr.mnemonic == ZYDIS_MNEMONIC_OR)
    return src.isImm() && (src.imm & ones) == ones;
  if (instr.mnemonic == ZYDIS_MNEMONIC_AND)
    return src.isImm() && (src.imm & ones) == 0;
  return false;
}

/// A save of a callee-saved register: `push rbx`, or a store of it to the stack (`mov [rsp+8],
/// rbx`, gcc's saves before its `sub rsp`).
bool savesRegister(const Instr &instr) {
  if (instr.mnemonic == ZYDIS_MNEMONIC_PUSH)
    return true;
  return instr.mnemonic == ZYDIS_MNEMONIC_MOV && instr.op(0).isMem() &&
         instr.op(0).base == ZYDIS_REGISTER_RSP && instr.op(1).isReg();
}

/// The callee-saved registers and status flags `instr` reads (other than to save them).
Written reads(const Instr &instr) {
  Written read;
  read.flags = instr.flagsTested & StatusFlags;
  if (overwritesRegister(instr) || savesRegister(instr))
    return read;
  for (unsigned i = 0; i < instr.operandCount; ++i) {
    const Operand &op = instr.op(i);
    if (op.isReg() && op.read)
      read.registers |= calleeSavedBit(op.reg);
    if (op.isMem())
      read.registers |= calleeSavedBit(op.base) | calleeSavedBit(op.index);
  }
  return read;
}

void applyWrites(const Instr &instr, Written &written) {
  written.flags |= instr.flagsModified | instr.flagsSet0 | instr.flagsSet1 | instr.flagsUndefined;
  if (instr.mnemonic == ZYDIS_MNEMONIC_CALL)
    written.flags |= StatusFlags;   // the callee leaves them undefined
  for (unsigned i = 0; i < instr.operandCount; ++i)
    if (instr.op(i).isReg() && instr.op(i).written)
      written.registers |= calleeSavedBit(instr.op(i).reg);
}

/// The first instruction that reads a callee-saved register or a status flag that is not
/// written on every way to it from the entry, or nullptr.
const Instr *readBeforeWrite(const ExploredFunction &explored) {
  // Must-written sets at the blocks' starts: the intersection over the ways in, from the
  // entry's empty set down to a fixed point.
  std::map<uint64_t, Written> in{{explored.entry, Written{}}};
  std::vector<uint64_t> work{explored.entry};
  while (!work.empty()) {
    uint64_t at = work.back();
    work.pop_back();
    auto block = explored.blocks.find(at);
    if (block == explored.blocks.end())
      continue;
    Written written = in[at];
    for (const Instr *instr : block->second.instrs)
      applyWrites(*instr, written);
    for (uint64_t next : block->second.successors) {
      auto [known, inserted] = in.try_emplace(next, Everything);
      Written met{known->second.registers & written.registers,
                  known->second.flags & written.flags};
      if (inserted || !(met == known->second)) {
        known->second = met;
        work.push_back(next);
      }
    }
  }
  for (const auto &[start, block] : explored.blocks) {
    auto found = in.find(start);
    if (found == in.end())
      continue;
    Written written = found->second;
    for (const Instr *instr : block.instrs) {
      Written read = reads(*instr);
      if ((read.registers & ~written.registers) || (read.flags & ~written.flags))
        return instr;
      applyWrites(*instr, written);
    }
  }
  return nullptr;
}

std::string hex(uint64_t value) {
  char text[24];
  snprintf(text, sizeof text, "%#llx", static_cast<unsigned long long>(value));
  return text;
}

} // namespace

std::optional<std::string> whyNotAFunctionEntry(const Image &image,
                                                const DiscoveredFunction &function,
                                                EntryEvidence evidence) {
  std::set<uint64_t> tailCallJumps;
  for (const auto &[start, block] : function.explored.blocks) {
    switch (block.end) {
    case MachineBlock::End::Invalid:
    case MachineBlock::End::LeavesCode:
    case MachineBlock::End::Budget:
      return "its code runs into bytes that are no code at " + hex(block.endAddress);
    case MachineBlock::End::TailCall:
      if (!block.instrs.empty())
        tailCallJumps.insert(block.instrs.back()->address);
      break;
    default:
      break;
    }
  }
  if (const Instr *instr = readBeforeWrite(function.explored))
    return "it reads what code before it set: " + instr->describe();
  std::optional<std::string> unbalanced;
  bool leavesAtAll = false;
  forEachInstructionWithStackDepth(
      image, function, [&](const Instr &instr, std::optional<int64_t> depth) {
        bool leaves = instr.mnemonic == ZYDIS_MNEMONIC_RET || tailCallJumps.count(instr.address);
        if (!leaves || unbalanced)
          return;
        leavesAtAll = true;
        if (depth && *depth != 0)
          unbalanced = "it leaves with rsp " + std::to_string(*depth) +
                       " bytes from where it started: " + instr.describe();
        else if (!depth && evidence == EntryEvidence::BalancedReturn)
          unbalanced = "it leaves with rsp unknown: " + instr.describe();
      });
  if (!unbalanced && !leavesAtAll && evidence == EntryEvidence::BalancedReturn)
    return std::string("it never returns");
  return unbalanced;
}

} // namespace hoist
