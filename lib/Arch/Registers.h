// The variables the lifter keeps in SSA and how each x86 register name maps onto them.
#pragma once

#include "hoist/State.h"

#include <Zydis/Zydis.h>
#include <llvm/IR/DerivedTypes.h>

#include <cstdint>
#include <optional>

namespace hoist {

/// One SSA variable per full register and per flag. GPRs and vector registers are in
/// encoding order. A zmm register below 16 is two variables, its YMM and its upper half
/// (ZMMHI), as State and XSAVE keep it: code without AVX-512 never touches the upper halves
/// except to zero them. ST0..ST7 are the x87 stack relative to its top (ST0 is ST(0)), as State
/// and fxsave keep them: a push or pop renames the variables instead of moving values.
enum class Var : uint8_t {
  RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15,
  CF, PF, AF, ZF, SF, DF, OF,
  FS_BASE, GS_BASE,
  MXCSR, FPU_CW, FPU_SW, FPU_TW,
  YMM0, YMM1, YMM2, YMM3, YMM4, YMM5, YMM6, YMM7,
  YMM8, YMM9, YMM10, YMM11, YMM12, YMM13, YMM14, YMM15,
  ST0, ST1, ST2, ST3, ST4, ST5, ST6, ST7,
  // AVX-512: bits 256..511 of zmm0-15, zmm16-31 whole, the opmask registers.
  ZMMHI0, ZMMHI1, ZMMHI2, ZMMHI3, ZMMHI4, ZMMHI5, ZMMHI6, ZMMHI7,
  ZMMHI8, ZMMHI9, ZMMHI10, ZMMHI11, ZMMHI12, ZMMHI13, ZMMHI14, ZMMHI15,
  ZMM16, ZMM17, ZMM18, ZMM19, ZMM20, ZMM21, ZMM22, ZMM23,
  ZMM24, ZMM25, ZMM26, ZMM27, ZMM28, ZMM29, ZMM30, ZMM31,
  K0, K1, K2, K3, K4, K5, K6, K7,
  Count
};
constexpr unsigned NumVars = static_cast<unsigned>(Var::Count);

inline Var gprVar(unsigned encoding) { return static_cast<Var>(encoding); }
inline Var ymmVar(unsigned encoding) {
  return static_cast<Var>(static_cast<unsigned>(Var::YMM0) + encoding);
}
/// Bits 256..511 of zmm `encoding` (0-15).
inline Var zmmHighVar(unsigned encoding) {
  return static_cast<Var>(static_cast<unsigned>(Var::ZMMHI0) + encoding);
}
/// zmm `encoding` (16-31) whole.
inline Var zmmVar(unsigned encoding) {
  return static_cast<Var>(static_cast<unsigned>(Var::ZMM16) + encoding - 16);
}
inline Var maskVar(unsigned encoding) {
  return static_cast<Var>(static_cast<unsigned>(Var::K0) + encoding);
}
inline Var stVar(unsigned depth) {
  return static_cast<Var>(static_cast<unsigned>(Var::ST0) + depth);
}
inline bool isFlagVar(Var var) { return var >= Var::CF && var <= Var::OF; }
inline bool isVectorVar(Var var) { return var >= Var::YMM0 && var <= Var::YMM15; }
inline bool isZmmHighVar(Var var) { return var >= Var::ZMMHI0 && var <= Var::ZMMHI15; }
inline bool isZmmVar(Var var) { return var >= Var::ZMM16 && var <= Var::ZMM31; }
inline bool isMaskVar(Var var) { return var >= Var::K0 && var <= Var::K7; }
/// A variable that lives in an element of a State array (YMM, ST, K, ZMM_HI256, HI16_ZMM).
inline bool isArrayVar(Var var) {
  return isVectorVar(var) || var >= Var::ST0;
}
inline bool isX87Var(Var var) { return var >= Var::ST0 && var <= Var::ST7; }

/// The type a vector variable holds: the whole YMM register as <4 x i64>. Semantics work on
/// typed views of it (LiftContext::readVector).
llvm::FixedVectorType *vectorVarType(llvm::LLVMContext &context);

/// The State field a variable lives in between lifted code and the outside.
HoistStateField stateFieldOf(Var var);
/// The State field's element a variable lives in: 0 for plain fields, the register number for
/// the YMM and ST arrays.
unsigned stateIndexOf(Var var);
/// i1 for flags, <4 x i64> for YMM and ZMMHI, <8 x i64> for ZMM16-31, x86_fp80 for ST, the
/// field's integer type otherwise.
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

/// Whether a 64-bit general-purpose register is callee-saved in the System V ABI (rbx, rbp,
/// r12-r15; Win64 adds rdi and rsi).
bool isSysVCalleeSaved(ZydisRegister reg);

} // namespace hoist
