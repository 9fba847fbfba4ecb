// ELF imports: the GOT slots the dynamic linker fills for named symbols, and the PLT entries
// that jump through them.
//
// llvm::object::ELFObjectFileBase::getPltEntries does the second half too, but in LLVM 19 it
// needs the X86 target registered, skips .plt.sec (so IBT binaries lose every stub) and reports
// the address of the jmp rather than of the entry; so the entries are decoded here.
#include "Image/Loaders.h"
#include "Support/Error.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Support/Endian.h>

namespace hoist {

std::optional<uint64_t> pltEntrySlot(llvm::ArrayRef<uint8_t> entry, uint64_t entryAddress) {
  static constexpr uint8_t endbr64[] = {0xf3, 0x0f, 0x1e, 0xfa};
  static constexpr uint8_t bndPrefix = 0xf2;
  size_t at = 0;
  if (entry.size() >= 4 && llvm::ArrayRef(endbr64) == entry.take_front(4))
    at = 4;
  if (at < entry.size() && entry[at] == bndPrefix)
    ++at;
  // jmp *disp32(%rip) is FF /4 with ModRM 0x25.
  if (entry.size() < at + 6 || entry[at] != 0xff || entry[at + 1] != 0x25)
    return std::nullopt;
  auto displacement = static_cast<int32_t>(llvm::support::endian::read32le(&entry[at + 2]));
  uint64_t nextInstruction = entryAddress + at + 6;
  // Unsigned arithmetic wraps, as the CPU's RIP-relative addressing does.
  return nextInstruction + static_cast<uint64_t>(static_cast<int64_t>(displacement));
}

namespace {

bool isImportRelocation(uint32_t type) {
  return type == llvm::ELF::R_X86_64_JUMP_SLOT || type == llvm::ELF::R_X86_64_GLOB_DAT;
}

/// The PLT flavours linkers emit: lazy .plt (whose entries jump through the slot unless IBT
/// moved that jump to .plt.sec), .plt.sec (IBT), .plt.bnd (MPX) and .plt.got (non-lazy, for
/// symbols that are also referenced through the GOT).
bool isPltSection(llvm::StringRef name) {
  return name == ".plt" || name == ".plt.sec" || name == ".plt.bnd" || name == ".plt.got";
}

// Also records what the loader writes into data: the pointers R_X86_64_RELATIVE relocations
// fill and R_X86_64_64 ones against the file's own symbols (Image::relocatedPointer), those
// to other modules' symbols (Image::symbolPointers), and every other slot a dynamic
// relocation writes (Image::opaqueSlots).
llvm::Error addImportsFromRelocations(Image::Builder &builder, const ElfFile &elf,
                                      ElfFile::Elf_Shdr_Range sections) {
  for (const auto &table : sections) {
    if (table.sh_type != llvm::ELF::SHT_RELA)
      continue;
    // Dynamic relocations are the ones whose symbol table is the dynamic one (.rela.dyn,
    // .rela.plt); a static .rela.text in a linked file names .symtab.
    auto symbols = elf.getSection(table.sh_link);
    if (!symbols)
      return symbols.takeError();
    if ((*symbols)->sh_type != llvm::ELF::SHT_DYNSYM)
      continue;
    auto strings = elf.getStringTableForSymtab(**symbols, sections);
    if (!strings)
      return strings.takeError();
    auto relocations = elf.relas(table);   // checked against the file: bounded
    if (!relocations)
      return relocations.takeError();
    for (const auto &relocation : *relocations) {
      uint32_t type = relocation.getType(/*isMips64EL=*/false);
      if (type == llvm::ELF::R_X86_64_NONE)
        continue;
      if (type == llvm::ELF::R_X86_64_RELATIVE) {
        builder.addRelocatedPointer(relocation.r_offset, relocation.r_addend);
        continue;
      }
      bool copy = type == llvm::ELF::R_X86_64_COPY;
      bool absolute = type == llvm::ELF::R_X86_64_64;
      if (!isImportRelocation(type) && !copy && !absolute) {
        builder.addOpaqueSlot(relocation.r_offset);
        continue;
      }
      auto symbol = elf.getRelocationSymbol(relocation, *symbols);
      if (!symbol)
        return symbol.takeError();
      if (!*symbol) {
        // No symbol: the addend alone, an address in this file.
        if (absolute)
          builder.addRelocatedPointer(relocation.r_offset, relocation.r_addend);
        continue;
      }
      auto name = (*symbol)->getName(*strings);
      if (!name)
        return name.takeError();
      if (absolute) {
        // Another module's symbol, unless this file defines it (and no other library
        // interposes it, as own-export calls assume: docs/BRIGHTEN.md).
        // An IFUNC's value is its resolver, not the pointer the loader writes.
        if ((*symbol)->getType() == llvm::ELF::STT_GNU_IFUNC)
          builder.addOpaqueSlot(relocation.r_offset);
        else if ((*symbol)->st_shndx != llvm::ELF::SHN_UNDEF &&
                 (*symbol)->st_shndx < llvm::ELF::SHN_LORESERVE)
          builder.addRelocatedPointer(relocation.r_offset,
                                      (*symbol)->st_value + relocation.r_addend);
        else if (!name->empty())
          builder.addSymbolPointer({relocation.r_offset, name->str(), relocation.r_addend});
        else
          builder.addOpaqueSlot(relocation.r_offset);
        continue;
      }
      if (name->empty())
        continue;
      if (copy) {
        builder.addCopiedObject({name->str(), relocation.r_offset, (*symbol)->st_size});
        continue;
      }
      Import import;
      import.name = name->str();
      import.slotAddress = relocation.r_offset;
      // Only a plain function: an IFUNC's symbol value is its resolver, not what the call
      // reaches.
      if ((*symbol)->st_shndx != llvm::ELF::SHN_UNDEF &&
          (*symbol)->st_shndx < llvm::ELF::SHN_LORESERVE &&
          (*symbol)->getType() == llvm::ELF::STT_FUNC)
        import.definedAt = (*symbol)->st_value;
      import.object = (*symbol)->getType() == llvm::ELF::STT_OBJECT;
      builder.addImport(std::move(import));
    }
  }
  return llvm::Error::success();
}

void attachPltStubs(Image::Builder &builder, const ElfFile &elf,
                    ElfFile::Elf_Shdr_Range sections, llvm::StringRef sectionNames) {
  std::map<uint64_t, Import *> importBySlot;
  for (Import &import : builder.imports())
    importBySlot.emplace(import.slotAddress, &import);
  if (importBySlot.empty())
    return;

  for (const auto &header : sections) {
    if (!(header.sh_flags & llvm::ELF::SHF_EXECINSTR) || header.sh_type != llvm::ELF::SHT_PROGBITS)
      continue;
    auto name = elf.getSectionName(header, sectionNames);
    if (!name) {
      llvm::consumeError(name.takeError());   // addSections already reported bad names
      continue;
    }
    if (!isPltSection(*name))
      continue;
    auto contents = elf.getSectionContents(header);
    if (!contents) {
      llvm::consumeError(contents.takeError());
      continue;
    }
    // Entries are 16 bytes, except the 8-byte ones of .plt.got and .plt.bnd without IBT;
    // linkers record which in sh_entsize.
    uint64_t entrySize = header.sh_entsize == 8 ? 8 : 16;
    for (uint64_t offset = 0; offset + entrySize <= contents->size(); offset += entrySize) {
      uint64_t entryAddress = header.sh_addr + offset;
      auto slot = pltEntrySlot(contents->slice(offset, entrySize), entryAddress);
      if (!slot)
        continue;
      auto it = importBySlot.find(*slot);
      // The first entry found for a slot is its stub; lazy .plt entries never jump through the
      // slot directly once IBT is on, so .plt and .plt.sec never both claim one.
      if (it != importBySlot.end() && !it->second->stubAddress)
        it->second->stubAddress = entryAddress;
    }
  }
}

} // namespace

llvm::Error loadElfImports(Image::Builder &builder, const ElfFile &elf,
                           ElfFile::Elf_Shdr_Range sections) {
  if (llvm::Error error = addImportsFromRelocations(builder, elf, sections))
    return error;
  auto names = elf.getSectionStringTable(sections);
  if (!names)
    return names.takeError();
  attachPltStubs(builder, elf, sections, *names);
  return llvm::Error::success();
}

} // namespace hoist
