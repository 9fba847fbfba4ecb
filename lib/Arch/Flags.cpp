#include "Arch/Flags.h"

namespace hoist {

static unsigned bit(Var flag) {
  return 1u << (static_cast<unsigned>(flag) - static_cast<unsigned>(Var::CF));
}

unsigned flagsDefinedBy(FlagOp op) {
  unsigned all = bit(Var::CF) | bit(Var::PF) | bit(Var::AF) | bit(Var::ZF) | bit(Var::SF) |
                 bit(Var::OF);
  if (op == FlagOp::Inc || op == FlagOp::Dec)
    return all & ~bit(Var::CF);
  return all;
}

llvm::Value *zeroFlag(llvm::IRBuilderBase &ir, llvm::Value *result) {
  return ir.CreateICmpEQ(result, llvm::ConstantInt::get(result->getType(), 0), "zf");
}

llvm::Value *signFlag(llvm::IRBuilderBase &ir, llvm::Value *result) {
  return ir.CreateICmpSLT(result, llvm::ConstantInt::get(result->getType(), 0), "sf");
}

llvm::Value *parityFlag(llvm::IRBuilderBase &ir, llvm::Value *result) {
  llvm::Value *lowByte = ir.CreateTrunc(result, ir.getInt8Ty());
  llvm::Value *ones = ir.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, lowByte);
  return ir.CreateICmpEQ(ir.CreateAnd(ones, ir.getInt8(1)), ir.getInt8(0), "pf");
}

llvm::Value *adjustFlag(llvm::IRBuilderBase &ir, llvm::Value *lhs, llvm::Value *rhs,
                        llvm::Value *result) {
  llvm::Value *mixed = ir.CreateXor(ir.CreateXor(lhs, rhs), result);
  llvm::Value *bit4 = ir.CreateAnd(mixed, llvm::ConstantInt::get(result->getType(), 0x10));
  return ir.CreateICmpNE(bit4, llvm::ConstantInt::get(result->getType(), 0), "af");
}

llvm::Value *carryOfAdd(llvm::IRBuilderBase &ir, llvm::Value *lhs, llvm::Value *result,
                        llvm::Value *carryIn) {
  // With a carry in, result == lhs means rhs was all ones: the sum wrapped exactly once.
  llvm::Value *wrapped = ir.CreateICmpULT(result, lhs);
  if (!carryIn)
    return wrapped;
  return ir.CreateOr(wrapped, ir.CreateAnd(carryIn, ir.CreateICmpEQ(result, lhs)), "cf");
}

llvm::Value *carryOfSub(llvm::IRBuilderBase &ir, llvm::Value *lhs, llvm::Value *rhs,
                        llvm::Value *carryIn) {
  llvm::Value *borrow = ir.CreateICmpULT(lhs, rhs);
  if (!carryIn)
    return borrow;
  return ir.CreateOr(borrow, ir.CreateAnd(carryIn, ir.CreateICmpEQ(lhs, rhs)), "cf");
}

llvm::Value *overflowOfAdd(llvm::IRBuilderBase &ir, llvm::Value *lhs, llvm::Value *rhs,
                           llvm::Value *result) {
  llvm::Value *both = ir.CreateAnd(ir.CreateXor(lhs, result), ir.CreateXor(rhs, result));
  return ir.CreateICmpSLT(both, llvm::ConstantInt::get(result->getType(), 0), "of");
}

llvm::Value *overflowOfSub(llvm::IRBuilderBase &ir, llvm::Value *lhs, llvm::Value *rhs,
                           llvm::Value *result) {
  llvm::Value *both = ir.CreateAnd(ir.CreateXor(lhs, rhs), ir.CreateXor(lhs, result));
  return ir.CreateICmpSLT(both, llvm::ConstantInt::get(result->getType(), 0), "of");
}

llvm::Value *computeFlag(llvm::IRBuilderBase &ir, const FlagThunk &t, Var flag) {
  switch (flag) {
  case Var::ZF:
    return zeroFlag(ir, t.result);
  case Var::SF:
    return signFlag(ir, t.result);
  case Var::PF:
    return parityFlag(ir, t.result);
  case Var::AF:
    if (t.op == FlagOp::Logic)
      return ir.getFalse();
    return adjustFlag(ir, t.lhs, t.rhs, t.result);
  case Var::CF:
    switch (t.op) {
    case FlagOp::Add:
      return carryOfAdd(ir, t.lhs, t.result, t.carryIn);
    case FlagOp::Sub:
      return carryOfSub(ir, t.lhs, t.rhs, t.carryIn);
    default:
      return ir.getFalse();
    }
  case Var::OF:
    switch (t.op) {
    case FlagOp::Add:
    case FlagOp::Inc:
      return overflowOfAdd(ir, t.lhs, t.rhs, t.result);
    case FlagOp::Sub:
    case FlagOp::Dec:
      return overflowOfSub(ir, t.lhs, t.rhs, t.result);
    case FlagOp::Logic:
      return ir.getFalse();
    }
    return ir.getFalse();
  default:
    return nullptr;
  }
}

} // namespace hoist
