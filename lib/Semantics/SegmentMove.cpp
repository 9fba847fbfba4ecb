// Moves to and from segment registers (Zydis puts them under mov). In 64-bit mode the
// selectors choose no base or limit for addressing (FS_BASE and GS_BASE do), so a selector is
// a 16-bit value in State that user code can read, and write where the kernel's descriptor
// tables allow it. The table below is Linux's x86-64 GDT (arch/x86/include/asm/segment.h),
// checked value by value against the CPU (docs/TESTING.md, "Segment registers").
#include "Semantics/SegmentMove.h"

namespace hoist {
namespace {

/// The selectors DS and ES accept at CPL 3, without their RPL bits: the null selector, and
/// the GDT's 32-bit user code (0x23, readable), user data (0x2b), 64-bit user code (0x33,
/// readable) and per-CPU data (0x7b) entries. The 32-bit code segment is present where the
/// kernel runs 32-bit programs (CONFIG_IA32_EMULATION, on in Debian's kernels); one booted with
/// ia32_emulation=0 marks it not present, and loading it faults there. A process that made an
/// LDT with modify_ldt has more; the lift assumes none.
constexpr uint16_t DataSelectorsWithoutRpl[] = {0x0000, 0x0020, 0x0028, 0x0030, 0x0078};
/// SS takes only a writable data segment whose DPL and RPL are the CPL: the user data one.
constexpr uint16_t StackSelector = 0x002b;

/// Whether loading `selector` into `reg` succeeds in a Linux process without an LDT.
llvm::Value *isLoadable(LiftContext &ctx, ZydisRegister reg, llvm::Value *selector) {
  auto &ir = ctx.ir;
  if (reg == ZYDIS_REGISTER_SS)
    return ir.CreateICmpEQ(selector, ir.getInt16(StackSelector));
  llvm::Value *withoutRpl = ir.CreateAnd(selector, ir.getInt16(0xfffc));
  llvm::Value *loadable = ir.getFalse();
  for (uint16_t allowed : DataSelectorsWithoutRpl)
    loadable = ir.CreateOr(loadable, ir.CreateICmpEQ(withoutRpl, ir.getInt16(allowed)));
  return loadable;
}

/// mov r/m, Sreg: a 32- or 64-bit register gets the selector zero-extended, a 16-bit one
/// (66h) keeps its upper bits, memory gets two bytes (SDM vol. 2, MOV).
LiftStatus liftReadSelector(LiftContext &ctx, const Instr &instr, HoistStateField field) {
  llvm::Value *selector = ctx.readStateField(field);
  unsigned bits = instr.op(0).isMem() ? 16 : ctx.operandBits(0);
  ctx.writeOperand(0, ctx.ir.CreateZExt(selector, ctx.intType(bits)));
  return LiftStatus::Lifted;
}

/// mov Sreg, r/m16: DS, ES and SS take what the descriptor tables allow and fault (#GP)
/// otherwise. CS cannot be a destination (#UD, which Zydis decodes as no instruction);
/// loading FS or GS would also reload FS_BASE or GS_BASE from the descriptor, which Hoist
/// does not model: those stay unsupported.
LiftStatus liftWriteSelector(LiftContext &ctx, const Instr &instr, HoistStateField field) {
  ZydisRegister reg = instr.op(0).reg;
  if (reg != ZYDIS_REGISTER_DS && reg != ZYDIS_REGISTER_ES && reg != ZYDIS_REGISTER_SS)
    return ctx.unsupported();
  llvm::Value *selector = ctx.readOperand(1, 16);
  ctx.control().trapIf(ctx.ir.CreateNot(isLoadable(ctx, reg, selector)),
                       ctx.ir.getInt64(instr.address), HOIST_EXCEPTION_GP);
  ctx.writeStateField(field, selector);
  return LiftStatus::Lifted;
}

} // namespace

std::optional<HoistStateField> selectorField(ZydisRegister reg) {
  switch (reg) {
  case ZYDIS_REGISTER_ES: return HOIST_FIELD_ES;
  case ZYDIS_REGISTER_CS: return HOIST_FIELD_CS;
  case ZYDIS_REGISTER_SS: return HOIST_FIELD_SS;
  case ZYDIS_REGISTER_DS: return HOIST_FIELD_DS;
  case ZYDIS_REGISTER_FS: return HOIST_FIELD_FS;
  case ZYDIS_REGISTER_GS: return HOIST_FIELD_GS;
  default: return std::nullopt;
  }
}

LiftStatus liftSegmentMove(LiftContext &ctx, const Instr &instr) {
  if (instr.op(1).isReg())
    if (std::optional<HoistStateField> field = selectorField(instr.op(1).reg))
      return liftReadSelector(ctx, instr, *field);
  if (instr.op(0).isReg())
    if (std::optional<HoistStateField> field = selectorField(instr.op(0).reg))
      return liftWriteSelector(ctx, instr, *field);
  return ctx.unsupported();
}

} // namespace hoist
