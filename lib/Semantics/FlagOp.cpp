// Semantics of flag instructions (Zydis category FLAGOP): clc stc cmc cld std lahf sahf pushf popf.
//
// RFLAGS layout (SDM vol. 1, 3.4.3): CF 0, PF 2, AF 4, ZF 6, SF 7, IF 9, DF 10, OF 11; bit 1 is
// reserved and reads as 1, bits 3 and 5 read as 0.
#include "Semantics/Semantics.h"

#include <llvm/ADT/ArrayRef.h>

namespace hoist {
namespace {

struct FlagBit {
  Var flag;
  unsigned bit;
};

/// The flags lahf and sahf move between AH and RFLAGS (SDM vol. 2, LAHF, SAHF).
constexpr FlagBit LowFlags[] = {
    {Var::CF, 0}, {Var::PF, 2}, {Var::AF, 4}, {Var::ZF, 6}, {Var::SF, 7}};
/// The flags popf sets at CPL 3 that Hoist models; the system bits it leaves to the OS.
constexpr FlagBit PoppedFlags[] = {{Var::CF, 0}, {Var::PF, 2}, {Var::AF, 4}, {Var::ZF, 6},
                                   {Var::SF, 7}, {Var::DF, 10}, {Var::OF, 11}};

constexpr uint64_t ReservedBit1 = 1u << 1;
constexpr uint64_t InterruptFlag = 1u << 9;

/// An integer of `bits` with the given flags at their RFLAGS positions and `fixed` set.
llvm::Value *composeFlags(LiftContext &ctx, unsigned bits, llvm::ArrayRef<FlagBit> fields,
                          uint64_t fixed) {
  llvm::Value *value = ctx.constant(bits, fixed);
  for (const FlagBit &field : fields) {
    llvm::Value *flag = ctx.ir.CreateZExt(ctx.readFlag(field.flag), ctx.intType(bits));
    value = ctx.ir.CreateOr(value, ctx.ir.CreateShl(flag, field.bit));
  }
  return value;
}

void extractFlags(LiftContext &ctx, llvm::Value *value, llvm::ArrayRef<FlagBit> fields) {
  for (const FlagBit &field : fields)
    ctx.writeFlag(field.flag,
                  ctx.ir.CreateTrunc(ctx.ir.CreateLShr(value, field.bit), ctx.ir.getInt1Ty()));
}

template <Var Flag, bool Value>
LiftStatus liftSetFlag(LiftContext &ctx, const Instr &) {
  ctx.writeFlag(Flag, ctx.ir.getInt1(Value));
  return LiftStatus::Lifted;
}

LiftStatus liftCmc(LiftContext &ctx, const Instr &) {
  ctx.writeFlag(Var::CF, ctx.ir.CreateNot(ctx.readFlag(Var::CF)));
  return LiftStatus::Lifted;
}

/// lahf: AH = SF:ZF:0:AF:0:PF:1:CF.
LiftStatus liftLahf(LiftContext &ctx, const Instr &) {
  ctx.writeReg(ZYDIS_REGISTER_AH, composeFlags(ctx, 8, LowFlags, ReservedBit1));
  return LiftStatus::Lifted;
}

/// sahf: SF ZF AF PF CF from bits 7 6 4 2 0 of AH; bits 1, 3 and 5 are ignored.
LiftStatus liftSahf(LiftContext &ctx, const Instr &) {
  extractFlags(ctx, ctx.readReg(ZYDIS_REGISTER_AH), LowFlags);
  return LiftStatus::Lifted;
}

/// pushfq / pushf (66 9c): the low 64 or 16 bits of RFLAGS. The system flags are not lifted
/// state: user code runs with IF = 1 (Linux and Windows never let CPL 3 run with interrupts
/// off, and the harness's native runs see IF set), so IF is pushed as a constant 1; TF, NT,
/// AC, ID and the rest are 0 in user code that does not set them itself.
LiftStatus liftPushf(LiftContext &ctx, const Instr &instr) {
  unsigned bits = instr.operandWidth;
  if (bits != 16 && bits != 64)
    return ctx.unsupported();
  ctx.push(composeFlags(ctx, bits, PoppedFlags, ReservedBit1 | InterruptFlag));
  return LiftStatus::Lifted;
}

/// popfq / popf (66 9d): CF PF AF ZF SF DF OF from the popped value. At CPL 3 the CPU ignores
/// IOPL and IF, and Hoist does not model TF, NT, AC or ID, so those bits are dropped.
LiftStatus liftPopf(LiftContext &ctx, const Instr &instr) {
  unsigned bits = instr.operandWidth;
  if (bits != 16 && bits != 64)
    return ctx.unsupported();
  extractFlags(ctx, ctx.pop(bits), PoppedFlags);
  return LiftStatus::Lifted;
}

} // namespace

void registerFlagOp(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_CLC, liftSetFlag<Var::CF, false>);
  table.add(ZYDIS_MNEMONIC_STC, liftSetFlag<Var::CF, true>);
  table.add(ZYDIS_MNEMONIC_CMC, liftCmc);
  table.add(ZYDIS_MNEMONIC_CLD, liftSetFlag<Var::DF, false>);
  table.add(ZYDIS_MNEMONIC_STD, liftSetFlag<Var::DF, true>);
  table.add(ZYDIS_MNEMONIC_LAHF, liftLahf);
  table.add(ZYDIS_MNEMONIC_SAHF, liftSahf);
  table.add(ZYDIS_MNEMONIC_PUSHF, liftPushf);
  table.add(ZYDIS_MNEMONIC_PUSHFQ, liftPushf);
  table.add(ZYDIS_MNEMONIC_POPF, liftPopf);
  table.add(ZYDIS_MNEMONIC_POPFQ, liftPopf);
}

} // namespace hoist
