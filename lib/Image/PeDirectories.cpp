// The PE import, export and base relocation directories.
//
// They are read here rather than through llvm::object's import/export iterators, which check
// only the first byte of what an RVA points to and scan thunk tables for their null entry
// without a bound. Every read below goes through RvaReader, which checks the whole span
// against the sections the builder already validated, and every table walk has a budget.
#include "Image/Loaders.h"
#include "Support/Error.h"

#include <llvm/BinaryFormat/COFF.h>
#include <llvm/Object/COFF.h>
#include <llvm/Support/Endian.h>

#include <algorithm>
#include <limits>
#include <map>

namespace hoist {
namespace {

namespace COFF = llvm::COFF;
using llvm::support::endian::read16le;
using llvm::support::endian::read32le;
using llvm::support::endian::read64le;

// Budgets: far beyond real binaries (the largest system DLLs have a few thousand imports
// and exports), small enough that hostile counts cannot exhaust memory or time.
constexpr uint32_t maxImportDescriptors = 1u << 16;
constexpr uint32_t maxImportThunks = 1u << 20;   // over all descriptors together
constexpr uint32_t maxExportEntries = 1u << 16;  // ordinals are 16-bit
constexpr size_t maxNameLength = 4096;
constexpr uint32_t maxBaseRelocations = 1u << 22;  // 4M slots, over all blocks

/// The file-backed bytes of the image by RVA.
class RvaReader {
public:
  RvaReader(const Image::Builder &builder, uint64_t imageBase) {
    for (const Section &section : builder.sections())
      if (section.mapped && section.fileSize > 0 && section.address >= imageBase)
        byRva_.emplace(section.address - imageBase, builder.sectionBytes(section));
  }

  /// `size` bytes at `rva`, all inside one section's file data.
  llvm::Expected<llvm::ArrayRef<uint8_t>> bytes(uint64_t rva, uint64_t size,
                                                const llvm::Twine &what) const {
    // An empty table needs no valid RVA: a DLL exporting by ordinal only has no name pointer
    // or ordinal table and leaves their RVAs 0 (Wine's vga.dll; found by scripts/sweep.sh).
    if (size == 0)
      return llvm::ArrayRef<uint8_t>();
    auto rest = restOfSection(rva, what);
    if (!rest)
      return rest.takeError();
    if (size > rest->size())
      return makeError("{0} at RVA {1} ({2} bytes) runs past the end of its section", what.str(),
                       formatAddress(rva), size);
    return rest->take_front(size);
  }

  /// The NUL-terminated string at `rva`.
  llvm::Expected<std::string> string(uint64_t rva, const llvm::Twine &what) const {
    auto rest = restOfSection(rva, what);
    if (!rest)
      return rest.takeError();
    auto text = rest->take_front(maxNameLength);
    auto end = std::find(text.begin(), text.end(), 0);
    if (end == text.end())
      return makeError("{0} at RVA {1} is not NUL-terminated", what.str(), formatAddress(rva));
    return std::string(text.begin(), end);
  }

private:
  /// The file bytes from `rva` to the end of its section.
  llvm::Expected<llvm::ArrayRef<uint8_t>> restOfSection(uint64_t rva,
                                                        const llvm::Twine &what) const {
    auto it = byRva_.upper_bound(rva);
    if (it != byRva_.begin()) {
      --it;
      uint64_t offset = rva - it->first;
      if (offset < it->second.size())
        return it->second.drop_front(offset);
    }
    return makeError("{0} at RVA {1} is outside every section", what.str(), formatAddress(rva));
  }

  std::map<uint64_t, llvm::ArrayRef<uint8_t>> byRva_;   ///< file bytes of each section
};

/// imageBase + rva, checked for overflow.
llvm::Expected<uint64_t> addressOf(uint64_t imageBase, uint64_t rva, const llvm::Twine &what) {
  if (rva > std::numeric_limits<uint64_t>::max() - imageBase)
    return makeError("{0} at RVA {1} is beyond the address space", what.str(), formatAddress(rva));
  return imageBase + rva;
}

const llvm::object::data_directory *directory(const llvm::object::COFFObjectFile &coff,
                                              uint32_t index) {
  const llvm::object::data_directory *entry = coff.getDataDirectory(index);
  return entry && entry->RelativeVirtualAddress != 0 ? entry : nullptr;
}

/// The name of one import lookup entry: bit 63 set means by ordinal, otherwise bits 0-30 are
/// the RVA of a 2-byte hint followed by the name (PE format, "Import Lookup Table").
llvm::Expected<std::string> importedName(const RvaReader &reader, uint64_t entry,
                                         const llvm::Twine &what) {
  if (entry & (uint64_t(1) << 63))
    return "#" + std::to_string(entry & 0xffff);
  if (entry >> 31)
    return makeError("{0} {1} has reserved bits set", what.str(), formatAddress(entry));
  return reader.string(entry + 2, "the name of " + what);
}

class ImportReader {
public:
  ImportReader(Image::Builder &builder, const RvaReader &reader, uint64_t imageBase)
      : builder_(builder), reader_(reader), imageBase_(imageBase) {}

