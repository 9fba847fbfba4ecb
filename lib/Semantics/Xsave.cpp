// The xsave family as copies of State (SDM vol. 1, ch. 13; vol. 2, XSAVE, XSAVEOPT, XSAVEC,
// XRSTOR): xsave, xsaveopt, xsavec and xrstor with their REX.W forms, for the state
// components Hoist models: 0 (x87), 1 (SSE: XMM and MXCSR) and 2 (AVX: the upper halves).
//
// The requested-feature bitmap RFBM is EDX:EAX & XCR0, XCR0 coming from State (the runtime
// fills it, as xgetbv reads it). When RFBM names any other component (AVX-512's opmask and
// ZMM state, PKRU, AMX, ...), or State's XCR0 is not a valid one (bit 0 clear), the
// instruction is left to the runtime through __hoist_unsupported: Hoist does not hold those
// registers and will not write a made-up image of them.
//
// XINUSE, the processor's record of which components are not in their initial configuration,
// is modelled as "every modelled component in use": the SDM lets a processor report
// XINUSE[i] = 1 at any time (13.6). So xsave and xsaveopt set XSTATE_BV[i] for every i in
// RFBM, and xsaveopt and xsavec write every component RFBM asks for (a processor may skip one
// it tracks as initial or unmodified; the bytes it would have skipped are then the initial
// values, which is what the lifted code writes). docs/SIMD_FP.md, "xsave".
#include "Semantics/LegacyRegion.h"

#include "Support/Diagnostics.h"

