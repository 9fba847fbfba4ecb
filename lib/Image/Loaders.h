// Private to lib/Image: the builder the format loaders fill, and the loaders themselves.
#pragma once

#include "hoist/Image.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Object/ELF.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <memory>
#include <optional>

namespace llvm::object {
class COFFObjectFile;
}

namespace hoist {

/// Collects what a loader finds and checks it against the file before it becomes an Image:
/// a section's file bytes lie inside the buffer and its address range does not wrap around,
/// so that Image::bytesAt and Image::read never need to distrust their own tables.
struct Image::Builder {
  Builder(std::unique_ptr<llvm::MemoryBuffer> buffer, ImageFormat format);

  llvm::ArrayRef<uint8_t> fileBytes() const;

  void setEntryPoint(uint64_t address) { image_->entry_ = address; }
  void setImageBase(uint64_t address) { image_->imageBase_ = address; }
  void setPositionIndependent(bool value) { image_->pie_ = value; }
  void setLibrary(bool value) { image_->library_ = value; }

  llvm::Error addSection(Section section);
  void addSymbol(Symbol symbol) { image_->symbols_.push_back(std::move(symbol)); }
  void addImport(Import import) { image_->imports_.push_back(std::move(import)); }
  void addExport(Export exported) { image_->exports_.push_back(std::move(exported)); }
  void addRelocatedPointer(uint64_t slot, uint64_t value) {
    image_->relocatedPointers_.emplace_back(slot, value);
  }
  void addCopiedObject(CopiedObject object) {
    image_->copiedObjects_.push_back(std::move(object));
  }
  void addSymbolPointer(SymbolPointer pointer) {
    image_->symbolPointers_.push_back(std::move(pointer));
  }
  void addOpaqueSlot(uint64_t slot) { image_->opaqueSlots_.push_back(slot); }
  void addPossiblePointer(uint64_t slot) { image_->possiblePointers_.push_back(slot); }

  const std::vector<Section> &sections() const { return image_->sections_; }
  const std::vector<Symbol> &symbols() const { return image_->symbols_; }
  std::vector<Import> &imports() { return image_->imports_; }
  /// The file bytes of a section added before (already checked to be inside the file).
  llvm::ArrayRef<uint8_t> sectionBytes(const Section &section) const;

  /// Moves every address added (sections, symbols, imports, exports, entry, base) up by
  /// `bias`; fails when that would run past the top of the address space.
  llvm::Error applyLoadBias(uint64_t bias);

  /// Sorts and indexes everything added; the builder is empty afterwards.
  std::unique_ptr<Image> finish();

private:
  std::unique_ptr<Image> image_;
};

// The loaders. Their messages say what is wrong and where in the file; Image prefixes the
// file name to each.
llvm::Error loadElf(Image::Builder &builder);
llvm::Error loadPe(Image::Builder &builder);
/// Maps the whole buffer as one readable, executable section ".raw" at `base`.
llvm::Error loadRawBytes(Image::Builder &builder, uint64_t base);

using ElfFile = llvm::object::ELFFile<llvm::object::ELF64LE>;
/// Imports from the dynamic relocations, with the PLT entries that jump through their slots.
llvm::Error loadElfImports(Image::Builder &builder, const ElfFile &elf,
                           ElfFile::Elf_Shdr_Range sections);

/// Imports (one per IAT slot) and exports (with forwarders) of a PE32+ image.
llvm::Error loadPeDirectories(Image::Builder &builder, const llvm::object::COFFObjectFile &coff,
                              uint64_t imageBase);

/// The GOT slot a PLT entry jumps through, decoded from its `jmp *disp32(%rip)`, which may
/// follow an `endbr64` (IBT, .plt.sec and .plt.got) and carry a `bnd` prefix (MPX).
/// None for entries that do not jump through a slot, such as PLT0 and lazy IBT entries.
std::optional<uint64_t> pltEntrySlot(llvm::ArrayRef<uint8_t> entry, uint64_t entryAddress);

} // namespace hoist
