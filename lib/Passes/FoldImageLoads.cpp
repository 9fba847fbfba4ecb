// FoldImageLoads: a load from a constant address inside read-only image memory becomes the
// constant it reads (string literals, jump and lookup tables, floating-point constants).
//
// The address is `getelementptr i8, ptr %mem, i64 C` on the lifted function's memory argument
// (include/hoist/Lifter.h), after constant offsets are folded in. The bytes come from the Image
// as the file holds them, at the image's preferred base, which is also the base the lifted
// addresses use. They are what the program reads when nothing writes them after loading:
// - the section is mapped and not writable (ELF SHF_WRITE, PE IMAGE_SCN_MEM_WRITE): the data
//   a dynamic loader relocates in place (.got, .data.rel.ro, .idata) is in writable sections,
//   except on ELF with text relocations (DT_TEXTREL), which Hoist does not fold around;
// - no import slot overlaps the bytes: a PE IAT may sit in a read-only .rdata, and the loader
//   fills it with the imported addresses;
// - a PE image loaded away from its preferred base has its absolute pointers rebased; the
//   lifted code assumes the preferred base throughout, so the file's bytes are consistent.
#include "Passes/Passes.h"
#include "hoist/Image.h"

#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

namespace hoist {
namespace {

constexpr uint64_t MaxFoldedBytes = 64;   ///< a ymm register is 32; nothing wider is loaded
constexpr uint64_t ImportSlotSize = 8;

/// The image address `pointer` designates, when it is the memory argument plus a constant.
std::optional<uint64_t> imageAddress(llvm::Value *pointer, llvm::Argument *memory,
                                     const llvm::DataLayout &layout) {
  llvm::APInt offset(layout.getIndexTypeSizeInBits(pointer->getType()), 0);
  llvm::Value *base = pointer->stripAndAccumulateConstantOffsets(layout, offset,
                                                                 /*AllowNonInbounds=*/true);
  if (base != memory)
    return std::nullopt;
  return offset.getZExtValue();
}

/// True when the `size` bytes at `address` are in one read-only section and no loader writes
/// them.
bool isConstantMemory(const Image &image, uint64_t address, uint64_t size) {
  const Section *section = image.sectionAt(address);
  if (!section || !section->mapped || section->writable)
    return false;
  if (address - section->address > section->size - size || size > section->size)
    return false;
  uint64_t first = address >= ImportSlotSize - 1 ? address - (ImportSlotSize - 1) : 0;
  for (uint64_t slot = first; slot < address + size; ++slot)
    if (image.importAtSlot(slot))
      return false;
  return true;
}

/// The constant of type `type` the bytes at `address` hold, or null.
llvm::Constant *readConstant(const Image &image, uint64_t address, llvm::Type *type,
                             const llvm::DataLayout &layout) {
  if (type->isPtrOrPtrVectorTy() || !type->isSized())
    return nullptr;
  llvm::TypeSize bits = layout.getTypeSizeInBits(type);
  uint64_t size = layout.getTypeStoreSize(type).getFixedValue();
  if (bits.isScalable() || size == 0 || size > MaxFoldedBytes ||
      !isConstantMemory(image, address, size))
    return nullptr;
  std::vector<uint64_t> words((size + 7) / 8, 0);
  if (!image.read(address, words.data(), size))
    return nullptr;
  // Little-endian bytes into little-endian words: the first byte is the least significant.
  llvm::APInt value(size * 8, words);
  value = value.trunc(bits.getFixedValue());
  auto *integer = llvm::ConstantInt::get(type->getContext(), value);
  if (type->isIntegerTy())
    return integer;
  return llvm::ConstantFoldCastOperand(llvm::Instruction::BitCast, integer, type, layout);
}

} // namespace

llvm::PreservedAnalyses FoldImageLoadsPass::run(llvm::Function &function,
                                                llvm::FunctionAnalysisManager &) {
  const llvm::DataLayout &layout = function.getParent()->getDataLayout();
  // A lifted function is `void (ptr %state, ptr %mem)`; anything else is not ours to read.
  if (function.arg_size() != 2 || !layout.isLittleEndian())
    return llvm::PreservedAnalyses::all();
  llvm::Argument *memory = function.getArg(1);
  if (!memory->getType()->isPointerTy())
    return llvm::PreservedAnalyses::all();
  std::vector<std::pair<llvm::LoadInst *, llvm::Constant *>> folds;
  for (llvm::Instruction &inst : llvm::instructions(function)) {
    auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst);
    if (!load || !load->isSimple())
      continue;
    std::optional<uint64_t> address = imageAddress(load->getPointerOperand(), memory, layout);
    if (!address)
      continue;
    if (llvm::Constant *constant = readConstant(image_, *address, load->getType(), layout))
      folds.push_back({load, constant});
  }
  for (auto [load, constant] : folds) {
    load->replaceAllUsesWith(constant);
    load->eraseFromParent();
  }
  return preservedAfter(!folds.empty());
}

} // namespace hoist
