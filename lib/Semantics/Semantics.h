// The semantics of x86-64 instructions, found by mnemonic.
//
// A semantic reads all its sources, computes, writes the destinations, and writes the flags
// last, so that an instruction reading a flag it also writes sees the old value. Each family
// file registers its mnemonics in one `register*` function.
#pragma once

#include "Arch/LiftContext.h"

#include <array>
#include <cassert>
#include <optional>

namespace hoist {

using Semantic = LiftStatus (*)(LiftContext &ctx, const Instr &instr);

class SemanticTable {
public:
  /// With `onlyCategory`, the semantic serves only instructions of that Zydis category: Zydis
  /// gives some unrelated instructions one mnemonic (string `movsd` and SSE `movsd`), so a
  /// mnemonic may have one semantic per category and one for any other category.
  void add(ZydisMnemonic mnemonic, Semantic semantic,
           ZydisInstructionCategory onlyCategory = ZYDIS_CATEGORY_INVALID) {
    auto &entries = table_[mnemonic];
    for (Entry &entry : entries)
      if (!entry.semantic || entry.onlyCategory == onlyCategory) {
        entry = {semantic, onlyCategory};
        return;
      }
    assert(false && "more than two semantics for one mnemonic");
  }
  Semantic find(const Instr &instr) const {
    Semantic fallback = nullptr;
    for (const Entry &entry : table_[instr.mnemonic]) {
      if (!entry.semantic)
        break;
      if (entry.onlyCategory == instr.category)
        return entry.semantic;
      if (entry.onlyCategory == ZYDIS_CATEGORY_INVALID)
        fallback = entry.semantic;
    }
    return fallback;
  }

private:
  struct Entry {
    Semantic semantic = nullptr;
    ZydisInstructionCategory onlyCategory = ZYDIS_CATEGORY_INVALID;
  };
  std::array<std::array<Entry, 2>, ZYDIS_MNEMONIC_MAX_VALUE + 1> table_{};
};

/// The semantic of `instr`, or null when Hoist has none.
Semantic findSemantic(const Instr &instr);

/// al, ax, eax or rax: the accumulator at an operand size of `bits`.
ZydisRegister accumulatorRegister(unsigned bits);
/// rcx, or ecx under a 0x67 prefix: the count of loop, jrcxz and rep.
ZydisRegister counterRegister(const Instr &instr);

/// A note that the instruction loads a floating-point environment whose rounding or precision
/// Hoist's arithmetic does not follow (docs/DESIGN.md); `assumption` says what is assumed.
void noteFpEnvironment(LiftContext &ctx, const Instr &instr, llvm::StringRef assumption);

/// The x87 control word that loading the 16 bits `stored` sets (fldcw, fxrstor, xrstor): the
/// reserved bits 6 (reads as 1) and 13..15 (as 0) are not stored, as seen on the CPU.
llvm::Value *x87ControlWordAsLoaded(LiftContext &ctx, llvm::Value *stored);

enum class ConditionalFamily { Jcc, Setcc, Cmovcc };
/// The 16 mnemonics of a family, indexed by Condition.
const std::array<ZydisMnemonic, 16> &conditionalMnemonics(ConditionalFamily family);
/// The condition a jcc, setcc or cmovcc tests.
std::optional<Condition> conditionOf(ZydisMnemonic mnemonic);

void registerBinary(SemanticTable &table);
void registerLogical(SemanticTable &table);
void registerShift(SemanticTable &table);
void registerDataXfer(SemanticTable &table);
void registerStack(SemanticTable &table);
void registerBranch(SemanticTable &table);
void registerConditional(SemanticTable &table);
void registerConvert(SemanticTable &table);
void registerNop(SemanticTable &table);
void registerSystem(SemanticTable &table);
void registerBitByte(SemanticTable &table);
void registerBmi(SemanticTable &table);
void registerRotate(SemanticTable &table);
void registerMulDiv(SemanticTable &table);
void registerFlagOp(SemanticTable &table);
void registerSemaphore(SemanticTable &table);
void registerString(SemanticTable &table);
// SIMD and floating point: SSE to AVX2, FMA, F16C, AES, PCLMUL, SHA, x87, MXCSR.
void registerSimdMove(SemanticTable &table);
void registerSimdShuffle(SemanticTable &table);
void registerSimdInteger(SemanticTable &table);
void registerSimdFloat(SemanticTable &table);
void registerSimdConvert(SemanticTable &table);
void registerSimdString(SemanticTable &table);
void registerSimdCrypto(SemanticTable &table);
void registerX87(SemanticTable &table);
void registerFpEnvironment(SemanticTable &table);
void registerXsave(SemanticTable &table);
void registerGfni(SemanticTable &table);
// AVX-512: the EVEX forms and the opmask instructions, in a table of their own (an EVEX form
// shares its mnemonic with a VEX one whose operands have no masks or broadcasts).
void registerAvx512Mask(SemanticTable &table);
void registerAvx512Move(SemanticTable &table);
void registerAvx512Integer(SemanticTable &table);
void registerAvx512Shift(SemanticTable &table);
void registerAvx512Float(SemanticTable &table);
void registerAvx512Fma(SemanticTable &table);
void registerAvx512Shuffle(SemanticTable &table);
void registerAvx512ByteShift(SemanticTable &table);
void registerAvx512Convert(SemanticTable &table);
void registerAvx512SimdMove(SemanticTable &table);
void registerAvx512Gather(SemanticTable &table);
void registerAvx512Compress(SemanticTable &table);
void registerAvx512FloatFields(SemanticTable &table);
void registerAvx512Gfni(SemanticTable &table);

} // namespace hoist
