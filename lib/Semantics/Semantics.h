// The semantics of x86-64 instructions, found by mnemonic.
//
// A semantic reads all its sources, computes, writes the destinations, and writes the flags
// last, so that an instruction reading a flag it also writes sees the old value. Each family
// file registers its mnemonics in one `register*` function.
#pragma once

#include "Arch/LiftContext.h"

#include <array>
#include <optional>

namespace hoist {

using Semantic = LiftStatus (*)(LiftContext &ctx, const Instr &instr);

class SemanticTable {
public:
  void add(ZydisMnemonic mnemonic, Semantic semantic) { table_[mnemonic] = semantic; }
  Semantic find(ZydisMnemonic mnemonic) const { return table_[mnemonic]; }

private:
  std::array<Semantic, ZYDIS_MNEMONIC_MAX_VALUE + 1> table_{};
};

/// The semantic of `mnemonic`, or null when Hoist has none.
Semantic findSemantic(ZydisMnemonic mnemonic);

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

} // namespace hoist
