// A loaded binary: bytes by virtual address, sections, symbols, imports and exports.
// ELF (executables, PIE, shared objects), PE32+ (EXE, DLL) and raw code blobs.
#pragma once

#include "hoist/ImageTypes.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include <cstdint>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hoist {

class Image {
public:
  /// Loads an ELF or PE file; the format is detected from its contents. A non-zero
  /// `loadBias` places a position-independent ELF image (PIE or shared object) that many
  /// bytes above its link-time addresses, as a loader mapping it there would: every address
  /// the Image reports (sections, symbols, imports, exports, entry) includes the bias.
  static llvm::Expected<std::unique_ptr<Image>> load(llvm::StringRef path, uint64_t loadBias = 0);
  /// Loads a file of raw code mapped (readable, executable) at `base`.
  static llvm::Expected<std::unique_ptr<Image>> loadRaw(llvm::StringRef path, uint64_t base);
  /// Same as above, from bytes in memory (tests, fuzzers).
  static llvm::Expected<std::unique_ptr<Image>> fromBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer,
                                                           uint64_t loadBias = 0);
  static std::unique_ptr<Image> fromRawBytes(llvm::ArrayRef<uint8_t> bytes, uint64_t base,
                                             llvm::StringRef name = "<raw>");

  ~Image();

  llvm::StringRef path() const { return path_; }
  ImageFormat format() const { return format_; }
  std::string kindDescription() const;   ///< "ELF executable", "ELF PIE", "PE32+ DLL", ...
  uint64_t entryPoint() const { return entry_; }
  uint64_t imageBase() const { return imageBase_; }
  bool isPositionIndependent() const { return pie_; }
  bool isLibrary() const { return library_; }
  /// What load() added to every link-time address (0 unless asked for).
  uint64_t loadBias() const { return loadBias_; }

  const std::vector<Section> &sections() const { return sections_; }
  const std::vector<Symbol> &symbols() const { return symbols_; }
  const std::vector<Import> &imports() const { return imports_; }
  const std::vector<Export> &exports() const { return exports_; }

  /// The section containing `address`, or null.
  const Section *sectionAt(uint64_t address) const;
  /// The section `address` is one past the end of, when no section contains it: code's
  /// `&array[n]` for a section's last object (a loop's bound). Null otherwise.
  const Section *sectionEndingAt(uint64_t address) const;
  bool isExecutable(uint64_t address) const;
  /// The file-backed bytes from `address` to the end of its section; empty when unmapped.
  llvm::ArrayRef<uint8_t> bytesAt(uint64_t address) const;
  /// Reads `size` bytes at `address` (zero-fill for memory past the file bytes); false if any
  /// byte is outside every section.
  bool read(uint64_t address, void *out, size_t size) const;
  /// Like read(), as the dynamic loader leaves memory: the pointers an ELF image's
  /// R_X86_64_RELATIVE relocations fill (zero in a PIE's file) read as their link-time
  /// address plus the load bias.
  bool readRelocated(uint64_t address, void *out, size_t size) const;
  /// The pointer the loader writes at `slot` by an R_X86_64_RELATIVE relocation, if one does.
  std::optional<uint64_t> relocatedPointer(uint64_t slot) const;
  /// Every (slot, pointer) pair R_X86_64_RELATIVE relocations fill, by slot, with the bias.
  llvm::ArrayRef<std::pair<uint64_t, uint64_t>> relocatedPointers() const {
    return relocatedPointers_;
  }

  /// The pointers to other modules' symbols the loader writes (R_X86_64_64), by slot.
  llvm::ArrayRef<SymbolPointer> symbolPointers() const { return symbolPointers_; }
  /// Slots the loader writes with what the image cannot tell: an IFUNC's chosen
  /// implementation (R_X86_64_IRELATIVE), a TLS offset or module, a relocation type Hoist
  /// does not model; by address. Their file bytes are not what the program reads.
  llvm::ArrayRef<uint64_t> opaqueSlots() const { return opaqueSlots_; }
  /// In an image without relocations (a non-PIE ELF executable), the 8-byte aligned slots of
  /// its data whose value is an address in the image: pointers the linker wrote, or integers
  /// that look like them; nothing tells which. By address.
  llvm::ArrayRef<uint64_t> possiblePointers() const { return possiblePointers_; }
  /// The copied object (R_X86_64_COPY) whose bytes hold `address`, if any.
  const CopiedObject *copiedObjectAt(uint64_t address) const;
  const std::vector<CopiedObject> &copiedObjects() const { return copiedObjects_; }

  /// The address of a function or object symbol (static, dynamic, COFF or export), if any.
  std::optional<uint64_t> lookupSymbol(llvm::StringRef name) const;
  /// The IFUNC symbol whose resolver is at `address`, if any (Symbol::indirect).
  const Symbol *indirectFunctionAt(uint64_t address) const;
  /// The best name for an address (symbol or export), if any.
  std::optional<std::string> nameAt(uint64_t address) const;
  /// Whether symbols or exports give `name` to more than one address (two static functions
  /// `helper` of different sources).
  bool namesSeveralAddresses(llvm::StringRef name) const;
  /// Whether `name` is an import's, or a function's that callByName() made a call by name.
  bool importsName(llvm::StringRef name) const;
  const Import *importAtSlot(uint64_t slotAddress) const;
  /// The import whose stub is at `stubAddress`, or the library function called by name there
  /// (callByName).
  const Import *importAtStub(uint64_t stubAddress) const;

  /// Makes calls of the image's own functions at these entries calls by name, as of an
  /// import: library functions recognized by signature (lib/Signatures), whose callers then
  /// call the host's implementation. Each Import has `recognizedFrom` set and its entry as
  /// `stubAddress`; they are not listed by imports(). Called once, before lifting.
  void callByName(std::vector<Import> functions);

  // For the loaders in lib/Image.
  struct Builder;

private:
  Image() = default;

  std::string path_;
  ImageFormat format_ = ImageFormat::Raw;
  uint64_t entry_ = 0;
  uint64_t imageBase_ = 0;
  uint64_t loadBias_ = 0;
  bool pie_ = false;
  bool library_ = false;
  std::unique_ptr<llvm::MemoryBuffer> buffer_;
  std::vector<Section> sections_;
  std::vector<Symbol> symbols_;
  std::vector<Import> imports_;
  std::vector<Export> exports_;
  std::vector<std::pair<uint64_t, uint64_t>> relocatedPointers_;   ///< (slot, value), by slot
  std::vector<CopiedObject> copiedObjects_;                        ///< by address
  std::vector<SymbolPointer> symbolPointers_;                      ///< by slot
  std::vector<uint64_t> opaqueSlots_;                              ///< by address
  std::vector<uint64_t> possiblePointers_;                         ///< by address
  std::map<uint64_t, size_t> importBySlot_, importByStub_;
  std::vector<Import> calledByName_;
  std::map<uint64_t, size_t> calledByNameAt_;
  std::map<uint64_t, size_t> sectionByAddress_;          ///< mapped, non-overlapping, by start
  std::map<uint64_t, std::string> nameByAddress_;
  std::map<std::string, uint64_t, std::less<>> addressByName_;
  std::set<std::string, std::less<>> namesOfSeveralAddresses_;
  std::set<std::string, std::less<>> importNames_;
};

} // namespace hoist
