// Semantics of bit tests and scans, counts, bswap (Zydis categories BITBYTE).
//
// Flags the SDM leaves undefined get the constant 0: cheap, and it lets the optimizer drop
// whatever computed the old value.
#include "Semantics/Semantics.h"

#include <llvm/IR/Intrinsics.h>

namespace hoist {
namespace {

enum class BitOp { Test, Set, Reset, Complement };

void writeUndefinedAsZero(LiftContext &ctx, std::initializer_list<Var> flags) {
  for (Var flag : flags)
    ctx.writeFlag(flag, ctx.ir.getFalse());
}

/// The address of the operand a memory bt* with a register bit offset selects: the offset is
/// signed and may reach outside the operand, so the address moves by whole operands,
/// base + (offset >> log2(bits)) * (bits / 8) (SDM vol. 2, BT, "bit base" and table 3-2).
llvm::Value *bitBaseAddress(LiftContext &ctx, const Operand &operand, llvm::Value *offset,
                            unsigned bits) {
  auto &ir = ctx.ir;
  llvm::Value *address = ctx.effectiveAddress(operand);
  unsigned log2Bits = bits == 16 ? 4 : bits == 32 ? 5 : 6;
  llvm::Value *units = ir.CreateAShr(ir.CreateSExt(offset, ir.getInt64Ty()), log2Bits);
  address = ir.CreateAdd(address, ir.CreateShl(units, log2Bits - 3));
  if (ctx.instr().addressWidth == 32)
    address = ir.CreateZExt(ir.CreateTrunc(address, ir.getInt32Ty()), ir.getInt64Ty());
  return address;
}

/// bt, bts, btr, btc: CF = the selected bit, which bts/btr/btc then set, clear or flip.
/// ZF is unchanged; OF, SF, AF and PF are undefined (SDM vol. 2, BT/BTS/BTR/BTC).
template <BitOp Op>
LiftStatus liftBitTest(LiftContext &ctx, const Instr &instr) {
  auto &ir = ctx.ir;
  const Operand &target = instr.op(0);
  unsigned bits = ctx.operandBits(0);
  bool farMemory = target.isMem() && instr.op(1).isReg();
  // With 32-bit addresses, the displacement would have to wrap before the segment base is
  // added; effectiveAddress adds the base first.
  if (farMemory && instr.addressWidth == 32 &&
      (target.segment == ZYDIS_REGISTER_FS || target.segment == ZYDIS_REGISTER_GS))
    return ctx.unsupported();

  llvm::Value *offset = ctx.readOperand(1, bits);
  // A locked bts, btr or btc sets, clears or flips the bit in one atomicrmw, whose mask comes
  // first; the plain order stays as it was.
  bool locked = Op != BitOp::Test && ctx.updatesAtomically(0);
  llvm::Value *address = farMemory ? bitBaseAddress(ctx, target, offset, bits) : nullptr;
  llvm::Value *value = nullptr;
  if (!locked)
    value = address ? ctx.load(address, ctx.intType(bits)) : ctx.readOperand(0);
  llvm::Value *index = ir.CreateAnd(offset, ctx.constant(bits, bits - 1));
  if (locked) {
    llvm::Value *mask = ir.CreateShl(ctx.constant(bits, 1), index);
    auto rmw = Op == BitOp::Set     ? llvm::AtomicRMWInst::Or
               : Op == BitOp::Reset ? llvm::AtomicRMWInst::And
                                    : llvm::AtomicRMWInst::Xor;
    llvm::Value *operand = Op == BitOp::Reset ? ir.CreateNot(mask) : mask;
    value = address ? ctx.atomicUpdate(address, rmw, operand)
                    : ctx.readOperandForUpdate(0, rmw, operand);
  }
  llvm::Value *bit = ir.CreateTrunc(ir.CreateLShr(value, index), ir.getInt1Ty());
  if (Op != BitOp::Test && !(locked && address)) {
    llvm::Value *mask = ir.CreateShl(ctx.constant(bits, 1), index);
    llvm::Value *result = Op == BitOp::Set     ? ir.CreateOr(value, mask)
                          : Op == BitOp::Reset ? ir.CreateAnd(value, ir.CreateNot(mask))
                                               : ir.CreateXor(value, mask);
    if (address)
      ctx.store(address, result);
    else
      ctx.writeOperand(0, result);
  }
  ctx.writeFlag(Var::CF, bit);
  writeUndefinedAsZero(ctx, {Var::OF, Var::SF, Var::AF, Var::PF});
  return LiftStatus::Lifted;
}

llvm::Value *countZeros(LiftContext &ctx, llvm::Intrinsic::ID id, llvm::Value *value) {
  // is_zero_poison = false: a zero input gives the operand width.
  return ctx.ir.CreateIntrinsic(id, {value->getType()}, {value, ctx.ir.getFalse()});
}

/// bsf, bsr: the index of the lowest or highest set bit; ZF = (source == 0). For a zero
/// source the destination is undefined (Intel; AMD keeps it), and so are CF, OF, SF, AF, PF
/// always (SDM vol. 2, BSF/BSR). Hoist keeps the old destination, as AMD documents and Intel
/// parts do, since compilers have begun to rely on it; a 32-bit write still zero-extends.
template <bool Reverse>
LiftStatus liftBitScan(LiftContext &ctx, const Instr &instr) {
  auto &ir = ctx.ir;
  unsigned bits = ctx.operandBits(0);
  llvm::Value *source = ctx.readOperand(1, bits);
  llvm::Value *old = ctx.readOperand(0);
  llvm::Value *result;
  if (Reverse)
    result = ir.CreateSub(ctx.constant(bits, bits - 1),
                           countZeros(ctx, llvm::Intrinsic::ctlz, source));
  else
    result = countZeros(ctx, llvm::Intrinsic::cttz, source);
  ctx.writeOperand(0, ir.CreateSelect(zeroFlag(ir, source), old, result));
  ctx.writeFlag(Var::ZF, zeroFlag(ir, source));
  writeUndefinedAsZero(ctx, {Var::CF, Var::OF, Var::SF, Var::AF, Var::PF});
  return LiftStatus::Lifted;
}

/// lzcnt, tzcnt: the number of leading or trailing zero bits, the width for 0; CF = (source
/// == 0), ZF = (result == 0); OF, SF, AF and PF are undefined (SDM vol. 2, LZCNT/TZCNT).
template <bool Leading>
LiftStatus liftCountZeros(LiftContext &ctx, const Instr &instr) {
  auto &ir = ctx.ir;
  unsigned bits = ctx.operandBits(0);
  llvm::Value *source = ctx.readOperand(1, bits);
  llvm::Value *result =
      countZeros(ctx, Leading ? llvm::Intrinsic::ctlz : llvm::Intrinsic::cttz, source);
  ctx.writeOperand(0, result);
  ctx.writeFlag(Var::CF, zeroFlag(ir, source));
  ctx.writeFlag(Var::ZF, zeroFlag(ir, result));
  writeUndefinedAsZero(ctx, {Var::OF, Var::SF, Var::AF, Var::PF});
  return LiftStatus::Lifted;
}

/// popcnt: the number of set bits; ZF = (source == 0), OF SF AF CF PF cleared (SDM vol. 2).
LiftStatus liftPopcnt(LiftContext &ctx, const Instr &instr) {
  auto &ir = ctx.ir;
  unsigned bits = ctx.operandBits(0);
  llvm::Value *source = ctx.readOperand(1, bits);
  llvm::Value *result = ir.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, source);
  ctx.writeOperand(0, result);
  ctx.writeFlag(Var::ZF, zeroFlag(ir, source));
  writeUndefinedAsZero(ctx, {Var::CF, Var::OF, Var::SF, Var::AF, Var::PF});
  return LiftStatus::Lifted;
}

/// bswap r32/r64. With a 16-bit operand the result is undefined (SDM vol. 2, BSWAP).
LiftStatus liftBswap(LiftContext &ctx, const Instr &instr) {
  if (ctx.operandBits(0) == 16)
    return ctx.unsupported();
  llvm::Value *value = ctx.readOperand(0);
  ctx.writeOperand(0, ctx.ir.CreateUnaryIntrinsic(llvm::Intrinsic::bswap, value));
  return LiftStatus::Lifted;
}

} // namespace

void registerBitByte(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_BT, liftBitTest<BitOp::Test>);
  table.add(ZYDIS_MNEMONIC_BTS, liftBitTest<BitOp::Set>);
  table.add(ZYDIS_MNEMONIC_BTR, liftBitTest<BitOp::Reset>);
  table.add(ZYDIS_MNEMONIC_BTC, liftBitTest<BitOp::Complement>);
  table.add(ZYDIS_MNEMONIC_BSF, liftBitScan<false>);
  table.add(ZYDIS_MNEMONIC_BSR, liftBitScan<true>);
  table.add(ZYDIS_MNEMONIC_LZCNT, liftCountZeros<true>);
  table.add(ZYDIS_MNEMONIC_TZCNT, liftCountZeros<false>);
  table.add(ZYDIS_MNEMONIC_POPCNT, liftPopcnt);
  table.add(ZYDIS_MNEMONIC_BSWAP, liftBswap);
}

} // namespace hoist
