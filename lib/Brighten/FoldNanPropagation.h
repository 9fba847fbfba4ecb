// FoldNanPropagation: x86's NaN rules spelled out around floating-point arithmetic, dropped in
// brightened functions.
//
// The lifter models SSE arithmetic exactly: `addsd` returns its first operand's NaN quietened,
// else its second's, else the default NaN (negative, quiet) when the operation itself is
// invalid. That is three `fcmp uno` and three selects around each `fadd`, which make
// floating-point functions several times the size of the source's IR. LLVM's `fadd` leaves
// the NaN it returns to the target (one of the inputs' NaNs quietened, or the default one),
// and compiled for x86 it is `addsd` again. In a brightened function
// (attribute "hoist-brightened": lifted functions keep the exact model) this pass replaces
//   select(fcmp uno R, DEFAULT, R)                  by R, for R = fadd/fsub/fmul/fdiv/sqrt
//   select(fcmp uno Y, Y | QUIET, R)                by R, Y being R's second operand
//   select(fcmp uno F, NaN conversion, fpext F)     by the plain conversion (and fptrunc)
// and keeps `select(fcmp uno X, X | QUIET, R)` for the first operand X (unless it is R's only
// one): x86 returns the first of two NaN operands, and LLVM may swap `fadd`'s operands. A
// lone NaN operand, or an invalid operation (inf - inf, the default NaN), then gives on x86
// what the lifted code gave; the corpus compares results bit for bit with NaNs of both signs
// among the inputs.
#pragma once

#include <llvm/IR/PassManager.h>

namespace hoist {

inline constexpr const char *BrightenedAttribute = "hoist-brightened";

class FoldNanPropagationPass : public llvm::PassInfoMixin<FoldNanPropagationPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);
};

} // namespace hoist
