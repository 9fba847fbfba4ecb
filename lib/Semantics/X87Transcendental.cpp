// x87 transcendentals (f2xm1 fsin fcos fsincos fptan fpatan fyl2x fyl2xp1): their results are
// the processor's own approximations (vol. 1, 8.3.10: the accuracy differs between processor
// generations and vendors; f2xm1's result outside -1..+1 is undefined), so no generic IR is
// exact. They are lifted as the same instruction in inline assembly, which gives exactly what
// the CPU running the lifted code gives, as the llvm.x86.* intrinsics do for rcpps; the
// reasons and costs are in docs/DESIGN.md ("x87 transcendentals"). The stack, the tags, C2
// and the stack faults stay in IR (X87Stack); only the value comes from the instruction.
// Like all x87 arithmetic it assumes the default control word (64-bit precision, round to
// nearest), which is what the code around it runs with.
#include "Semantics/X87Stack.h"

#include <llvm/IR/InlineAsm.h>

namespace hoist {
namespace {

constexpr const char *Clobbers = "~{dirflag},~{fpsr},~{flags}";

/// `text` run on x87 registers with `arguments` (ST(0), then ST(1)) under `constraints`.
llvm::Value *onTheCpu(LiftContext &ctx, llvm::StringRef text, llvm::Type *result,
                      llvm::StringRef constraints, llvm::ArrayRef<llvm::Value *> arguments) {
  llvm::SmallVector<llvm::Type *, 2> types;
  for (llvm::Value *argument : arguments)
    types.push_back(argument->getType());
  auto *type = llvm::FunctionType::get(result, types, false);
  llvm::InlineAsm *assembly =
      llvm::InlineAsm::get(type, text, (constraints + "," + Clobbers).str(), false);
  return ctx.ir.CreateCall(type, assembly, arguments);
}

/// i1: fsin, fcos, fptan and fsincos leave a finite operand of magnitude 2^63 or more
/// unchanged and set C2 (vol. 2, FSIN).
llvm::Value *outOfRange(LiftContext &ctx, llvm::Value *value) {
  LiftBuilder &ir = ctx.ir;
  llvm::Value *magnitude = ir.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, value);
  llvm::Value *limit = fp80Constant(ctx, 0x403e, uint64_t(1) << 63);   // 2^63
  llvm::Value *infinity = fp80Constant(ctx, 0x7fff, uint64_t(1) << 63);
  return ir.CreateAnd(ir.CreateFCmpOGE(magnitude, limit), ir.CreateFCmpONE(magnitude, infinity));
}

/// f2xm1, fsin, fcos: ST(0) = op(ST(0)); C2 reports an operand out of range (fsin, fcos).
template <bool HasRange> LiftStatus liftUnary(LiftContext &ctx, const Instr &instr) {
  LiftBuilder &ir = ctx.ir;
  X87Stack stack(ctx);
  llvm::Value *value = stack.read(0);
  llvm::Value *skip = HasRange ? outOfRange(ctx, value) : ir.getFalse();
  // An operand the instruction leaves alone is not handed to it at all.
  llvm::Value *operand = ir.CreateSelect(skip, llvm::ConstantFP::getZero(fp80Type(ctx)), value);
  llvm::Value *result = onTheCpu(ctx, instr.mnemonicName(), fp80Type(ctx), "={st},0", {operand});
  stack.write(0, ir.CreateSelect(skip, value, result));
  if (HasRange)
    stack.setCondition(X87Condition::C2, skip);
  stack.commit();
  return LiftStatus::Lifted;
}

/// fptan (ST(0) = tan, then 1.0 pushed) and fsincos (ST(0) = sin, then cos pushed); an
/// operand out of range leaves the stack alone and sets C2.
LiftStatus liftPushing(LiftContext &ctx, const Instr &instr) {
  LiftBuilder &ir = ctx.ir;
  // Stack faults come first: an empty ST(0), or a full stack, is one whatever the operand.
  X87Stack before(ctx);
  llvm::Value *stackFault = ir.CreateOr(before.isEmpty(0), ir.CreateNot(before.isEmpty(7)));
  llvm::Value *skip = ir.CreateAnd(outOfRange(ctx, before.raw(0)), ir.CreateNot(stackFault));
  ctx.control().ifThenElse(
      skip,
      [&] {
        X87Stack stack(ctx);
        stack.setCondition(X87Condition::C2, ir.getTrue());
        stack.commit();
      },
      [&] {
        X87Stack stack(ctx);
        llvm::Value *value = stack.read(0);
        // On a stack fault (ST(0) empty, or no room for the push) both results are the
        // indefinite, as seen on the CPU; push() sets C1 for the overflow. The instruction
        // in the lifted code must push exactly once, as its constraints tell LLVM's x87
        // stack allocator, so it never sees an operand out of range (it would not push).
        llvm::Value *fault = ir.CreateOr(stack.underflow(), ir.CreateNot(stack.isEmpty(7)));
        llvm::Value *operand =
            ir.CreateSelect(ir.CreateOr(fault, outOfRange(ctx, value)),
                            llvm::ConstantFP::getZero(fp80Type(ctx)), value);
        auto *pair = llvm::StructType::get(fp80Type(ctx), fp80Type(ctx));
        llvm::Value *results =
            onTheCpu(ctx, instr.mnemonicName(), pair, "={st},={st(1)},0", {operand});
        // The instruction leaves its second result in ST(1) and the pushed one in ST(0).
        llvm::Value *indefinite = x87Indefinite(ctx);
        stack.write(0, ir.CreateSelect(fault, indefinite, ir.CreateExtractValue(results, 1)));
        stack.push(ir.CreateSelect(fault, indefinite, ir.CreateExtractValue(results, 0)));
        stack.setCondition(X87Condition::C2, ir.getFalse());
        stack.commit();
      });
  return LiftStatus::Lifted;
}

/// fpatan (arctan(ST(1) / ST(0))), fyl2x (ST(1) * log2(ST(0))), fyl2xp1 (ST(1) *
/// log2(ST(0) + 1)): the result replaces ST(1), then the stack pops.
LiftStatus liftPopping(LiftContext &ctx, const Instr &instr) {
  X87Stack stack(ctx);
  llvm::Value *x = stack.read(0), *y = stack.read(1);
  llvm::Value *result =
      onTheCpu(ctx, instr.mnemonicName(), fp80Type(ctx), "={st},0,{st(1)},~{st(1)}", {x, y});
  // A stack underflow gives the indefinite, whatever NaN the other operand is.
  stack.write(1, ctx.ir.CreateSelect(stack.underflow(), x87Indefinite(ctx), result));
  stack.pop();
  stack.commit();
  return LiftStatus::Lifted;
}

} // namespace

void registerX87Transcendental(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_F2XM1, liftUnary<false>);
  table.add(ZYDIS_MNEMONIC_FSIN, liftUnary<true>);
  table.add(ZYDIS_MNEMONIC_FCOS, liftUnary<true>);
  table.add(ZYDIS_MNEMONIC_FPTAN, liftPushing);
  table.add(ZYDIS_MNEMONIC_FSINCOS, liftPushing);
  table.add(ZYDIS_MNEMONIC_FPATAN, liftPopping);
  table.add(ZYDIS_MNEMONIC_FYL2X, liftPopping);
  table.add(ZYDIS_MNEMONIC_FYL2XP1, liftPopping);
}

} // namespace hoist
