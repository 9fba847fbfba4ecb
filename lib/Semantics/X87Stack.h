// The x87 register stack as one instruction sees it (X87Stack.cpp), and the extended-precision
// helpers the x87 semantics share: the indefinite, NaN rules, conversions from and to memory
// formats. X87.cpp explains the model.
#pragma once

#include "Semantics/FloatRules.h"
#include "Semantics/Semantics.h"

#include <array>

namespace hoist {

/// The families of X87*.cpp, registered by registerX87.
void registerX87Arithmetic(SemanticTable &table);
void registerX87Compare(SemanticTable &table);
void registerX87Transcendental(SemanticTable &table);

/// Condition-code bits of the status word (SDM vol. 1, 8.1.3).
enum class X87Condition : unsigned { C0 = 8, C1 = 9, C2 = 10, C3 = 14 };

/// The stack of the current instruction: made from the stack variables, changed in place by
/// the semantic, and written back by commit(). Sources read before a push or pop keep their
/// values, so a semantic reads all it needs first, as elsewhere.
class X87Stack {
public:
  explicit X87Stack(LiftContext &ctx);

  /// ST(i) as the register holds it, valid or not.
  llvm::Value *raw(unsigned i) const { return st_[i]; }
  /// i1: ST(i) is tagged empty.
  llvm::Value *isEmpty(unsigned i);
  /// ST(i) as an operand: the QNaN indefinite when it is empty (the masked response to stack
  /// underflow, SDM vol. 1, 8.5.1.1), which also clears C1 at commit.
  llvm::Value *read(unsigned i);
  /// i1: some read() so far met an empty register.
  llvm::Value *underflow() const { return underflow_; }

  /// ST(i) = value, tagged valid.
  void write(unsigned i, llvm::Value *value);
  /// write(i, value) only when `condition` (i1) holds.
  void writeIf(llvm::Value *condition, unsigned i, llvm::Value *value);
  /// Decrements TOP and writes `value` into the new ST(0); into a register already valid
  /// (stack overflow) it writes the indefinite instead and sets C1 (SDM vol. 1, 8.5.1.1).
  void push(llvm::Value *value);
  /// Tags ST(0) empty and increments TOP.
  void pop();
  /// TOP += delta without touching the tags (fincstp, fdecstp, and pop/push).
  void rotate(int delta);
  /// TOP = newTop (an i16 0..7), renaming the registers by a rotation known only at run
  /// time (fninit).
  void setTop(llvm::Value *newTop);
  /// Tags ST(i) empty.
  void free(unsigned i);
  /// The tag word as it is now.
  llvm::Value *tagWord() const { return tw_; }

  void setCondition(X87Condition bit, llvm::Value *value);
  /// i1: the condition code as it is now.
  llvm::Value *condition(X87Condition bit);
  /// C1 as it was, or 0 after a stack underflow: fcomi and fcmov leave it alone otherwise
  /// (seen on the CPU; the SDM says "set to 0").
  void keepC1UnlessUnderflow();
  /// C3 C2 C0 of a compare: greater 000, less 001, equal 100, unordered 111.
  void setCompareConditions(llvm::Value *less, llvm::Value *equal, llvm::Value *unordered);
  llvm::Value *controlWord() { return ctx_.readVar(Var::FPU_CW); }
  /// The rounding control, CW bits 10..11, as an i16 0..3.
  llvm::Value *roundingControl();

  /// Writes ST0..ST7, the status word and the tag word. C1 is the stack fault indicator
  /// unless the semantic set it: 1 after an overflow, 0 otherwise (the round-up meaning of
  /// C1 is not modelled).
  void commit();

private:
  llvm::Value *top();
  /// The tag-word bit (i16) of ST(i): bit (TOP + i) mod 8.
  llvm::Value *tagBit(unsigned i);

  LiftContext &ctx_;
  std::array<llvm::Value *, 8> st_;
  llvm::Value *sw_, *tw_;
  llvm::Value *underflow_, *overflow_;
  bool c1Set_ = false;
};

// Extended-precision helpers.
llvm::Type *fp80Type(LiftContext &ctx);
/// The QNaN floating-point indefinite, 0xFFFF C000000000000000 (SDM vol. 1, 4.8.3.7).
llvm::Value *x87Indefinite(LiftContext &ctx);
llvm::Value *fp80Constant(LiftContext &ctx, uint16_t signExponent, uint64_t significand);
llvm::Value *fp80Bits(LiftContext &ctx, llvm::Value *value);
llvm::Value *fp80FromBits(LiftContext &ctx, llvm::Value *bits);
using fp::isNaN;
/// `value` with its quiet bit (significand bit 62) set.
llvm::Value *quietNaN(LiftContext &ctx, llvm::Value *value);
/// The NaN an x87 operation on `a` and `b` returns when one of them is a NaN (SDM vol. 1,
/// Table 4-7): the QNaN of an SNaN/QNaN pair, else the larger significand, quieted.
llvm::Value *propagateNaN(LiftContext &ctx, llvm::Value *a, llvm::Value *b);

/// A float or double as extended; NaNs keep their payload and their kind: an SNaN stays
/// signaling, so that propagateNaN sees it as the arithmetic does (fld quiets it itself).
llvm::Value *extendToFp80(LiftContext &ctx, llvm::Value *value);
/// Extended rounded to float or double (round to nearest); NaNs keep the top of their
/// payload and become quiet, as fst does.
llvm::Value *truncateFromFp80(LiftContext &ctx, llvm::Value *value, llvm::Type *type);
/// A floating-point source operand: ST(i), or m32/m64/m80 converted to extended.
llvm::Value *readFpSource(LiftContext &ctx, X87Stack &stack, unsigned index);
/// An integer memory source (m16/m32/m64) as extended, exact.
llvm::Value *readIntegerSource(LiftContext &ctx, unsigned index);
/// `value` rounded to an integral value by the rounding control `rc` (0 nearest even,
/// 1 down, 2 up, 3 toward zero); NaNs become quiet.
llvm::Value *roundToIntegral(LiftContext &ctx, llvm::Value *value, llvm::Value *rc);
/// The ST register number of an operand (st0..st7).
unsigned stIndex(const Operand &operand);

} // namespace hoist
