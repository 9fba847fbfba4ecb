// Cheap symbolic evaluation of a straight path of decoded instructions, for pattern analyses
// such as jump tables. Each general-purpose register holds `c + k*S`: a constant plus a multiple
// of one symbol (an unknown input, a value loaded from memory, or a masked value), or nothing
// known. Loads from the same address (no store in between) are the same symbol; unsigned
// compares on the path bound the symbol they test. No IR, no value analysis: one pass, linear.
#pragma once

#include "Decode/Instr.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

namespace hoist {

struct SymValue {
  bool known = false;
  int64_t c = 0;
  int64_t k = 0;            ///< 0: the value is the constant c
  uint32_t sym = 0;
  bool signExtended = false;   ///< the symbol (a narrow load) is sign-extended, not zero-extended

  static SymValue constant(int64_t value) { return {true, value, 0, 0, false}; }
  static SymValue symbol(uint32_t id) { return {true, 0, 1, id, false}; }
  bool isConstant() const { return known && k == 0; }
  bool isSymbol() const { return known && k == 1 && c == 0; }
  bool operator<(const SymValue &o) const {
    return std::tie(known, c, k, sym, signExtended) <
           std::tie(o.known, o.c, o.k, o.sym, o.signExtended);
  }
};

struct PathSymbol {
  enum class Kind : uint8_t { Input, Load, Masked };
  Kind kind = Kind::Input;
  // Kind::Load: `width` bits read at `address` by the instruction at `at`, whose memory operand
  // was [baseReg + indexReg*scale + disp] with those registers holding baseValue/indexValue.
  unsigned width = 0;
  SymValue address;
  uint64_t at = 0;
  ZydisRegister baseReg = ZYDIS_REGISTER_NONE, indexReg = ZYDIS_REGISTER_NONE;
  SymValue baseValue, indexValue;
  uint8_t scale = 0;
  int64_t disp = 0;
  // A bound learnt on the path: biasedBy + S is in [0, max] (unsigned).
  bool bounded = false;
  int64_t biasedBy = 0;
  uint64_t max = 0;
};

class PathEvaluator {
public:
  /// Registers known to hold a constant wherever the path starts (see JumpTableMatcher).
  void assume(ZydisRegister reg, int64_t value) { regs_[reg] = SymValue::constant(value); }

  /// Evaluates one instruction.
  void step(const Instr &instr);
  /// The path leaves the block ending in conditional branch `jcc`: taken or not.
  void takeEdge(const Instr &jcc, bool taken);

  SymValue reg(ZydisRegister reg);
  /// The value operand `index` of `instr` reads (a load symbol for memory); for the current state.
  SymValue operandValue(const Instr &instr, unsigned index);
  const PathSymbol &symbol(uint32_t id) const { return symbols_[id]; }
  /// The register whose value at the start of the path symbol `id` is, if it is one.
  std::optional<ZydisRegister> inputRegister(uint32_t id) const {
    auto it = inputs_.find(id);
    return it == inputs_.end() ? std::nullopt : std::optional<ZydisRegister>(it->second);
  }

private:
  SymValue address(const Instr &instr, const Operand &op);
  SymValue load(const Instr &instr, const Operand &op);
  uint32_t fresh(PathSymbol symbol);
  void write(ZydisRegister reg, SymValue value);
  void clobberWritten(const Instr &instr);
  /// A store of `value` to the memory operand `op`: it forgets every other location (no alias
  /// analysis) and remembers this one, so that a spill and its reload give the same value.
  void store(const Instr &instr, const Operand &op, SymValue value);
  /// What a write to `written` makes unknown: everything it may overlap (see the .cpp).
  void forgetMemory(const Instr &instr, const Operand &written);
  bool stepData(const Instr &instr);

  std::map<ZydisRegister, SymValue> regs_;   ///< by 64-bit register; absent: an input
  std::vector<PathSymbol> symbols_;
  std::map<uint32_t, ZydisRegister> inputs_;
  /// What memory is known to hold: (address, width) -> value, from loads and stores.
  std::map<std::pair<SymValue, unsigned>, SymValue> memory_;
  /// The locations in memory_ that were read or written through rsp (the stack frame).
  std::set<std::pair<SymValue, unsigned>> stackLocations_;
  struct Compare {
    SymValue value;
    uint64_t imm;
    unsigned bits;
  };
  std::optional<Compare> compare_;   ///< the last flag-setting instruction was an unsigned compare
};

} // namespace hoist
