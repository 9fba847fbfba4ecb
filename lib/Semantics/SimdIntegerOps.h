// The integer operations of SimdInteger.cpp on whole vectors of any width, which the EVEX forms
// of the same instructions (Avx512Integer.cpp) compute with too, so that a fix lands once.
#pragma once

#include "Arch/LiftContext.h"

namespace hoist::simd {

enum class Elementwise {
  And, AndNot, Or, Xor,
  Add, Sub, AddSatSigned, AddSatUnsigned, SubSatSigned, SubSatUnsigned,
  Equal, Greater,
  MinSigned, MinUnsigned, MaxSigned, MaxUnsigned,
  AverageUnsigned, Sign,
  MulLow, MulHighSigned, MulHighUnsigned, MulHighRoundScale,
  MulEvenUnsigned, MulEvenSigned,
  ShiftLeftEach, ShiftRightEach, ShiftArithmeticEach,
};

/// `a op b` element by element, as the SSE/AVX instruction of the operation computes it.
llvm::Value *combine(LiftContext &ctx, Elementwise op, llvm::Value *a, llvm::Value *b);

/// pmaddwd: words in, doublewords out.
llvm::Value *multiplyAddWords(LiftContext &ctx, llvm::Value *a, llvm::Value *b);
/// pmaddubsw: bytes in, words out.
llvm::Value *multiplyAddBytes(LiftContext &ctx, llvm::Value *a, llvm::Value *b);
/// psadbw: bytes in, quadwords out.
llvm::Value *sumAbsoluteDifferences(LiftContext &ctx, llvm::Value *a, llvm::Value *b);

} // namespace hoist::simd