  llvm::Error readDirectory(uint32_t directoryRva) {
    for (uint32_t index = 0;; ++index) {
      if (index == maxImportDescriptors)
        return makeError("import directory has more than {0} entries (no null entry?)",
                         maxImportDescriptors);
      uint64_t rva = uint64_t(directoryRva) + uint64_t(index) * sizeof(Descriptor);
      std::string what = "import directory entry " + std::to_string(index);
      // An unreadable first entry means the directory itself is misplaced.
      auto bytes = reader_.bytes(rva, sizeof(Descriptor),
                                 index == 0 ? std::string("import directory") : what);
      if (!bytes)
        return bytes.takeError();
      const auto &descriptor = *reinterpret_cast<const Descriptor *>(bytes->data());
      if (descriptor.ImportLookupTableRVA == 0 && descriptor.NameRVA == 0 &&
          descriptor.ImportAddressTableRVA == 0)
        return llvm::Error::success();
      if (llvm::Error error = readDescriptor(descriptor, what))
        return error;
    }
  }

private:
  using Descriptor = llvm::object::coff_import_directory_table_entry;

  llvm::Error readDescriptor(const Descriptor &descriptor, const std::string &what) {
    auto library = reader_.string(descriptor.NameRVA, "the DLL name of " + what);
    if (!library)
      return library.takeError();
    if (descriptor.ImportAddressTableRVA == 0)
      return makeError("{0} ({1}) has no import address table", what, *library);
    // The lookup table keeps the names after binding overwrote the IAT; old linkers omit it.
    uint64_t namesRva = descriptor.ImportLookupTableRVA ? descriptor.ImportLookupTableRVA
                                                        : descriptor.ImportAddressTableRVA;
    for (uint64_t slot = 0;; ++slot) {
      if (thunks_++ == maxImportThunks)
        return makeError("more than {0} imports in the import directory", maxImportThunks);
      std::string entryWhat =
          "entry " + std::to_string(slot) + " of the " + *library + " lookup table";
      auto entryBytes = reader_.bytes(namesRva + slot * 8, 8, entryWhat);
      if (!entryBytes)
        return entryBytes.takeError();
      uint64_t entry = read64le(entryBytes->data());
      if (entry == 0)
        return llvm::Error::success();
      auto name = importedName(reader_, entry, entryWhat);
      if (!name)
        return name.takeError();
      uint64_t slotRva = descriptor.ImportAddressTableRVA + slot * 8;
      std::string slotWhat = "IAT slot " + std::to_string(slot) + " of " + *library;
      if (auto slotBytes = reader_.bytes(slotRva, 8, slotWhat); !slotBytes)
        return slotBytes.takeError();
      auto slotAddress = addressOf(imageBase_, slotRva, slotWhat);
      if (!slotAddress)
        return slotAddress.takeError();
      Import import;
      import.name = std::move(*name);
      import.library = *library;
      import.slotAddress = *slotAddress;
      builder_.addImport(std::move(import));
    }
  }

