// Cryptographic and checksum instructions (Zydis categories AES, PCLMULQDQ, SHA and the SSE4.2
// crc32): aesenc, aesenclast, aesdec, aesdeclast, aesimc, aeskeygenassist, pclmulqdq, the
// SHA-1/SHA-256 helpers, crc32, with their VEX forms (VAES and VPCLMULQDQ ymm per 128-bit lane).
//
// AES and SHA are lifted as LLVM's x86 target intrinsics, so the JIT (and any x86 code
// generated from the IR) runs the very instruction: their S-box, MixColumns and round
// functions would take hundreds of generic instructions and tables per round, for no gain in
// exactness. A generic table-driven version can replace them when IR for other targets is
// needed. Carry-less multiply and CRC-32C are short in generic IR and written out.
#include "Semantics/Semantics.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsX86.h>

#include <functional>

namespace hoist {
namespace {

using LaneOp = std::function<llvm::Value *(llvm::ArrayRef<llvm::Value *>)>;

/// Applies `op` to each 128-bit lane of `sources` (<2 x i64> for xmm, <4 x i64> for ymm) and
/// joins the <2 x i64> results: VAES and VPCLMULQDQ work lane by lane (SDM vol. 2, VAESENC).
llvm::Value *eachLane(LiftContext &ctx, llvm::ArrayRef<llvm::Value *> sources, const LaneOp &op) {
  auto &ir = ctx.ir;
  unsigned lanes = llvm::cast<llvm::FixedVectorType>(sources[0]->getType())->getNumElements() / 2;
  if (lanes == 1)
    return op(sources);
  llvm::SmallVector<llvm::Value *, 2> results;
  for (unsigned lane = 0; lane < lanes; ++lane) {
    llvm::SmallVector<llvm::Value *, 3> parts;
    for (llvm::Value *source : sources)
      parts.push_back(ir.CreateShuffleVector(source, {int(2 * lane), int(2 * lane + 1)}));
    results.push_back(op(parts));
  }
  return ir.CreateShuffleVector(results[0], results[1], {0, 1, 2, 3});
}

/// aesenc, aesenclast, aesdec, aesdeclast: one AES round of the state (the first source) with
/// the round key (the second source).
template <llvm::Intrinsic::ID Round>
LiftStatus liftAesRound(LiftContext &ctx, const Instr &instr) {
  unsigned first = ctx.firstSource();
  llvm::Value *state = ctx.readVector(first, ctx.ir.getInt64Ty());
  llvm::Value *key = ctx.readVector(first + 1, ctx.ir.getInt64Ty());
  ctx.writeVector(0, eachLane(ctx, {state, key}, [&](llvm::ArrayRef<llvm::Value *> lane) {
                    return ctx.ir.CreateIntrinsic(Round, {}, {lane[0], lane[1]});
                  }));
  return LiftStatus::Lifted;
}

/// aesimc xmm1, xmm2/m128: InvMixColumns of the source, for the decryption key schedule.
LiftStatus liftAesImc(LiftContext &ctx, const Instr &instr) {
  llvm::Value *source = ctx.readVector(1, ctx.ir.getInt64Ty());
  ctx.writeVector(0, ctx.ir.CreateIntrinsic(llvm::Intrinsic::x86_aesni_aesimc, {}, {source}));
  return LiftStatus::Lifted;
}

/// aeskeygenassist xmm1, xmm2/m128, imm8: SubWord/RotWord of the source words and the round
/// constant imm8.
LiftStatus liftAesKeygenAssist(LiftContext &ctx, const Instr &instr) {
  if (!instr.op(2).isImm())
    return ctx.unsupported();
  llvm::Value *source = ctx.readVector(1, ctx.ir.getInt64Ty());
  llvm::Value *roundConstant = ctx.ir.getInt8(uint8_t(instr.op(2).imm));
  ctx.writeVector(0, ctx.ir.CreateIntrinsic(llvm::Intrinsic::x86_aesni_aeskeygenassist, {},
                                            {source, roundConstant}));
  return LiftStatus::Lifted;
}

/// The 128-bit carry-less product of two qwords as <2 x i64> {low, high}: the XOR of `a`
/// shifted left by every k where bit k of `b` is set. Each shifted copy is a 128-bit value
/// whose high qword is fshl(0, a, k), the bits of `a` shifted out (none for k = 0).
llvm::Value *carrylessMultiply(LiftContext &ctx, llvm::Value *a, llvm::Value *b) {
  auto &ir = ctx.ir;
  llvm::SmallVector<llvm::Constant *, 64> counts;
  for (unsigned k = 0; k < 64; ++k)
    counts.push_back(ir.getInt64(k));
  llvm::Constant *shift = llvm::ConstantVector::get(counts);
  llvm::Value *copies = ir.CreateVectorSplat(64, a);
  llvm::Value *zero = llvm::Constant::getNullValue(copies->getType());
  llvm::Value *selected = ir.CreateBitCast(b, llvm::FixedVectorType::get(ir.getInt1Ty(), 64));
  llvm::Value *low = ir.CreateShl(copies, shift);
  llvm::Value *high =
      ir.CreateIntrinsic(llvm::Intrinsic::fshl, {copies->getType()}, {zero, copies, shift});
  llvm::Value *lowSum = ir.CreateXorReduce(ir.CreateSelect(selected, low, zero));
  llvm::Value *highSum = ir.CreateXorReduce(ir.CreateSelect(selected, high, zero));
  llvm::Value *result = llvm::PoisonValue::get(llvm::FixedVectorType::get(ir.getInt64Ty(), 2));
  result = ir.CreateInsertElement(result, lowSum, uint64_t(0));
  return ir.CreateInsertElement(result, highSum, uint64_t(1));
}

/// pclmulqdq xmm1, xmm2/m128, imm8 and vpclmulqdq: imm8 bit 0 selects the qword of the first
/// source, bit 4 that of the second (SDM vol. 2, PCLMULQDQ); the ymm form does so per lane.
LiftStatus liftPclmulqdq(LiftContext &ctx, const Instr &instr) {
  unsigned first = ctx.firstSource();
  if (!instr.op(first + 2).isImm())
    return ctx.unsupported();
  uint64_t imm = instr.op(first + 2).imm;
  llvm::Value *a = ctx.readVector(first, ctx.ir.getInt64Ty());
  llvm::Value *b = ctx.readVector(first + 1, ctx.ir.getInt64Ty());
  ctx.writeVector(0, eachLane(ctx, {a, b}, [&](llvm::ArrayRef<llvm::Value *> lane) {
                    return carrylessMultiply(ctx,
                                             ctx.ir.CreateExtractElement(lane[0], imm & 1),
                                             ctx.ir.CreateExtractElement(lane[1], (imm >> 4) & 1));
                  }));
  return LiftStatus::Lifted;
}

/// sha1msg1, sha1msg2, sha1nexte, sha256msg1, sha256msg2 xmm1, xmm2/m128: two dword vectors.
template <llvm::Intrinsic::ID Sha>
LiftStatus liftShaBinary(LiftContext &ctx, const Instr &instr) {
  llvm::Value *a = ctx.readVector(0, ctx.ir.getInt32Ty());
  llvm::Value *b = ctx.readVector(1, ctx.ir.getInt32Ty());
  ctx.writeVector(0, ctx.ir.CreateIntrinsic(Sha, {}, {a, b}));
  return LiftStatus::Lifted;
}

/// sha1rnds4 xmm1, xmm2/m128, imm8: four SHA-1 rounds, imm8 bits 0-1 select f and K.
LiftStatus liftSha1Rnds4(LiftContext &ctx, const Instr &instr) {
  if (!instr.op(2).isImm())
    return ctx.unsupported();
  llvm::Value *a = ctx.readVector(0, ctx.ir.getInt32Ty());
  llvm::Value *b = ctx.readVector(1, ctx.ir.getInt32Ty());
  llvm::Value *function = ctx.ir.getInt8(uint8_t(instr.op(2).imm & 3));
  ctx.writeVector(0, ctx.ir.CreateIntrinsic(llvm::Intrinsic::x86_sha1rnds4, {}, {a, b, function}));
  return LiftStatus::Lifted;
}

/// sha256rnds2 xmm1, xmm2/m128, <xmm0>: two SHA-256 rounds, the message plus constants in the
/// implicit xmm0.
LiftStatus liftSha256Rnds2(LiftContext &ctx, const Instr &instr) {
  llvm::Value *a = ctx.readVector(0, ctx.ir.getInt32Ty());
  llvm::Value *b = ctx.readVector(1, ctx.ir.getInt32Ty());
  llvm::Value *k = ctx.readVectorReg(ZYDIS_REGISTER_XMM0, ctx.ir.getInt32Ty());
  ctx.writeVector(0, ctx.ir.CreateIntrinsic(llvm::Intrinsic::x86_sha256rnds2, {}, {a, b, k}));
  return LiftStatus::Lifted;
}

/// crc32 r32/r64, r/m8/16/32/64: CRC-32C (Castagnoli) of the source bytes, starting from the
/// low dword of the destination, with no pre- or post-inversion (SDM vol. 2, CRC32). The
/// SDM's bit-reflected polynomial division is the usual LSB-first update with the reflected
/// polynomial 0x82F63B78, one bit at a time, lowest byte first. Flags are unaffected.
LiftStatus liftCrc32(LiftContext &ctx, const Instr &instr) {
  auto &ir = ctx.ir;
  unsigned sourceBits = ctx.operandBits(1);
  llvm::Value *crc = ctx.readOperand(0, 32);
  llvm::Value *data = ctx.readOperand(1, sourceBits);
  llvm::Value *polynomial = ir.getInt32(0x82F63B78);
  for (unsigned byte = 0; byte < sourceBits / 8; ++byte) {
    llvm::Value *part = ir.CreateTrunc(ir.CreateLShr(data, byte * 8), ir.getInt8Ty());
    crc = ir.CreateXor(crc, ir.CreateZExt(part, ir.getInt32Ty()));
    for (unsigned bit = 0; bit < 8; ++bit) {
      llvm::Value *lowBit = ir.CreateAnd(crc, ir.getInt32(1));
      llvm::Value *reduce = ir.CreateAnd(ir.CreateNeg(lowBit), polynomial);
      crc = ir.CreateXor(ir.CreateLShr(crc, 1), reduce);
    }
  }
  ctx.writeOperand(0, ir.CreateZExt(crc, ctx.intType(ctx.operandBits(0))));
  return LiftStatus::Lifted;
}

} // namespace

void registerSimdCrypto(SemanticTable &table) {
  struct Round {
    ZydisMnemonic legacy, vex;
    Semantic semantic;
  };
  for (const Round &round :
       {Round{ZYDIS_MNEMONIC_AESENC, ZYDIS_MNEMONIC_VAESENC,
              liftAesRound<llvm::Intrinsic::x86_aesni_aesenc>},
        Round{ZYDIS_MNEMONIC_AESENCLAST, ZYDIS_MNEMONIC_VAESENCLAST,
              liftAesRound<llvm::Intrinsic::x86_aesni_aesenclast>},
        Round{ZYDIS_MNEMONIC_AESDEC, ZYDIS_MNEMONIC_VAESDEC,
              liftAesRound<llvm::Intrinsic::x86_aesni_aesdec>},
        Round{ZYDIS_MNEMONIC_AESDECLAST, ZYDIS_MNEMONIC_VAESDECLAST,
              liftAesRound<llvm::Intrinsic::x86_aesni_aesdeclast>},
        Round{ZYDIS_MNEMONIC_AESIMC, ZYDIS_MNEMONIC_VAESIMC, liftAesImc},
        Round{ZYDIS_MNEMONIC_AESKEYGENASSIST, ZYDIS_MNEMONIC_VAESKEYGENASSIST,
              liftAesKeygenAssist},
        Round{ZYDIS_MNEMONIC_PCLMULQDQ, ZYDIS_MNEMONIC_VPCLMULQDQ, liftPclmulqdq}}) {
    table.add(round.legacy, round.semantic);
    table.add(round.vex, round.semantic);
  }
  table.add(ZYDIS_MNEMONIC_SHA1MSG1, liftShaBinary<llvm::Intrinsic::x86_sha1msg1>);
  table.add(ZYDIS_MNEMONIC_SHA1MSG2, liftShaBinary<llvm::Intrinsic::x86_sha1msg2>);
  table.add(ZYDIS_MNEMONIC_SHA1NEXTE, liftShaBinary<llvm::Intrinsic::x86_sha1nexte>);
  table.add(ZYDIS_MNEMONIC_SHA256MSG1, liftShaBinary<llvm::Intrinsic::x86_sha256msg1>);
  table.add(ZYDIS_MNEMONIC_SHA256MSG2, liftShaBinary<llvm::Intrinsic::x86_sha256msg2>);
  table.add(ZYDIS_MNEMONIC_SHA1RNDS4, liftSha1Rnds4);
  table.add(ZYDIS_MNEMONIC_SHA256RNDS2, liftSha256Rnds2);
  table.add(ZYDIS_MNEMONIC_CRC32, liftCrc32);
}

} // namespace hoist
