// Semantics of the string instructions (Zydis category STRINGOP): movs, stos, lods, cmps, scas
// in every size, alone or with rep / repe / repne.
//
// One iteration moves or compares one element and steps rsi/rdi by its size, backwards when
// DF is set. A repeated instruction first skips to the next instruction when the count (rcx,
// or ecx with a 0x67 prefix) is zero; otherwise it runs one iteration, decrements the count,
// and executes itself again (a branch to its own address) while the count is not zero and,
// for repe/repne, while ZF says so (SDM vol. 2, REP/REPE/REPZ/REPNE/REPNZ).
#include "Semantics/Semantics.h"

namespace hoist {
namespace {

enum class StringOp { Move, Compare };

/// Steps every pointer register the instruction's memory operands use by the element size.
void stepPointers(LiftContext &ctx, const Instr &instr, unsigned bytes) {
  auto &ir = ctx.ir;
  llvm::Value *step = ir.CreateSelect(ctx.readFlag(Var::DF), ir.getInt64(-int64_t(bytes)),
                                      ir.getInt64(bytes));
  for (unsigned i = 0; i < instr.operandCount; ++i) {
    const Operand &operand = instr.op(i);
    if (!operand.isMem())
      continue;
    ZydisRegister pointer = operand.base;
    llvm::Value *value = ctx.readReg(pointer);
    llvm::Value *moved = ir.CreateAdd(value, ir.CreateTrunc(step, value->getType()));
    ctx.writeReg(pointer, moved);
  }
}

template <StringOp Op>
LiftStatus liftString(LiftContext &ctx, const Instr &instr) {
  auto &ir = ctx.ir;
  const Operand &first = instr.op(0);
  const Operand &second = instr.op(1);
  bool repeated = instr.hasRepeatPrefix();
  ZydisRegister counter = counterRegister(instr);
  if (repeated) {
    llvm::Value *count = ctx.readReg(counter);
    ctx.control().branchIf(
        ir.CreateICmpEQ(count, llvm::ConstantInt::get(count->getType(), 0)), instr.next());
  }

  unsigned bits = first.isMem() ? first.bits : second.bits;
  if (Op == StringOp::Move) {
    ctx.writeOperand(0, ctx.readOperand(1));   // movs, stos, lods: first = second
  } else {
    llvm::Value *lhs = ctx.readOperand(0);     // cmps: [rsi] - [rdi]; scas: acc - [rdi]
    llvm::Value *rhs = ctx.readOperand(1);
    ctx.writeFlags(FlagOp::Sub, lhs, rhs, ir.CreateSub(lhs, rhs));
  }
  stepPointers(ctx, instr, bits / 8);
  if (!repeated)
    return LiftStatus::Lifted;

  llvm::Value *count = ctx.readReg(counter);
  llvm::Value *left = ir.CreateSub(count, llvm::ConstantInt::get(count->getType(), 1));
  ctx.writeReg(counter, left);
  llvm::Value *again = ir.CreateICmpNE(left, llvm::ConstantInt::get(count->getType(), 0));
  if (Op == StringOp::Compare && instr.hasRepe())
    again = ir.CreateAnd(again, ctx.readFlag(Var::ZF));
  else if (Op == StringOp::Compare && instr.hasRepne())
    again = ir.CreateAnd(again, ir.CreateNot(ctx.readFlag(Var::ZF)));
  ctx.control().branch(again, instr.address, instr.next());
  return LiftStatus::Lifted;
}

} // namespace

void registerString(SemanticTable &table) {
  for (ZydisMnemonic move : {ZYDIS_MNEMONIC_MOVSB, ZYDIS_MNEMONIC_MOVSW, ZYDIS_MNEMONIC_MOVSD,
                             ZYDIS_MNEMONIC_MOVSQ, ZYDIS_MNEMONIC_STOSB, ZYDIS_MNEMONIC_STOSW,
                             ZYDIS_MNEMONIC_STOSD, ZYDIS_MNEMONIC_STOSQ, ZYDIS_MNEMONIC_LODSB,
                             ZYDIS_MNEMONIC_LODSW, ZYDIS_MNEMONIC_LODSD, ZYDIS_MNEMONIC_LODSQ})
    table.add(move, liftString<StringOp::Move>, ZYDIS_CATEGORY_STRINGOP);
  for (ZydisMnemonic compare : {ZYDIS_MNEMONIC_CMPSB, ZYDIS_MNEMONIC_CMPSW, ZYDIS_MNEMONIC_CMPSD,
                                ZYDIS_MNEMONIC_CMPSQ, ZYDIS_MNEMONIC_SCASB, ZYDIS_MNEMONIC_SCASW,
                                ZYDIS_MNEMONIC_SCASD, ZYDIS_MNEMONIC_SCASQ})
    table.add(compare, liftString<StringOp::Compare>, ZYDIS_CATEGORY_STRINGOP);
}

} // namespace hoist
