// The 512-byte legacy region that fxsave/fxrstor and the xsave family share (SDM vol. 1,
// 10.5.1 table 10-2 and 13.4.1): x87 state in bytes 0..23 and 32..159, MXCSR and MXCSR_MASK in
// 24..31, XMM0..15 in 160..415. One piece of code writes and reads it for both families.
//
// Not modelled, and stored as zero: the x87 last-instruction pointers and opcode (FOP, FIP,
// FDP), which only debuggers read; so the REX.W forms (fxsave64, xsave64), which differ from
// the others only in how those pointers are laid out, store the same bytes.
#pragma once

#include "Semantics/Semantics.h"

#include <array>

namespace hoist::legacy {

/// The MXCSR bits this CPU family implements (MXCSR_MASK on current Intel and AMD parts);
/// loading any other bit raises #GP.
constexpr uint32_t MxcsrMask = 0xffff;
constexpr uint32_t InitialMxcsr = 0x1f80;
constexpr unsigned MxcsrOffset = 24, Size = 512;

/// `base + offset`, an address.
llvm::Value *at(LiftContext &ctx, llvm::Value *base, unsigned offset);

/// Stores the x87 state: FCW, FSW, the abridged FTW, zero pointers and opcode, ST(0..7).
void storeX87(LiftContext &ctx, llvm::Value *base);
/// Stores MXCSR and MXCSR_MASK.
void storeMxcsr(LiftContext &ctx, llvm::Value *base);
/// Stores XMM0..15 (the low halves of the YMM registers).
void storeXmm(LiftContext &ctx, llvm::Value *base);

/// The x87 state as read from a legacy region or in its initial configuration.
struct X87State {
  llvm::Value *fcw, *fsw, *ftw;
  std::array<llvm::Value *, 8> st;
};
X87State loadX87(LiftContext &ctx, llvm::Value *base);
/// FCW 037FH, FSW 0, every register empty, ST(i) +0 (SDM vol. 1, 13.6: what fninit leaves,
/// with zeroed registers): what xrstor loads for an x87 component it initializes.
X87State initialX87(LiftContext &ctx);
void writeX87(LiftContext &ctx, const X87State &state);

/// XMM0..15 as <2 x i64>, read from a legacy region.
std::array<llvm::Value *, 16> loadXmm(LiftContext &ctx, llvm::Value *base);
/// Writes XMM0..15 (null: zero), keeping bits 128..255 of each YMM register.
void writeXmm(LiftContext &ctx, const std::array<llvm::Value *, 16> &xmm);

/// Faults (#GP, at this instruction) when `condition` holds and `mxcsr` sets a reserved bit.
void trapIfReservedMxcsr(LiftContext &ctx, const Instr &instr, llvm::Value *mxcsr,
                         llvm::Value *condition = nullptr);
/// The fp-environment note for an instruction that loads MXCSR and the x87 control word.
void noteEnvironmentLoad(LiftContext &ctx, const Instr &instr);

} // namespace hoist::legacy
