// ELF64 x86-64 executables, PIEs and shared objects: headers, sections and symbols.
// Imports and PLT stubs are in ElfImports.cpp.
#include "Image/Loaders.h"
#include "Support/Error.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Support/Endian.h>
#include <llvm/Support/MathExtras.h>

#include <algorithm>
#include <map>

namespace hoist {
namespace {

using llvm::object::ELF64LE;
using Elf = llvm::object::ELFFile<ELF64LE>;

const char *machineName(uint16_t machine) {
  switch (machine) {
  case llvm::ELF::EM_386:
    return "i386";
  case llvm::ELF::EM_ARM:
    return "ARM";
  case llvm::ELF::EM_AARCH64:
    return "AArch64";
  case llvm::ELF::EM_RISCV:
    return "RISC-V";
  case llvm::ELF::EM_PPC64:
    return "PowerPC64";
  default:
    return "unknown";
  }
}

/// Checks what llvm::object leaves to its users: class, byte order, machine and file type.
llvm::Error checkHeader(llvm::ArrayRef<uint8_t> bytes) {
  if (bytes.size() < sizeof(ELF64LE::Ehdr))
    return makeError("truncated ELF header ({0} bytes, need {1})", bytes.size(),
                     sizeof(ELF64LE::Ehdr));
  if (bytes[llvm::ELF::EI_CLASS] == llvm::ELF::ELFCLASS32)
    return makeError("32-bit ELF is not supported; only x86-64 (ELFCLASS64)");
  if (bytes[llvm::ELF::EI_CLASS] != llvm::ELF::ELFCLASS64)
    return makeError("invalid ELF class {0}", bytes[llvm::ELF::EI_CLASS]);
  if (bytes[llvm::ELF::EI_DATA] != llvm::ELF::ELFDATA2LSB)
    return makeError("big-endian ELF is not supported; only x86-64");
  const auto &header = *reinterpret_cast<const ELF64LE::Ehdr *>(bytes.data());
  if (header.e_machine != llvm::ELF::EM_X86_64)
    return makeError("ELF machine {0} ({1}) is not supported; only x86-64 (EM_X86_64)",
                     header.e_machine, machineName(header.e_machine));
  switch (header.e_type) {
  case llvm::ELF::ET_EXEC:
  case llvm::ELF::ET_DYN:
    return llvm::Error::success();
  case llvm::ELF::ET_REL:
    return makeError("relocatable object files are not supported; link them first");
  case llvm::ELF::ET_CORE:
    return makeError("core dumps are not supported");
  default:
    return makeError("unknown ELF file type {0}", header.e_type);
  }
}

/// The dynamic table: the SHT_DYNAMIC section, else the PT_DYNAMIC segment. (LLVM 19's
/// ELFFile::dynamicEntries trusts PT_DYNAMIC's file offset, so it is not used.)
llvm::Expected<llvm::ArrayRef<Elf::Elf_Dyn>> dynamicTable(const Elf &elf,
                                                          Elf::Elf_Shdr_Range sections,
                                                          Elf::Elf_Phdr_Range segments) {
  for (const auto &section : sections)
    if (section.sh_type == llvm::ELF::SHT_DYNAMIC)
      return elf.getSectionContentsAsArray<Elf::Elf_Dyn>(section);   // checked against the file
  uint64_t fileSize = elf.getBufSize();
  for (const auto &segment : segments) {
    if (segment.p_type != llvm::ELF::PT_DYNAMIC)
      continue;
    if (segment.p_offset > fileSize || segment.p_filesz > fileSize - segment.p_offset)
      return makeError("PT_DYNAMIC {0}+{1} is beyond the end of the file",
                       formatAddress(segment.p_offset), formatAddress(segment.p_filesz));
    if (segment.p_offset % alignof(Elf::Elf_Dyn) != 0)
      return makeError("PT_DYNAMIC at file offset {0} is misaligned",
                       formatAddress(segment.p_offset));
    return llvm::ArrayRef(reinterpret_cast<const Elf::Elf_Dyn *>(elf.base() + segment.p_offset),
                          segment.p_filesz / sizeof(Elf::Elf_Dyn));
  }
  return llvm::ArrayRef<Elf::Elf_Dyn>();
}

/// For ET_DYN: a shared object or a position-independent executable? Both are ET_DYN, so:
/// DF_1_PIE (set by every linker that knows PIEs) says executable; else a DT_SONAME says
/// library; else a PT_INTERP says executable (older PIEs); else library (gcc -shared without
/// -soname). libc.so.6 has both PT_INTERP and DT_SONAME, and is a library.
bool isSharedObject(llvm::ArrayRef<Elf::Elf_Dyn> dynamic, bool hasInterpreter) {
  bool pieFlag = false, soname = false;
  for (const auto &entry : dynamic) {
    if (entry.d_tag == llvm::ELF::DT_NULL)
      break;
    if (entry.d_tag == llvm::ELF::DT_FLAGS_1 && (entry.d_un.d_val & llvm::ELF::DF_1_PIE))
      pieFlag = true;
    if (entry.d_tag == llvm::ELF::DT_SONAME)
      soname = true;
  }
  if (pieFlag)
    return false;
  if (soname)
    return true;
  return !hasInterpreter;
}

Symbol::Kind symbolKind(uint8_t type) {
  switch (type) {
  case llvm::ELF::STT_FUNC:
  case llvm::ELF::STT_GNU_IFUNC:   // the address is the resolver's, which is code
    return Symbol::Kind::Function;
  case llvm::ELF::STT_OBJECT:
  case llvm::ELF::STT_COMMON:
    return Symbol::Kind::Object;
  default:
    return Symbol::Kind::Other;
  }
}

llvm::Error addSymbols(Image::Builder &builder, const Elf &elf, Elf::Elf_Shdr_Range sections) {
  for (const auto &table : sections) {
    if (table.sh_type != llvm::ELF::SHT_SYMTAB && table.sh_type != llvm::ELF::SHT_DYNSYM)
      continue;
    Symbol::Source source = table.sh_type == llvm::ELF::SHT_SYMTAB ? Symbol::Source::Static
                                                                    : Symbol::Source::Dynamic;
    // Both calls check the table and its string table against the file, so the loop below
    // is bounded by the file size.
    auto symbols = elf.symbols(&table);
    if (!symbols)
      return symbols.takeError();
    auto strings = elf.getStringTableForSymtab(table, sections);
    if (!strings)
      return strings.takeError();
    for (const auto &sym : *symbols) {
      uint8_t type = sym.getType();
      // Undefined symbols are imports; SHN_ABS and the other reserved indices carry no address
      // in the image; section and file symbols name no code or data.
      if (sym.st_shndx == llvm::ELF::SHN_UNDEF || sym.st_shndx >= llvm::ELF::SHN_LORESERVE ||
          type == llvm::ELF::STT_SECTION || type == llvm::ELF::STT_FILE ||
          type == llvm::ELF::STT_TLS)
        continue;
      auto name = sym.getName(*strings);
      if (!name)
        return name.takeError();
      if (name->empty())
        continue;
      Symbol symbol;
      symbol.name = name->str();
      symbol.address = sym.st_value;
      symbol.size = sym.st_size;
      symbol.kind = symbolKind(type);
      symbol.indirect = type == llvm::ELF::STT_GNU_IFUNC;
      symbol.source = source;
      // What a shared object offers to others: its defined, visible dynamic symbols.
      uint8_t binding = sym.getBinding();
      if (source == Symbol::Source::Dynamic &&
          (binding == llvm::ELF::STB_GLOBAL || binding == llvm::ELF::STB_WEAK ||
           binding == llvm::ELF::STB_GNU_UNIQUE)) {
        Export exported;
        exported.name = symbol.name;
        exported.address = symbol.address;
        builder.addExport(std::move(exported));
      }
      builder.addSymbol(std::move(symbol));
    }
  }
  return llvm::Error::success();
}

llvm::Error addSections(Image::Builder &builder, const Elf &elf, Elf::Elf_Shdr_Range sections) {
  auto names = elf.getSectionStringTable(sections);
  if (!names)
    return names.takeError();
  for (const auto &header : sections) {
    if (header.sh_type == llvm::ELF::SHT_NULL)
      continue;
    bool noBits = header.sh_type == llvm::ELF::SHT_NOBITS;
    // .tbss is the template of thread-local zeros: its address range is also used by the
    // sections after it and holds nothing at run time, so it would only shadow them.
    if (noBits && (header.sh_flags & llvm::ELF::SHF_TLS))
      continue;
    auto name = elf.getSectionName(header, *names);
    if (!name)
      return name.takeError();
    Section section;
    section.name = name->str();
    section.mapped = header.sh_flags & llvm::ELF::SHF_ALLOC;
    // The casts matter: `cond ? 0 : field` with an endian-packed field converts it to int.
    section.address = section.mapped ? uint64_t(header.sh_addr) : 0;
    section.size = header.sh_size;
    section.fileOffset = header.sh_offset;
    section.fileSize = noBits ? 0 : uint64_t(header.sh_size);
    // ELF has no "readable" flag: everything the loader maps can be read.
    section.readable = section.mapped;
    section.writable = section.mapped && (header.sh_flags & llvm::ELF::SHF_WRITE);
    section.executable = section.mapped && (header.sh_flags & llvm::ELF::SHF_EXECINSTR);
    if (llvm::Error error = builder.addSection(std::move(section)))
      return error;
  }
  return llvm::Error::success();
}

/// A file without section headers (e.g. after `strip --strip-sections`) still has its
/// loadable segments, which are what the kernel maps; they become sections "LOAD#<index>".
llvm::Error addSegmentsAsSections(Image::Builder &builder, Elf::Elf_Phdr_Range segments) {
  for (auto [index, segment] : llvm::enumerate(segments)) {
    if (segment.p_type != llvm::ELF::PT_LOAD)
      continue;
    Section section;
    section.name = "LOAD#" + std::to_string(index);
    section.address = segment.p_vaddr;
    section.size = segment.p_memsz;
    section.fileOffset = segment.p_offset;
    section.fileSize = segment.p_filesz;
    section.readable = segment.p_flags & llvm::ELF::PF_R;
    section.writable = segment.p_flags & llvm::ELF::PF_W;
    section.executable = segment.p_flags & llvm::ELF::PF_X;
    if (llvm::Error error = builder.addSection(std::move(section)))
      return error;
  }
  return llvm::Error::success();
}

/// A non-PIE executable's data holds the absolute addresses the linker wrote with no
/// relocation left to say where (`char *greeting = "hello"` in .data, a table of strings in
/// .rodata): every 8-byte aligned value of a data section that is an address in a mapped
/// section may be one (Image::possiblePointers).
void addPossiblePointers(Image::Builder &builder) {
  std::map<uint64_t, uint64_t> mapped;   // start -> end
  for (const Section &section : builder.sections())
    if (section.mapped && section.size > 0)
      mapped.emplace(section.address, section.address + section.size);
  auto isMapped = [&](uint64_t value) {
    auto after = mapped.upper_bound(value);
    return after != mapped.begin() && value < std::prev(after)->second;
  };
  for (const Section &section : builder.sections()) {
    if (!section.mapped || section.executable || section.fileSize == 0)
      continue;
    llvm::ArrayRef<uint8_t> bytes = builder.sectionBytes(section);
    uint64_t first = llvm::alignTo(section.address, 8) - section.address;
    for (uint64_t offset = first; offset + 8 <= bytes.size(); offset += 8)
      if (isMapped(llvm::support::endian::read64le(bytes.data() + offset)))
        builder.addPossiblePointer(section.address + offset);
  }
}

llvm::Error loadElfImage(Image::Builder &builder) {
  auto elfOrError = Elf::create(llvm::toStringRef(builder.fileBytes()));
  if (!elfOrError)
    return elfOrError.takeError();
  const Elf &elf = *elfOrError;
  const auto &header = elf.getHeader();

  auto segments = elf.program_headers();
  if (!segments)
    return segments.takeError();
  bool hasInterpreter = false;
  std::optional<uint64_t> lowestLoad;
  for (const auto &segment : *segments) {
    if (segment.p_type == llvm::ELF::PT_INTERP)
      hasInterpreter = true;
    if (segment.p_type == llvm::ELF::PT_LOAD)
      lowestLoad = std::min(lowestLoad.value_or(segment.p_vaddr), uint64_t(segment.p_vaddr));
  }
  builder.setEntryPoint(header.e_entry);
  builder.setImageBase(lowestLoad.value_or(0));

  auto sections = elf.sections();
  if (!sections)
    return sections.takeError();

  bool dynamic = header.e_type == llvm::ELF::ET_DYN;
  builder.setPositionIndependent(dynamic);
  if (dynamic) {
    auto table = dynamicTable(elf, *sections, *segments);
    if (!table)
      return table.takeError();
    builder.setLibrary(isSharedObject(*table, hasInterpreter));
  }

  if (sections->empty())
    return addSegmentsAsSections(builder, *segments);
  if (llvm::Error error = addSections(builder, elf, *sections))
    return error;
  if (llvm::Error error = addSymbols(builder, elf, *sections))
    return error;
  if (llvm::Error error = loadElfImports(builder, elf, *sections))
    return error;
  if (!dynamic)
    addPossiblePointers(builder);
  return llvm::Error::success();
}

} // namespace

llvm::Error loadElf(Image::Builder &builder) {
  if (llvm::Error error = checkHeader(builder.fileBytes()))
    return error;
  return loadElfImage(builder);
}

} // namespace hoist
