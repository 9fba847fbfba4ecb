// AVX-512 compress and expand (Zydis category COMPRESS and EXPAND): vpcompressb/w/d/q,
// vcompressps/pd, vpexpandb/w/d/q, vexpandps/pd, register and memory forms. A compress packs
// the elements the write mask selects into the low elements; an expand spreads the low
// elements of its source over the selected elements.
#include "Semantics/Avx512Operands.h"
#include "Semantics/Semantics.h"
#include "Semantics/SimdHelpers.h"

namespace hoist {
namespace {

/// The elements of `source` that `enabled` (`<n x i1>`) selects, in order, in the low
/// elements of `fill`; the elements of `fill` from the number selected on are kept.
llvm::Value *compressElements(LiftContext &ctx, llvm::Value *source, llvm::Value *enabled,
                              llvm::Value *fill) {
  auto &ir = ctx.ir;
  llvm::Value *result = fill, *next = ir.getInt32(0);
  for (unsigned j = 0; j < simd::elementCount(source); ++j) {
    llvm::Value *on = ir.CreateExtractElement(enabled, j);
    // `next` is at most j, so the insert is inside the vector.
    llvm::Value *placed =
        ir.CreateInsertElement(result, ir.CreateExtractElement(source, j), next);
    result = ir.CreateSelect(on, placed, result);
    next = ir.CreateAdd(next, ir.CreateZExt(on, ir.getInt32Ty()));
  }
  return result;
}

/// Element j of the result is the next unused low element of `source` where `enabled`
/// selects j, zero elsewhere (writeResult then merges or zeroes those elements).
llvm::Value *expandElements(LiftContext &ctx, llvm::Value *source, llvm::Value *enabled) {
  auto &ir = ctx.ir;
  llvm::Value *result = llvm::Constant::getNullValue(source->getType()), *next = ir.getInt32(0);
  for (unsigned j = 0; j < simd::elementCount(source); ++j) {
    llvm::Value *on = ir.CreateExtractElement(enabled, j);
    llvm::Value *element = ir.CreateExtractElement(source, next);   // next <= j
    result = ir.CreateInsertElement(
        result, ir.CreateSelect(on, element, llvm::Constant::getNullValue(element->getType())),
        j);
    next = ir.CreateAdd(next, ir.CreateZExt(on, ir.getInt32Ty()));
  }
  return result;
}

/// vpcompress*, vcompress*: the selected elements of the source packed from element 0. A
/// register destination keeps its elements above them (merging) or has them zeroed ({z}), and
/// its bits above the vector length zeroed; a memory destination gets only the selected
/// elements, contiguously, and nothing else is accessed. SDM vol. 2, VPCOMPRESSD.
template <unsigned ElementBits>
LiftStatus liftCompress(LiftContext &ctx, const Instr &instr) {
  const Operand &destination = instr.op(avx512::dataOperand(instr, 0));
  const Operand &sourceOperand = instr.op(avx512::dataOperand(instr, 1));
  if (!sourceOperand.isReg())
    return ctx.unsupported();
  llvm::Type *element = ctx.intType(ElementBits);
  unsigned count = avx512::elementCount(instr, ElementBits);
  llvm::Value *source = simd::resize(ctx, ctx.readVectorReg(sourceOperand.reg, element), count);
  llvm::Value *enabled = avx512::writeMask(ctx, count);
  if (destination.isMem()) {
    if (instr.evex.zeroing)
      return ctx.unsupported();   // #UD
    llvm::Value *address = ctx.effectiveAddress(destination);
    ctx.ir.CreateMaskedCompressStore(source, simd::memoryPointer(ctx, address), enabled);
    return LiftStatus::Lifted;
  }
  llvm::Value *fill =
      instr.evex.zeroing
          ? llvm::Constant::getNullValue(source->getType())
          : simd::resize(ctx, ctx.readVectorReg(destination.reg, element), count);
  ctx.writeVectorReg(destination.reg, compressElements(ctx, source, enabled, fill));
  return LiftStatus::Lifted;
}

/// vpexpand*, vexpand*: the selected elements of the destination get the low elements of the
/// source in order; the others are kept (merging) or zeroed ({z}). A memory source is read
/// only as far as the selected elements need, contiguously (the CPU does not fault beyond
/// them). SDM vol. 2, VPEXPANDD.
template <unsigned ElementBits>
LiftStatus liftExpand(LiftContext &ctx, const Instr &instr) {
  const Operand &sourceOperand = instr.op(avx512::dataOperand(instr, 1));
  llvm::Type *element = ctx.intType(ElementBits);
  unsigned count = avx512::elementCount(instr, ElementBits);
  llvm::Value *enabled = avx512::writeMask(ctx, count);
  llvm::Value *expanded;
  if (sourceOperand.isMem()) {
    auto *vector = llvm::FixedVectorType::get(element, count);
    llvm::Value *address = ctx.effectiveAddress(sourceOperand);
    expanded = ctx.ir.CreateMaskedExpandLoad(vector, simd::memoryPointer(ctx, address), enabled,
                                             llvm::Constant::getNullValue(vector));
  } else {
    llvm::Value *source =
        simd::resize(ctx, ctx.readVectorReg(sourceOperand.reg, element), count);
    expanded = expandElements(ctx, source, enabled);
  }
  avx512::writeResult(ctx, expanded);
  return LiftStatus::Lifted;
}

} // namespace

void registerAvx512Compress(SemanticTable &table) {
  table.add(ZYDIS_MNEMONIC_VPCOMPRESSB, liftCompress<8>);
  table.add(ZYDIS_MNEMONIC_VPCOMPRESSW, liftCompress<16>);
  table.add(ZYDIS_MNEMONIC_VPCOMPRESSD, liftCompress<32>);
  table.add(ZYDIS_MNEMONIC_VPCOMPRESSQ, liftCompress<64>);
  table.add(ZYDIS_MNEMONIC_VCOMPRESSPS, liftCompress<32>);
  table.add(ZYDIS_MNEMONIC_VCOMPRESSPD, liftCompress<64>);
  table.add(ZYDIS_MNEMONIC_VPEXPANDB, liftExpand<8>);
  table.add(ZYDIS_MNEMONIC_VPEXPANDW, liftExpand<16>);
  table.add(ZYDIS_MNEMONIC_VPEXPANDD, liftExpand<32>);
  table.add(ZYDIS_MNEMONIC_VPEXPANDQ, liftExpand<64>);
  table.add(ZYDIS_MNEMONIC_VEXPANDPS, liftExpand<32>);
  table.add(ZYDIS_MNEMONIC_VEXPANDPD, liftExpand<64>);
}

} // namespace hoist
