// PE32+ x86-64 executables and DLLs: headers, sections and COFF symbols.
// The import and export directories are in PeDirectories.cpp.
#include "Image/Loaders.h"
#include "Support/Error.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/BinaryFormat/COFF.h>
#include <llvm/Object/COFF.h>

#include <cstring>
#include <limits>
#include <map>

namespace hoist {
namespace {

namespace COFF = llvm::COFF;
using llvm::object::COFFObjectFile;

/// imageBase + rva, or an error if that runs past the top of the address space.
llvm::Expected<uint64_t> virtualAddress(uint64_t imageBase, uint64_t rva, const char *what) {
  if (rva > std::numeric_limits<uint64_t>::max() - imageBase)
    return makeError("{0} at RVA {1} is beyond the address space with image base {2}", what,
                     formatAddress(rva), formatAddress(imageBase));
  return imageBase + rva;
}

/// LLVM 19's COFFObjectFile::create reads the "PE\0\0" signature at e_lfanew without checking
/// that it lies inside the file, so the DOS header is checked here first.
llvm::Error checkDosHeader(llvm::ArrayRef<uint8_t> bytes) {
  using llvm::object::dos_header;
  if (bytes.size() < sizeof(dos_header))
    return makeError("truncated DOS header ({0} bytes, need {1})", bytes.size(),
                     sizeof(dos_header));
  uint32_t peOffset = reinterpret_cast<const dos_header *>(bytes.data())->AddressOfNewExeHeader;
  size_t headersSize = sizeof(COFF::PEMagic) + sizeof(llvm::object::coff_file_header);
  if (bytes.size() < headersSize || peOffset > bytes.size() - headersSize)
    return makeError("PE header offset {0} is beyond the end of the file ({1} bytes)",
                     formatAddress(peOffset), bytes.size());
  if (std::memcmp(bytes.data() + peOffset, COFF::PEMagic, sizeof(COFF::PEMagic)) != 0)
    return makeError("no PE signature at offset {0} (an MS-DOS program?)",
                     formatAddress(peOffset));
  return llvm::Error::success();
}

llvm::Error checkHeaders(const COFFObjectFile &coff) {
  if (!coff.getDOSHeader())
    return makeError("not a PE image (a COFF object file?)");
  if (coff.getPE32Header())
    return makeError("PE32 (32-bit) images are not supported; only PE32+ (x86-64)");
  if (!coff.getPE32PlusHeader())
    return makeError("PE image without an optional header");
  if (coff.getMachine() != COFF::IMAGE_FILE_MACHINE_AMD64)
    return makeError("PE machine {0} is not supported; only x86-64 (AMD64, 0x8664)",
                     formatAddress(coff.getMachine()));
  return llvm::Error::success();
}

llvm::Error addSections(Image::Builder &builder, const COFFObjectFile &coff, uint64_t imageBase) {
  for (const llvm::object::SectionRef &ref : coff.sections()) {
    const llvm::object::coff_section *header = coff.getCOFFSection(ref);
    auto name = coff.getSectionName(header);   // long names (/4) come from the string table
    if (!name)
      return name.takeError();
    auto address = virtualAddress(imageBase, header->VirtualAddress, "section");
    if (!address)
      return address.takeError();
    Section section;
    section.name = name->str();
    section.address = *address;
    // Old linkers leave VirtualSize zero; the raw size is then the size in memory. Otherwise
    // the raw size is padded to the file alignment and the excess is not part of the section.
    section.size = header->VirtualSize ? uint64_t(header->VirtualSize)
                                       : uint64_t(header->SizeOfRawData);
    section.fileOffset = header->PointerToRawData;
    section.fileSize = std::min<uint64_t>(header->SizeOfRawData, section.size);
    uint32_t flags = header->Characteristics;
    section.readable = flags & COFF::IMAGE_SCN_MEM_READ;
    section.writable = flags & COFF::IMAGE_SCN_MEM_WRITE;
    section.executable = flags & COFF::IMAGE_SCN_MEM_EXECUTE;
    if (llvm::Error error = builder.addSection(std::move(section)))
      return error;
  }
  return llvm::Error::success();
}

/// mingw keeps a COFF symbol table in its images; MSVC's linker does not.
llvm::Error addSymbols(Image::Builder &builder, const COFFObjectFile &coff, uint64_t imageBase) {
  // llvm::object checked that the table fits in the file, so the count is bounded by its size.
  uint32_t count = coff.getNumberOfSymbols();
  for (uint32_t index = 0; index < count; ++index) {
    auto symbol = coff.getSymbol(index);
    if (!symbol)
      return symbol.takeError();
    index += symbol->getNumberOfAuxSymbols();
    uint8_t storage = symbol->getStorageClass();
    bool function = symbol->getComplexType() == COFF::IMAGE_SYM_DTYPE_FUNCTION;
    // Section numbers <= 0 are undefined, absolute and debug symbols. A static symbol with
    // auxiliary records that is not a function defines a section (".text" and friends).
    if (symbol->getSectionNumber() <= 0)
      continue;
    if (storage != COFF::IMAGE_SYM_CLASS_EXTERNAL && storage != COFF::IMAGE_SYM_CLASS_STATIC)
      continue;
    if (storage == COFF::IMAGE_SYM_CLASS_STATIC && symbol->getNumberOfAuxSymbols() > 0 &&
        !function)
      continue;
    auto section = coff.getSection(symbol->getSectionNumber());
    if (!section)
      return section.takeError();
    auto name = coff.getSymbolName(*symbol);
    if (!name)
      return name.takeError();
    if (name->empty())
      continue;
    auto address = virtualAddress(imageBase,
                                  uint64_t((*section)->VirtualAddress) + symbol->getValue(),
                                  "symbol");
    if (!address)
      return address.takeError();
    Symbol result;
    result.name = name->str();
    result.address = *address;
    result.source = Symbol::Source::Coff;
    if (function)
      result.kind = Symbol::Kind::Function;
    else if ((*section)->Characteristics & COFF::IMAGE_SCN_CNT_CODE)
      result.kind = Symbol::Kind::Other;   // a label in code, not known to be a function
    else
      result.kind = Symbol::Kind::Object;
    builder.addSymbol(std::move(result));
  }
  return llvm::Error::success();
}

/// mingw reaches each imported function through a thunk `jmp *__imp_<name>(%rip)`, and its
/// COFF symbol table names the thunk; such a thunk is the import's stub, as a PLT entry is
/// for ELF.
void attachImportThunks(Image::Builder &builder) {
  std::map<uint64_t, Import *> importBySlot;
  for (Import &import : builder.imports())
    importBySlot.emplace(import.slotAddress, &import);
  std::map<uint64_t, const Section *> code;
  for (const Section &section : builder.sections())
    if (section.executable && section.fileSize > 0)
      code.emplace(section.address, &section);
  if (importBySlot.empty() || code.empty())
    return;
  for (const Symbol &symbol : builder.symbols()) {
    auto it = code.upper_bound(symbol.address);
    if (it == code.begin())
      continue;
    const Section &section = *std::prev(it)->second;
    uint64_t offset = symbol.address - section.address;
    if (offset >= section.fileSize)
      continue;
    auto slot = pltEntrySlot(builder.sectionBytes(section).slice(offset).take_front(8),
                             symbol.address);
    if (!slot)
      continue;
    auto import = importBySlot.find(*slot);
    if (import != importBySlot.end() && !import->second->stubAddress)
      import->second->stubAddress = symbol.address;
  }
}

} // namespace

llvm::Error loadPe(Image::Builder &builder) {
  if (llvm::Error error = checkDosHeader(builder.fileBytes()))
    return error;
  llvm::MemoryBufferRef buffer(llvm::toStringRef(builder.fileBytes()), "");
  auto coffOrError = COFFObjectFile::create(buffer);
  if (!coffOrError)
    return makeError("malformed PE: {0}", llvm::toString(coffOrError.takeError()));
  const COFFObjectFile &coff = **coffOrError;
  if (llvm::Error error = checkHeaders(coff))
    return error;

  const auto &optional = *coff.getPE32PlusHeader();
  uint64_t imageBase = optional.ImageBase;
  builder.setImageBase(imageBase);
  if (optional.AddressOfEntryPoint != 0) {
    auto entry = virtualAddress(imageBase, optional.AddressOfEntryPoint, "entry point");
    if (!entry)
      return entry.takeError();
    builder.setEntryPoint(*entry);
  }
  builder.setLibrary(coff.getCharacteristics() & COFF::IMAGE_FILE_DLL);
  // A PE image can be moved when it asks for ASLR and still has its base relocations.
  builder.setPositionIndependent(
      (optional.DLLCharacteristics & COFF::IMAGE_DLL_CHARACTERISTICS_DYNAMIC_BASE) &&
      !(coff.getCharacteristics() & COFF::IMAGE_FILE_RELOCS_STRIPPED));

  if (llvm::Error error = addSections(builder, coff, imageBase))
    return error;
  if (llvm::Error error = addSymbols(builder, coff, imageBase))
    return error;
  if (llvm::Error error = loadPeDirectories(builder, coff, imageBase))
    return error;
  attachImportThunks(builder);
  return llvm::Error::success();
}

} // namespace hoist
