// SIMD floating point (Zydis categories SSE and AVX: arithmetic, logic on FP registers,
// compares, approximations, rounding, horizontal and dot products); FMA3 is in SimdFma.cpp.
#include "Semantics/FloatRules.h"
#include "Semantics/Semantics.h"
#include "Semantics/SimdHelpers.h"

#include <llvm/IR/IntrinsicsX86.h>

namespace hoist {

/// FMA3 (SimdFma.cpp), registered with this family.
void registerSimdFma(SemanticTable &table);

namespace {

llvm::Type *elementType(LiftContext &ctx, bool isDouble) {
  return isDouble ? ctx.ir.getDoubleTy() : ctx.ir.getFloatTy();
}

/// The row of a form table (rows of a legacy and a VEX mnemonic) that has `mnemonic`.
template <typename Form, size_t N>
const Form &findForm(const Form (&forms)[N], ZydisMnemonic mnemonic) {
  for (const Form &form : forms)
    if (form.legacy == mnemonic || form.vex == mnemonic)
      return form;
  assert(false && "mnemonic registered without a form");
  return forms[0];
}

/// The imm8 operand, the last explicit one.
unsigned immediate(const Instr &instr) {
  return simd::immediate(instr, instr.explicitCount - 1u);
}

/// An operation on two sources element by element. Packed: `op` gets the whole vectors, the
/// destination and first source (legacy) or the second and third operand (VEX). Scalar: `op`
/// gets the low elements, and the others come from the first source, which for VEX is not
/// the destination (SDM vol. 2, ADDSS: "VADDSS ... DEST[127:32] := SRC1[127:32]").
template <typename Op>
void liftBinaryLanes(LiftContext &ctx, llvm::Type *element, bool scalar, Op op) {
  unsigned first = ctx.firstSource();
  if (!scalar) {
    llvm::Value *a = ctx.readVector(first, element);
    llvm::Value *b = ctx.readVector(first + 1, element);
    ctx.writeVector(0, op(a, b));
    return;
  }
  llvm::Value *a = ctx.readVectorReg(ctx.instr().op(first).reg, element);
  llvm::Value *b = ctx.readScalar(first + 1, element);
  llvm::Value *low = op(ctx.ir.CreateExtractElement(a, uint64_t(0)), b);
  ctx.writeVector(0, ctx.ir.CreateInsertElement(a, low, uint64_t(0)));
}

/// An operation on one source. Packed forms have it as operand 1, VEX ones too (vsqrtps xmm1,
/// xmm2/m128); scalar forms are binary ones whose first source gives only the upper elements.
template <typename Op>
void liftUnaryLanes(LiftContext &ctx, llvm::Type *element, bool scalar, Op op) {
  if (scalar)
    liftBinaryLanes(ctx, element, true, [&](llvm::Value *, llvm::Value *b) { return op(b); });
  else
    ctx.writeVector(0, op(ctx.readVector(1, element)));
}

using fp::Arith;
using fp::arithmetic;

struct ArithForm {
  ZydisMnemonic legacy, vex;
  Arith op;
  bool isDouble, scalar;
};

constexpr ArithForm ArithForms[] = {
    {ZYDIS_MNEMONIC_ADDPS, ZYDIS_MNEMONIC_VADDPS, Arith::Add, false, false},
    {ZYDIS_MNEMONIC_ADDPD, ZYDIS_MNEMONIC_VADDPD, Arith::Add, true, false},
    {ZYDIS_MNEMONIC_ADDSS, ZYDIS_MNEMONIC_VADDSS, Arith::Add, false, true},
    {ZYDIS_MNEMONIC_ADDSD, ZYDIS_MNEMONIC_VADDSD, Arith::Add, true, true},
    {ZYDIS_MNEMONIC_SUBPS, ZYDIS_MNEMONIC_VSUBPS, Arith::Sub, false, false},
    {ZYDIS_MNEMONIC_SUBPD, ZYDIS_MNEMONIC_VSUBPD, Arith::Sub, true, false},
    {ZYDIS_MNEMONIC_SUBSS, ZYDIS_MNEMONIC_VSUBSS, Arith::Sub, false, true},
    {ZYDIS_MNEMONIC_SUBSD, ZYDIS_MNEMONIC_VSUBSD, Arith::Sub, true, true},
    {ZYDIS_MNEMONIC_MULPS, ZYDIS_MNEMONIC_VMULPS, Arith::Mul, false, false},
    {ZYDIS_MNEMONIC_MULPD, ZYDIS_MNEMONIC_VMULPD, Arith::Mul, true, false},
    {ZYDIS_MNEMONIC_MULSS, ZYDIS_MNEMONIC_VMULSS, Arith::Mul, false, true},
    {ZYDIS_MNEMONIC_MULSD, ZYDIS_MNEMONIC_VMULSD, Arith::Mul, true, true},
    {ZYDIS_MNEMONIC_DIVPS, ZYDIS_MNEMONIC_VDIVPS, Arith::Div, false, false},
    {ZYDIS_MNEMONIC_DIVPD, ZYDIS_MNEMONIC_VDIVPD, Arith::Div, true, false},
    {ZYDIS_MNEMONIC_DIVSS, ZYDIS_MNEMONIC_VDIVSS, Arith::Div, false, true},
    {ZYDIS_MNEMONIC_DIVSD, ZYDIS_MNEMONIC_VDIVSD, Arith::Div, true, true},
    {ZYDIS_MNEMONIC_MINPS, ZYDIS_MNEMONIC_VMINPS, Arith::Min, false, false},
    {ZYDIS_MNEMONIC_MINPD, ZYDIS_MNEMONIC_VMINPD, Arith::Min, true, false},
    {ZYDIS_MNEMONIC_MINSS, ZYDIS_MNEMONIC_VMINSS, Arith::Min, false, true},
    {ZYDIS_MNEMONIC_MINSD, ZYDIS_MNEMONIC_VMINSD, Arith::Min, true, true},
    {ZYDIS_MNEMONIC_MAXPS, ZYDIS_MNEMONIC_VMAXPS, Arith::Max, false, false},
    {ZYDIS_MNEMONIC_MAXPD, ZYDIS_MNEMONIC_VMAXPD, Arith::Max, true, false},
    {ZYDIS_MNEMONIC_MAXSS, ZYDIS_MNEMONIC_VMAXSS, Arith::Max, false, true},
    {ZYDIS_MNEMONIC_MAXSD, ZYDIS_MNEMONIC_VMAXSD, Arith::Max, true, true},
    {ZYDIS_MNEMONIC_SQRTPS, ZYDIS_MNEMONIC_VSQRTPS, Arith::Sqrt, false, false},
    {ZYDIS_MNEMONIC_SQRTPD, ZYDIS_MNEMONIC_VSQRTPD, Arith::Sqrt, true, false},
    {ZYDIS_MNEMONIC_SQRTSS, ZYDIS_MNEMONIC_VSQRTSS, Arith::Sqrt, false, true},
    {ZYDIS_MNEMONIC_SQRTSD, ZYDIS_MNEMONIC_VSQRTSD, Arith::Sqrt, true, true},
};

/// addps ... sqrtsd and their VEX forms (SDM vol. 2, ADDPS ... SQRTSD).
LiftStatus liftArithmetic(LiftContext &ctx, const Instr &instr) {
  const ArithForm &form = findForm(ArithForms, instr.mnemonic);
  llvm::Type *element = elementType(ctx, form.isDouble);
  if (form.op == Arith::Sqrt)
    liftUnaryLanes(ctx, element, form.scalar,
                   [&](llvm::Value *x) { return arithmetic(ctx, Arith::Sqrt, x, x); });
  else
    liftBinaryLanes(ctx, element, form.scalar,
                    [&](llvm::Value *a, llvm::Value *b) { return arithmetic(ctx, form.op, a, b); });
  return LiftStatus::Lifted;
}

enum class Logic { And, AndNot, Or, Xor };

struct LogicForm {
  ZydisMnemonic legacy, vex;
  Logic op;
};

constexpr LogicForm LogicForms[] = {
    {ZYDIS_MNEMONIC_ANDPS, ZYDIS_MNEMONIC_VANDPS, Logic::And},
    {ZYDIS_MNEMONIC_ANDPD, ZYDIS_MNEMONIC_VANDPD, Logic::And},
    {ZYDIS_MNEMONIC_ANDNPS, ZYDIS_MNEMONIC_VANDNPS, Logic::AndNot},
    {ZYDIS_MNEMONIC_ANDNPD, ZYDIS_MNEMONIC_VANDNPD, Logic::AndNot},
    {ZYDIS_MNEMONIC_ORPS, ZYDIS_MNEMONIC_VORPS, Logic::Or},
    {ZYDIS_MNEMONIC_ORPD, ZYDIS_MNEMONIC_VORPD, Logic::Or},
    {ZYDIS_MNEMONIC_XORPS, ZYDIS_MNEMONIC_VXORPS, Logic::Xor},
    {ZYDIS_MNEMONIC_XORPD, ZYDIS_MNEMONIC_VXORPD, Logic::Xor},
};

/// andps ... xorpd: bitwise, so integer operations on the bits (andnps inverts the first
/// source).
LiftStatus liftLogic(LiftContext &ctx, const Instr &instr) {
  Logic op = findForm(LogicForms, instr.mnemonic).op;
  liftBinaryLanes(ctx, ctx.ir.getInt64Ty(), false, [&](llvm::Value *a, llvm::Value *b) {
    switch (op) {
    case Logic::And:
      return ctx.ir.CreateAnd(a, b);
    case Logic::AndNot:
      return ctx.ir.CreateAnd(ctx.ir.CreateNot(a), b);
    case Logic::Or:
      return ctx.ir.CreateOr(a, b);
    case Logic::Xor:
      return ctx.ir.CreateXor(a, b);
    }
    return static_cast<llvm::Value *>(nullptr);
  });
  return LiftStatus::Lifted;
}

struct CompareForm {
  ZydisMnemonic legacy, vex;
  bool isDouble, scalar;
};

constexpr CompareForm CompareForms[] = {
    {ZYDIS_MNEMONIC_CMPPS, ZYDIS_MNEMONIC_VCMPPS, false, false},
    {ZYDIS_MNEMONIC_CMPPD, ZYDIS_MNEMONIC_VCMPPD, true, false},
    {ZYDIS_MNEMONIC_CMPSS, ZYDIS_MNEMONIC_VCMPSS, false, true},
    {ZYDIS_MNEMONIC_CMPSD, ZYDIS_MNEMONIC_VCMPSD, true, true},
};

/// cmpps ... vcmpsd: an all-ones or all-zeros mask per element. The legacy forms have the
/// eight predicates of imm8 bits 0-2 (bits 3-7 are reserved and ignored); VEX has 32.
LiftStatus liftCompare(LiftContext &ctx, const Instr &instr) {
  const CompareForm &form = findForm(CompareForms, instr.mnemonic);
  unsigned imm = immediate(instr) & (instr.isVexOrEvex() ? 31 : 7);
  llvm::CmpInst::Predicate predicate = fp::comparePredicate(imm);
  liftBinaryLanes(ctx, elementType(ctx, form.isDouble), form.scalar,
                  [&](llvm::Value *a, llvm::Value *b) {
                    llvm::Value *holds = ctx.ir.CreateFCmp(predicate, a, b);
                    llvm::Value *mask = ctx.ir.CreateSExt(holds, fp::bitsType(ctx, a->getType()));
                    return fp::fromBits(ctx, mask, a->getType());
                  });
  return LiftStatus::Lifted;
}

/// comiss/ucomiss and VEX: ZF PF CF = 111 unordered, 000 greater, 001 less, 100 equal; OF SF
/// AF cleared (SDM vol. 2, COMISS). The two differ only in the exceptions they raise.
LiftStatus liftCompareFlags(LiftContext &ctx, const Instr &instr) {
  bool isDouble =
      instr.mnemonic == ZYDIS_MNEMONIC_COMISD || instr.mnemonic == ZYDIS_MNEMONIC_UCOMISD ||
      instr.mnemonic == ZYDIS_MNEMONIC_VCOMISD || instr.mnemonic == ZYDIS_MNEMONIC_VUCOMISD;
  llvm::Type *element = elementType(ctx, isDouble);
  llvm::Value *a = ctx.readScalar(0, element);
  llvm::Value *b = ctx.readScalar(1, element);
  ctx.writeFlag(Var::ZF, ctx.ir.CreateFCmpUEQ(a, b));
  ctx.writeFlag(Var::PF, ctx.ir.CreateFCmpUNO(a, b));
  ctx.writeFlag(Var::CF, ctx.ir.CreateFCmpULT(a, b));
  for (Var cleared : {Var::OF, Var::SF, Var::AF})
    ctx.writeFlag(cleared, ctx.ir.getFalse());
  return LiftStatus::Lifted;
}

/// rcpps/rsqrtps and their scalar and VEX forms compute an approximation whose exact bits the
/// SDM leaves to the implementation (relative error at most 1.5*2^-12), so Hoist calls the x86
/// target intrinsic: the JIT or the compiled code then runs the same instruction.
template <bool Sqrt> LiftStatus liftApproximation(LiftContext &ctx, const Instr &instr) {
  bool scalar = instr.mnemonic == ZYDIS_MNEMONIC_RCPSS || instr.mnemonic == ZYDIS_MNEMONIC_VRCPSS ||
                instr.mnemonic == ZYDIS_MNEMONIC_RSQRTSS ||
                instr.mnemonic == ZYDIS_MNEMONIC_VRSQRTSS;
  llvm::Type *f32 = ctx.ir.getFloatTy();
  auto call = [&](llvm::Intrinsic::ID id, llvm::Value *x) {
    return ctx.ir.CreateIntrinsic(id, {}, {x});
  };
  if (scalar) {
    liftUnaryLanes(ctx, f32, true, [&](llvm::Value *x) {
      llvm::Value *vector = ctx.ir.CreateInsertElement(
          llvm::Constant::getNullValue(ctx.vectorType(f32, 128)), x, uint64_t(0));
      auto id = Sqrt ? llvm::Intrinsic::x86_sse_rsqrt_ss : llvm::Intrinsic::x86_sse_rcp_ss;
      return ctx.ir.CreateExtractElement(call(id, vector), uint64_t(0));
    });
    return LiftStatus::Lifted;
  }
  liftUnaryLanes(ctx, f32, false, [&](llvm::Value *x) {
    bool wide = x->getType()->getPrimitiveSizeInBits() == 256;
    auto id =
        Sqrt ? (wide ? llvm::Intrinsic::x86_avx_rsqrt_ps_256 : llvm::Intrinsic::x86_sse_rsqrt_ps)
             : (wide ? llvm::Intrinsic::x86_avx_rcp_ps_256 : llvm::Intrinsic::x86_sse_rcp_ps);
    return call(id, x);
  });
  return LiftStatus::Lifted;
}

struct RoundForm {
  ZydisMnemonic legacy, vex;
  bool isDouble, scalar;
};

constexpr RoundForm RoundForms[] = {
    {ZYDIS_MNEMONIC_ROUNDPS, ZYDIS_MNEMONIC_VROUNDPS, false, false},
    {ZYDIS_MNEMONIC_ROUNDPD, ZYDIS_MNEMONIC_VROUNDPD, true, false},
    {ZYDIS_MNEMONIC_ROUNDSS, ZYDIS_MNEMONIC_VROUNDSS, false, true},
    {ZYDIS_MNEMONIC_ROUNDSD, ZYDIS_MNEMONIC_VROUNDSD, true, true},
};

/// roundps ... vroundsd (SDM vol. 2, ROUNDPS): imm8 bits 0-1 are the rounding mode, bit 2
/// takes MXCSR.RC instead, bit 3 suppresses the precision exception (not modelled). An SNaN
/// source is quieted.
LiftStatus liftRound(LiftContext &ctx, const Instr &instr) {
  const RoundForm &form = findForm(RoundForms, instr.mnemonic);
  unsigned imm = immediate(instr);
  llvm::Value *mode = imm & 4 ? fp::mxcsrRoundingMode(ctx) : nullptr;
  liftUnaryLanes(ctx, elementType(ctx, form.isDouble), form.scalar, [&](llvm::Value *x) {
    llvm::Value *rounded = mode ? fp::roundIntegral(ctx, x, mode)
                                : fp::roundIntegral(ctx, x, fp::RoundingMode(imm & 3));
    return fp::x86UnaryNaN(ctx, x, rounded);
  });
  return LiftStatus::Lifted;
}

enum class Horizontal { Add, Sub, AddSub, Dot };

struct HorizontalForm {
  ZydisMnemonic legacy, vex;
  Horizontal op;
  bool isDouble;
};

constexpr HorizontalForm HorizontalForms[] = {
    {ZYDIS_MNEMONIC_HADDPS, ZYDIS_MNEMONIC_VHADDPS, Horizontal::Add, false},
    {ZYDIS_MNEMONIC_HADDPD, ZYDIS_MNEMONIC_VHADDPD, Horizontal::Add, true},
    {ZYDIS_MNEMONIC_HSUBPS, ZYDIS_MNEMONIC_VHSUBPS, Horizontal::Sub, false},
    {ZYDIS_MNEMONIC_HSUBPD, ZYDIS_MNEMONIC_VHSUBPD, Horizontal::Sub, true},
    {ZYDIS_MNEMONIC_ADDSUBPS, ZYDIS_MNEMONIC_VADDSUBPS, Horizontal::AddSub, false},
    {ZYDIS_MNEMONIC_ADDSUBPD, ZYDIS_MNEMONIC_VADDSUBPD, Horizontal::AddSub, true},
    {ZYDIS_MNEMONIC_DPPS, ZYDIS_MNEMONIC_VDPPS, Horizontal::Dot, false},
    {ZYDIS_MNEMONIC_DPPD, ZYDIS_MNEMONIC_VDPPD, Horizontal::Dot, true},
};

/// Adjacent pairs of `v`: (v[0], v[2], ...) and (v[1], v[3], ...) combined by `op`; pairs
/// never straddle a 128-bit lane, since every lane has an even number of elements.
llvm::Value *pairwise(LiftContext &ctx, Arith op, llvm::Value *v) {
  unsigned count = llvm::cast<llvm::FixedVectorType>(v->getType())->getNumElements();
  llvm::SmallVector<int, 8> even, odd;
  for (unsigned i = 0; i < count; i += 2) {
    even.push_back(int(i));
    odd.push_back(int(i + 1));
  }
  return arithmetic(ctx, op, ctx.ir.CreateShuffleVector(v, even),
                    ctx.ir.CreateShuffleVector(v, odd));
}

/// haddps, hsubps, addsubps, dpps and the pd forms, per 128-bit lane (SDM vol. 2, HADDPS,
/// ADDSUBPS, DPPS). Each addition, subtraction and product is rounded and follows the NaN
/// rules with the lower element as the first operand.
LiftStatus liftHorizontal(LiftContext &ctx, const Instr &instr) {
  const HorizontalForm &form = findForm(HorizontalForms, instr.mnemonic);
  llvm::Type *element = elementType(ctx, form.isDouble);
  unsigned first = ctx.firstSource();
  llvm::Value *a = ctx.readVector(first, element);
  llvm::Value *b = ctx.readVector(first + 1, element);
  unsigned count = llvm::cast<llvm::FixedVectorType>(a->getType())->getNumElements();
  unsigned perLane = form.isDouble ? 2 : 4;
  llvm::SmallVector<int, 8> mask;
  llvm::Value *result = nullptr;
  switch (form.op) {
  case Horizontal::Add:
  case Horizontal::Sub:
    // Lane by lane: the pairs of a, then the pairs of b.
    for (unsigned lane = 0; lane < count; lane += perLane)
      for (unsigned source : {0u, count})
        for (unsigned i = 0; i < perLane; i += 2) {
          mask.push_back(int(source + lane + i));
          mask.push_back(int(source + lane + i + 1));
        }
    result = pairwise(ctx, form.op == Horizontal::Add ? Arith::Add : Arith::Sub,
                      ctx.ir.CreateShuffleVector(a, b, mask));
    break;
  case Horizontal::AddSub: {
    // Even elements subtract, odd ones add.
    llvm::Value *difference = arithmetic(ctx, Arith::Sub, a, b);
    llvm::Value *sum = arithmetic(ctx, Arith::Add, a, b);
    for (unsigned i = 0; i < count; ++i)
      mask.push_back(int(i % 2 ? count + i : i));
    result = ctx.ir.CreateShuffleVector(difference, sum, mask);
    break;
  }
  case Horizontal::Dot: {
    // imm8 bits 4-7 pick the products (the others are +0.0) and bits 0-3 the elements that
    // receive the sum (the others are +0.0). The SDM gives one sum for all elements,
    // (p0 + p1) + (p2 + p3), but the CPU sums for each element i in an order of its own,
    // which shows when more than one product is a NaN: dpps (p[i^1] + p[i]) + (p[i^3] +
    // p[i^2]), dppd p[i] + p[i^1] (measured on the test CPU, all NaN placements).
    unsigned imm = immediate(instr);
    llvm::Value *products = arithmetic(ctx, Arith::Mul, a, b);
    llvm::Value *zeros = llvm::Constant::getNullValue(products->getType());
    for (unsigned i = 0; i < count; ++i)
      mask.push_back(int(imm >> (4 + i % perLane) & 1 ? i : count + i));
    llvm::Value *sums = ctx.ir.CreateShuffleVector(products, zeros, mask);
    for (unsigned distance = 1; distance < perLane; distance *= 2) {
      mask.clear();
      for (unsigned i = 0; i < count; ++i)
        mask.push_back(int(i ^ distance));
      llvm::Value *partners = ctx.ir.CreateShuffleVector(sums, mask);
      bool partnerFirst = perLane == 4 && distance == 1;
      sums = partnerFirst ? arithmetic(ctx, Arith::Add, partners, sums)
                          : arithmetic(ctx, Arith::Add, sums, partners);
    }
    mask.clear();
    for (unsigned i = 0; i < count; ++i)
      mask.push_back(int(imm >> (i % perLane) & 1 ? i : count + i));
    result = ctx.ir.CreateShuffleVector(sums, zeros, mask);
    break;
  }
  }
  ctx.writeVector(0, result);
  return LiftStatus::Lifted;
}

} // namespace

void registerSimdFloat(SemanticTable &table) {
  for (const ArithForm &form : ArithForms)
    for (ZydisMnemonic mnemonic : {form.legacy, form.vex})
      table.add(mnemonic, liftArithmetic);
  for (const LogicForm &form : LogicForms)
    for (ZydisMnemonic mnemonic : {form.legacy, form.vex})
      table.add(mnemonic, liftLogic);
  // The SSE cmpsd shares its mnemonic with the string instruction (String.cpp).
  for (const CompareForm &form : CompareForms)
    for (ZydisMnemonic mnemonic : {form.legacy, form.vex})
      table.add(mnemonic, liftCompare,
                mnemonic == ZYDIS_MNEMONIC_CMPSD ? ZYDIS_CATEGORY_SSE : ZYDIS_CATEGORY_INVALID);
  for (ZydisMnemonic mnemonic :
       {ZYDIS_MNEMONIC_COMISS, ZYDIS_MNEMONIC_COMISD, ZYDIS_MNEMONIC_UCOMISS,
        ZYDIS_MNEMONIC_UCOMISD, ZYDIS_MNEMONIC_VCOMISS, ZYDIS_MNEMONIC_VCOMISD,
        ZYDIS_MNEMONIC_VUCOMISS, ZYDIS_MNEMONIC_VUCOMISD})
    table.add(mnemonic, liftCompareFlags);
  for (ZydisMnemonic mnemonic :
       {ZYDIS_MNEMONIC_RCPPS, ZYDIS_MNEMONIC_RCPSS, ZYDIS_MNEMONIC_VRCPPS, ZYDIS_MNEMONIC_VRCPSS})
    table.add(mnemonic, liftApproximation<false>);
  for (ZydisMnemonic mnemonic : {ZYDIS_MNEMONIC_RSQRTPS, ZYDIS_MNEMONIC_RSQRTSS,
                                 ZYDIS_MNEMONIC_VRSQRTPS, ZYDIS_MNEMONIC_VRSQRTSS})
    table.add(mnemonic, liftApproximation<true>);
  for (const RoundForm &form : RoundForms)
    for (ZydisMnemonic mnemonic : {form.legacy, form.vex})
      table.add(mnemonic, liftRound);
  for (const HorizontalForm &form : HorizontalForms)
    for (ZydisMnemonic mnemonic : {form.legacy, form.vex})
      table.add(mnemonic, liftHorizontal);
  registerSimdFma(table);
}

} // namespace hoist
