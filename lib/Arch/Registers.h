// The variables the lifter keeps in SSA and how each x86 register name maps onto them.
#pragma once

#include "hoist/State.h"

#include <Zydis/Zydis.h>
#include <llvm/IR/Type.h>

#include <cstdint>
#include <optional>

namespace hoist {

/// One SSA variable per full register and per flag. GPRs are in encoding order.
enum class Var : uint8_t {
  RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15,
  CF, PF, AF, ZF, SF, DF, OF,
  FS_BASE, GS_BASE,
  Count
};
constexpr unsigned NumVars = static_cast<unsigned>(Var::Count);

inline Var gprVar(unsigned encoding) { return static_cast<Var>(encoding); }
inline bool isFlagVar(Var var) { return var >= Var::CF && var <= Var::OF; }

/// The State field a variable lives in between lifted code and the outside.
HoistStateField stateFieldOf(Var var);
/// i1 for flags, i64 for everything else.
llvm::Type *varType(llvm::LLVMContext &context, Var var);
const char *varName(Var var);

/// A register name as a slice of a variable: `ah` is bits 8..15 of RAX.
struct RegisterSlice {
  Var var;
  unsigned offset;   ///< lowest bit
  unsigned bits;
  bool zeroExtendsOnWrite;   ///< 32-bit writes clear bits 32..63 (SDM vol. 1, 3.4.1.1)
};

/// The slice for a general-purpose register, or nullopt for anything else.
std::optional<RegisterSlice> gprSlice(ZydisRegister reg);

} // namespace hoist