namespace hoist {
namespace {

constexpr unsigned HeaderOffset = legacy::Size, XstateBvOffset = HeaderOffset,
                   XcompBvOffset = HeaderOffset + 8, HeaderSize = 64,
                   AvxOffset = HeaderOffset + HeaderSize;   // standard and compacted alike
constexpr uint64_t ModelledComponents = 0x7, CompactedFormat = uint64_t(1) << 63;
constexpr unsigned X87 = 0, Sse = 1, Avx = 2;

enum class Save { Standard, Optimized, Compacted };

/// The area's base address; #GP unless it is 64-byte aligned.
llvm::Value *alignedArea(LiftContext &ctx, const Instr &instr) {
  llvm::Value *base = ctx.effectiveAddress(instr.op(0));
  ctx.trapIfMisaligned(base, 64);
  return base;
}

llvm::Value *bit(LiftContext &ctx, llvm::Value *bitmap, unsigned component) {
  return ctx.ir.CreateTrunc(ctx.ir.CreateLShr(bitmap, component), ctx.ir.getInt1Ty());
}

struct Request {
  llvm::Value *xcr0, *rfbm;
  llvm::Value *unmodelled;   ///< RFBM names a component Hoist does not hold, or XCR0 is bad
};

Request request(LiftContext &ctx) {
  LiftBuilder &ir = ctx.ir;
  Request r;
  r.xcr0 = ctx.readConfiguration(HOIST_FIELD_XCR0);
  llvm::Value *mask =
      ir.CreateOr(ir.CreateShl(ir.CreateZExt(ctx.readReg(ZYDIS_REGISTER_EDX), ir.getInt64Ty()), 32),
                  ir.CreateZExt(ctx.readReg(ZYDIS_REGISTER_EAX), ir.getInt64Ty()));
  r.rfbm = ir.CreateAnd(mask, r.xcr0, "rfbm");
  r.unmodelled = ir.CreateOr(
      ir.CreateICmpNE(ir.CreateAnd(r.rfbm, ~ModelledComponents), ir.getInt64(0)),
      ir.CreateNot(bit(ctx, r.xcr0, X87)));
  return r;
}

/// Runs `modelled` when RFBM stays within the modelled components; hands the instruction to
/// the runtime otherwise.
void unlessUnmodelled(LiftContext &ctx, const Instr &instr, const Request &r,
                      llvm::function_ref<void()> modelled) {
  ctx.diagnostics().report(Severity::Note, "xsave-components", instr.address,
                           instr.describe() +
                               ": state components other than x87, SSE and AVX (AVX-512, "
                               "PKRU, AMX, ...) are left to the runtime (__hoist_unsupported)");
  ctx.control().ifThenElse(r.unmodelled, [&] { ctx.control().unsupportedAtRunTime(); },
                           modelled);
}

void storeAvxUpper(LiftContext &ctx, llvm::Value *base) {
  for (unsigned i = 0; i < 16; ++i) {
    llvm::Value *upper = ctx.ir.CreateShuffleVector(ctx.readVar(ymmVar(i)), {2, 3});
    ctx.store(legacy::at(ctx, base, AvxOffset + 16 * i), upper);
  }
}

template <Save Kind> LiftStatus liftXsave(LiftContext &ctx, const Instr &instr) {
  LiftBuilder &ir = ctx.ir;
  llvm::Value *base = alignedArea(ctx, instr);
  Request r = request(ctx);
  unlessUnmodelled(ctx, instr, r, [&] {
    ControlTransfers &control = ctx.control();
    llvm::Value *sse = bit(ctx, r.rfbm, Sse), *avx = bit(ctx, r.rfbm, Avx);
    control.ifThenElse(bit(ctx, r.rfbm, X87), [&] { legacy::storeX87(ctx, base); }, {});
    // MXCSR belongs to SSE, but the standard format saves it for AVX too (vol. 1, 13.7).
    llvm::Value *mxcsr = Kind == Save::Compacted ? sse : ir.CreateOr(sse, avx);
    control.ifThenElse(mxcsr, [&] { legacy::storeMxcsr(ctx, base); }, {});
    control.ifThenElse(sse, [&] { legacy::storeXmm(ctx, base); }, {});
    // Compacted, AVX is the first component of the extended region: at 576 as well.
    control.ifThenElse(avx, [&] { storeAvxUpper(ctx, base); }, {});
    llvm::Value *xstateBv = legacy::at(ctx, base, XstateBvOffset);
    if constexpr (Kind == Save::Compacted) {
      // XSTATE_BV = RFBM & XINUSE, XCOMP_BV = bit 63 | RFBM; the rest of the header stays.
      ctx.store(xstateBv, r.rfbm);
      ctx.store(legacy::at(ctx, base, XcompBvOffset), ir.CreateOr(r.rfbm, CompactedFormat));
    } else {
      // XSTATE_BV[i] = XINUSE[i] for i in RFBM, unchanged elsewhere.
      ctx.store(xstateBv, ir.CreateOr(ctx.load(xstateBv, ir.getInt64Ty()), r.rfbm));
    }
  });
  return LiftStatus::Lifted;
}

/// xrstor: the header decides the form (XCOMP_BV[63]) and is checked first (#GP, vol. 1,
/// 13.8.1 and 13.8.2); then each component in RFBM is loaded where XSTATE_BV has its bit and
/// initialized where it has not.
LiftStatus liftXrstor(LiftContext &ctx, const Instr &instr) {
  LiftBuilder &ir = ctx.ir;
  llvm::Value *base = alignedArea(ctx, instr);
  Request r = request(ctx);
  unlessUnmodelled(ctx, instr, r, [&] {
    ControlTransfers &control = ctx.control();
    llvm::Value *zero = ir.getInt64(0);
    auto headerWord = [&](unsigned index) {
      return ctx.load(legacy::at(ctx, base, HeaderOffset + 8 * index), ir.getInt64Ty());
    };
    llvm::Value *xstateBv = headerWord(0), *xcompBv = headerWord(1);
    llvm::Value *reservedWords = headerWord(2);   // bytes 16..23: checked in both forms
    llvm::Value *laterWords = zero;               // bytes 24..63: checked when compacted
    for (unsigned index = 3; index < HeaderSize / 8; ++index)
      laterWords = ir.CreateOr(laterWords, headerWord(index));
    llvm::Value *compacted = bit(ctx, xcompBv, 63);
    auto nonzero = [&](llvm::Value *v) { return ir.CreateICmpNE(v, zero); };
    auto outside = [&](llvm::Value *bits, llvm::Value *allowed) {
      return nonzero(ir.CreateAnd(bits, ir.CreateNot(allowed)));
    };
    // Standard: XSTATE_BV within XCR0, bytes 8..23 zero. Compacted: XCOMP_BV[62:0] within
    // XCR0, XSTATE_BV within XCOMP_BV[62:0] (bit 63 of XSTATE_BV faults too), bytes 16..63
    // zero.
    llvm::Value *components = ir.CreateAnd(xcompBv, ~CompactedFormat);
    llvm::Value *badStandard = ir.CreateOr(outside(xstateBv, r.xcr0),
                                           nonzero(ir.CreateOr(xcompBv, reservedWords)));
    llvm::Value *badCompacted =
        ir.CreateOr(ir.CreateOr(outside(components, r.xcr0), outside(xstateBv, components)),
                    nonzero(ir.CreateOr(reservedWords, laterWords)));
    control.trapIf(ir.CreateSelect(compacted, badCompacted, badStandard),
                   ir.getInt64(instr.address), HOIST_EXCEPTION_GP);

    llvm::Value *load = ir.CreateAnd(r.rfbm, xstateBv);
    llvm::Value *sse = bit(ctx, r.rfbm, Sse), *avx = bit(ctx, r.rfbm, Avx);
    // MXCSR may fault, so it goes first. Standard: loaded whenever RFBM asks for SSE or AVX,
    // whatever XSTATE_BV says; compacted: part of SSE, loaded or set to 1F80H with it.
    llvm::Value *memoryMxcsr = ctx.load(legacy::at(ctx, base, legacy::MxcsrOffset),
                                        ir.getInt32Ty());
    llvm::Value *loadsMxcsr =
        ir.CreateSelect(compacted, bit(ctx, load, Sse), ir.CreateOr(sse, avx));
    llvm::Value *initializesMxcsr =
        ir.CreateAnd(compacted, ir.CreateAnd(sse, ir.CreateNot(bit(ctx, load, Sse))));
    legacy::trapIfReservedMxcsr(ctx, instr, memoryMxcsr, loadsMxcsr);
    llvm::Value *mxcsr = ir.CreateSelect(
        loadsMxcsr, memoryMxcsr,
        ir.CreateSelect(initializesMxcsr, ir.getInt32(legacy::InitialMxcsr),
                        ctx.readVar(Var::MXCSR)));
    ctx.writeVar(Var::MXCSR, mxcsr);

    auto component = [&](unsigned index, llvm::function_ref<void()> fromMemory,
                         llvm::function_ref<void()> initialize) {
      control.ifThenElse(bit(ctx, r.rfbm, index), [&] {
        control.ifThenElse(bit(ctx, xstateBv, index), fromMemory, initialize);
      }, {});
    };
    component(
        X87, [&] { legacy::writeX87(ctx, legacy::loadX87(ctx, base)); },
        [&] { legacy::writeX87(ctx, legacy::initialX87(ctx)); });
    component(
        Sse, [&] { legacy::writeXmm(ctx, legacy::loadXmm(ctx, base)); },
        [&] { legacy::writeXmm(ctx, {}); });
    auto writeUpper = [&](bool fromMemory) {
      auto *half = llvm::FixedVectorType::get(ir.getInt64Ty(), 2);
      for (unsigned i = 0; i < 16; ++i) {
        llvm::Value *upper = fromMemory ? ctx.load(legacy::at(ctx, base, AvxOffset + 16 * i), half)
                                        : llvm::Constant::getNullValue(half);
        llvm::Value *low = ir.CreateShuffleVector(ctx.readVar(ymmVar(i)), {0, 1});
        ctx.writeVar(ymmVar(i), ir.CreateShuffleVector(low, upper, {0, 1, 2, 3}));
      }
    };
    component(Avx, [&] { writeUpper(true); }, [&] { writeUpper(false); });
  });
  legacy::noteEnvironmentLoad(ctx, instr);
  return LiftStatus::Lifted;
}

} // namespace

void registerXsave(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_XSAVE, liftXsave<Save::Standard>);
  table.add(ZYDIS_MNEMONIC_XSAVE64, liftXsave<Save::Standard>);
  table.add(ZYDIS_MNEMONIC_XSAVEOPT, liftXsave<Save::Optimized>);
  table.add(ZYDIS_MNEMONIC_XSAVEOPT64, liftXsave<Save::Optimized>);
  table.add(ZYDIS_MNEMONIC_XSAVEC, liftXsave<Save::Compacted>);
  table.add(ZYDIS_MNEMONIC_XSAVEC64, liftXsave<Save::Compacted>);
  table.add(ZYDIS_MNEMONIC_XRSTOR, liftXrstor);
  table.add(ZYDIS_MNEMONIC_XRSTOR64, liftXrstor);
}

} // namespace hoist