  Image::Builder &builder_;
  const RvaReader &reader_;
  uint64_t imageBase_;
  uint32_t thunks_ = 0;
};

llvm::Error readExports(Image::Builder &builder, const RvaReader &reader, uint64_t imageBase,
                        const llvm::object::data_directory &directory) {
  using Table = llvm::object::export_directory_table_entry;
  auto tableBytes = reader.bytes(directory.RelativeVirtualAddress, sizeof(Table),
                                 "export directory");
  if (!tableBytes)
    return tableBytes.takeError();
  const auto &table = *reinterpret_cast<const Table *>(tableBytes->data());
  uint32_t functionCount = table.AddressTableEntries;
  uint32_t nameCount = table.NumberOfNamePointers;
  if (functionCount > maxExportEntries || nameCount > maxExportEntries)
    return makeError("export directory claims {0} functions and {1} names (at most {2})",
                     functionCount, nameCount, maxExportEntries);

  auto addresses = reader.bytes(table.ExportAddressTableRVA, uint64_t(functionCount) * 4,
                                "export address table");
  if (!addresses)
    return addresses.takeError();
  auto namePointers = reader.bytes(table.NamePointerRVA, uint64_t(nameCount) * 4,
                                   "export name pointer table");
  if (!namePointers)
    return namePointers.takeError();
  auto ordinals = reader.bytes(table.OrdinalTableRVA, uint64_t(nameCount) * 2,
                               "export ordinal table");
  if (!ordinals)
    return ordinals.takeError();

  // Names map to indices into the address table; one function may have several names.
  std::vector<std::vector<std::string>> namesOf(functionCount);
  for (uint32_t i = 0; i < nameCount; ++i) {
    uint16_t index = read16le(ordinals->data() + 2 * i);
    if (index >= functionCount)
      return makeError("export name {0} refers to function {1} of {2}", i, index,
                       functionCount);
    auto name = reader.string(read32le(namePointers->data() + 4 * i),
                              "export name " + std::to_string(i));
    if (!name)
      return name.takeError();
    namesOf[index].push_back(std::move(*name));
  }

  // An address inside the export directory itself is a forwarder string (PE format,
  // "Export Address Table").
  uint64_t directoryStart = directory.RelativeVirtualAddress;
  uint64_t directoryEnd = directoryStart + directory.Size;
  for (uint32_t index = 0; index < functionCount; ++index) {
    uint32_t rva = read32le(addresses->data() + 4 * index);
    if (rva == 0)
      continue;   // an unused ordinal
    Export exported;
    if (rva >= directoryStart && rva < directoryEnd) {
      auto forwarder = reader.string(rva, "export forwarder " + std::to_string(index));
      if (!forwarder)
        return forwarder.takeError();
      exported.forwarder = std::move(*forwarder);
    } else {
      auto address = addressOf(imageBase, rva, "export");
      if (!address)
        return address.takeError();
      exported.address = *address;
    }
    if (namesOf[index].empty())
      namesOf[index].push_back("#" + std::to_string(uint64_t(table.OrdinalBase) + index));
    for (std::string &name : namesOf[index]) {
      Export named = exported;
      named.name = std::move(name);
      builder.addExport(std::move(named));
    }
  }
  return llvm::Error::success();
}

/// The pointers the loader rebases (PE format, "The .reloc Section"): blocks of a page RVA,
/// the block's size, and 16-bit entries of a type (high 4 bits) and an offset in the page. A
/// DIR64 entry's slot holds an absolute address at the preferred base (Image::relocatedPointer);
/// any other type but padding writes what Hoist does not model (Image::opaqueSlots).
llvm::Error readBaseRelocations(Image::Builder &builder, const RvaReader &reader,
                                uint64_t imageBase, const llvm::object::data_directory &directory) {
  uint64_t at = directory.RelativeVirtualAddress;
  uint64_t end = at + directory.Size;
  uint32_t budget = maxBaseRelocations;
  while (at + 8 <= end) {
    auto header = reader.bytes(at, 8, "base relocation block");
    if (!header)
      return header.takeError();
    uint32_t page = read32le(header->data());
    uint32_t blockSize = read32le(header->data() + 4);
    if (blockSize < 8 || blockSize > end - at)
      return makeError("base relocation block at RVA {0} claims {1} bytes", formatAddress(at),
                       blockSize);
    auto entries = reader.bytes(at + 8, blockSize - 8, "base relocation entries");
    if (!entries)
      return entries.takeError();
    for (size_t i = 0; i + 2 <= entries->size(); i += 2) {
      if (budget-- == 0)
        return makeError("more than {0} base relocations", maxBaseRelocations);
      uint16_t entry = read16le(entries->data() + i);
      unsigned type = entry >> 12;
      uint64_t rva = uint64_t(page) + (entry & 0xfff);
      if (type == COFF::IMAGE_REL_BASED_ABSOLUTE)
        continue;   // padding
      if (type != COFF::IMAGE_REL_BASED_DIR64) {
        builder.addOpaqueSlot(imageBase + rva);
        continue;
      }
      // A slot outside the file's bytes (in a section's zero fill) holds nothing to rebase.
      auto slot = reader.bytes(rva, 8, "base-relocated pointer");
      if (!slot) {
        llvm::consumeError(slot.takeError());
        continue;
      }
      builder.addRelocatedPointer(imageBase + rva, read64le(slot->data()));
    }
    at += blockSize;
  }
  return llvm::Error::success();
}

} // namespace

llvm::Error loadPeDirectories(Image::Builder &builder, const llvm::object::COFFObjectFile &coff,
                              uint64_t imageBase) {
  RvaReader reader(builder, imageBase);
  if (const auto *imports = directory(coff, COFF::IMPORT_TABLE)) {
    ImportReader importReader(builder, reader, imageBase);
    if (llvm::Error error = importReader.readDirectory(imports->RelativeVirtualAddress))
      return error;
  }
  if (const auto *exports = directory(coff, COFF::EXPORT_TABLE))
    if (llvm::Error error = readExports(builder, reader, imageBase, *exports))
      return error;
  if (const auto *relocations = directory(coff, COFF::BASE_RELOCATION_TABLE))
    if (llvm::Error error = readBaseRelocations(builder, reader, imageBase, *relocations))
      return error;
  return llvm::Error::success();
}

} // namespace hoist
