#include "Translate/ElfProgram.h"

#include "Support/Error.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Object/ELFObjectFile.h>

namespace hoist {
namespace {

using ElfObject = llvm::object::ELF64LEObjectFile;
using Elf = llvm::object::ELFFile<llvm::object::ELF64LE>;
namespace ELF = llvm::ELF;

void readSegments(Elf::Elf_Phdr_Range segments, uint64_t bias, ElfProgram &program) {
  for (const auto &segment : segments) {
    if (segment.p_type == ELF::PT_INTERP)
      program.hasInterpreter = true;
    if (segment.p_type == ELF::PT_TLS) {
      ThreadLocalSegment tls;
      tls.address = segment.p_vaddr + bias;
      tls.memorySize = segment.p_memsz;
      tls.fileSize = std::min<uint64_t>(segment.p_filesz, segment.p_memsz);
      tls.alignment = segment.p_align ? segment.p_align : 1;
      program.threadLocal = tls;
    }
    if (segment.p_type != ELF::PT_LOAD)
      continue;
    LoadSegment load;
    load.address = segment.p_vaddr + bias;
    load.memorySize = segment.p_memsz;
    load.fileOffset = segment.p_offset;
    load.fileSize = std::min<uint64_t>(segment.p_filesz, segment.p_memsz);
    load.readable = segment.p_flags & ELF::PF_R;
    load.writable = segment.p_flags & ELF::PF_W;
    load.executable = segment.p_flags & ELF::PF_X;
    program.segments.push_back(load);
  }
}

llvm::Error readDynamicTags(const Elf &elf, const Elf::Elf_Shdr &dynamic,
                            Elf::Elf_Shdr_Range sections, uint64_t bias, ElfProgram &program) {
  auto entries = elf.getSectionContentsAsArray<Elf::Elf_Dyn>(dynamic);
  if (!entries)
    return entries.takeError();
  auto stringSection = elf.getSection(dynamic.sh_link);
  if (!stringSection)
    return stringSection.takeError();
  auto strings = elf.getStringTable(**stringSection);
  if (!strings)
    return strings.takeError();
  program.hasDynamicSection = true;
  for (const auto &entry : *entries) {
    uint64_t value = entry.d_un.d_val;
    switch (entry.d_tag) {
    case ELF::DT_NEEDED:
      if (value < strings->size())
        program.neededLibraries.push_back(strings->drop_front(value).data());
      break;
    case ELF::DT_PREINIT_ARRAY: program.preinitArray = value + bias; break;
    case ELF::DT_PREINIT_ARRAYSZ: program.preinitCount = value / 8; break;
    case ELF::DT_INIT: program.init = value + bias; break;
    case ELF::DT_INIT_ARRAY: program.initArray = value + bias; break;
    case ELF::DT_INIT_ARRAYSZ: program.initCount = value / 8; break;
    case ELF::DT_FINI: program.fini = value + bias; break;
    case ELF::DT_FINI_ARRAY: program.finiArray = value + bias; break;
    case ELF::DT_FINI_ARRAYSZ: program.finiCount = value / 8; break;
    default: break;
    }
    if (entry.d_tag == ELF::DT_NULL)
      break;
  }
  return llvm::Error::success();
}

DynamicRelocation::Kind kindOf(uint32_t type) {
  switch (type) {
  case ELF::R_X86_64_RELATIVE:
    return DynamicRelocation::Kind::Value;
  case ELF::R_X86_64_64:
  case ELF::R_X86_64_GLOB_DAT:
  case ELF::R_X86_64_JUMP_SLOT:
    return DynamicRelocation::Kind::Symbol;
  case ELF::R_X86_64_COPY:
    return DynamicRelocation::Kind::Copy;
  case ELF::R_X86_64_IRELATIVE:
    return DynamicRelocation::Kind::Irelative;
  case ELF::R_X86_64_TPOFF64:
    return DynamicRelocation::Kind::Value;   // the program's own variables only (below)
  default:
    return DynamicRelocation::Kind::Unsupported;
  }
}

/// TPOFF64 (an initial-exec access's GOT slot): the variable's offset from the thread pointer.
/// For the program's own variable (a defined symbol, or none with the offset in the addend)
/// it is fixed at link time, the same in the translation, whose runtime gives every thread the
/// block at the same place below its guest thread pointer (runtime/threads.c). A library's
/// variable's offset from the guest thread pointer is the same in every thread too, and known
/// once the libraries are loaded: the runtime computes it at start.
void threadPointerOffset(DynamicRelocation &relocation, const Elf::Elf_Sym *symbol,
                         uint64_t addend, const std::optional<ThreadLocalSegment> &tls) {
  if (symbol && symbol->st_shndx == ELF::SHN_UNDEF) {
    relocation.kind = DynamicRelocation::Kind::ThreadPointerOffset;
    relocation.value = addend;
    return;
  }
  if (!tls || (symbol && symbol->getType() != ELF::STT_TLS)) {
    relocation.kind = DynamicRelocation::Kind::Unsupported;
    return;
  }
  uint64_t offsetInBlock = (symbol ? uint64_t(symbol->st_value) : 0) + addend;
  relocation.kind = DynamicRelocation::Kind::Value;
  relocation.value = offsetInBlock - tls->offsetBelowThreadPointer();
}

llvm::Error readRelocations(const ElfObject &object, Elf::Elf_Shdr_Range sections,
                            uint64_t bias, ElfProgram &program) {
  const Elf &elf = object.getELFFile();
  auto versions = object.readDynsymVersions();
  if (!versions)
    return versions.takeError();
  for (const auto &table : sections) {
    if (table.sh_type != ELF::SHT_RELA)
      continue;
    auto symbols = elf.getSection(table.sh_link);
    if (!symbols)
      return symbols.takeError();
    // Dynamic relocations name the dynamic symbol table (or none, for .rela.dyn of a binary
    // with only RELATIVE ones); a static .rela.text names .symtab.
    bool dynamicSymbols = (*symbols)->sh_type == ELF::SHT_DYNSYM;
    if (!dynamicSymbols && table.sh_link != 0)
      continue;
    if (!(table.sh_flags & ELF::SHF_ALLOC))
      continue;
    auto relocations = elf.relas(table);
    if (!relocations)
      return relocations.takeError();
    for (const auto &rela : *relocations) {
      uint32_t type = rela.getType(false);
      if (type == ELF::R_X86_64_NONE)
        continue;
      DynamicRelocation relocation;
      relocation.type = type;
      relocation.kind = kindOf(type);
      relocation.address = rela.r_offset + bias;
      uint64_t addend = static_cast<uint64_t>(rela.r_addend);
      uint32_t symbolIndex = rela.getSymbol(false);
      const Elf::Elf_Sym *symbol = nullptr;
      if (dynamicSymbols && symbolIndex != 0) {
        auto found = elf.getRelocationSymbol(rela, *symbols);
        if (!found)
          return found.takeError();
        symbol = *found;
        auto strings = elf.getStringTableForSymtab(**symbols, sections);
        if (!strings)
          return strings.takeError();
        auto name = symbol->getName(*strings);
        if (!name)
          return name.takeError();
        relocation.symbol = name->str();
        relocation.weak = symbol->getBinding() == ELF::STB_WEAK;
        // readDynsymVersions starts at symbol 1 (LLVM's dynamic symbols skip the null one).
        // One off gave a symbol its neighbour's version: pthread_cond_wait@GLIBC_2.3.2 next
        // to printf@GLIBC_2.2.5 became glibc's old condition variable, which hung threads.
        uint32_t versionIndex = symbolIndex - 1;
        if (versionIndex < versions->size() && !(*versions)[versionIndex].IsVerDef)
          relocation.version = (*versions)[versionIndex].Name;
      }
      if (type == ELF::R_X86_64_TPOFF64) {
        threadPointerOffset(relocation, symbol, addend, program.threadLocal);
        program.relocations.push_back(std::move(relocation));
        continue;
      }
      switch (relocation.kind) {
      case DynamicRelocation::Kind::Value:
        relocation.value = bias + addend;
        break;
      case DynamicRelocation::Kind::Irelative:
        relocation.value = bias + addend;
        break;
      case DynamicRelocation::Kind::Copy:
        relocation.value = symbol ? uint64_t(symbol->st_size) : 0;
        break;
      case DynamicRelocation::Kind::Symbol:
        // A symbol the image defines itself binds to it (the executable comes first in the
        // lookup order); an undefined one is looked up in the libraries at run time.
        if (symbol && symbol->st_shndx != ELF::SHN_UNDEF &&
            symbol->getType() != ELF::STT_GNU_IFUNC) {
          relocation.kind = DynamicRelocation::Kind::Value;
          relocation.value = (symbol->st_shndx == ELF::SHN_ABS ? 0 : bias) +
                             uint64_t(symbol->st_value) +
                             (type == ELF::R_X86_64_JUMP_SLOT ? 0 : addend);
        } else {
          relocation.value = type == ELF::R_X86_64_JUMP_SLOT ? 0 : addend;
          if (!symbol)
            relocation.kind = DynamicRelocation::Kind::Unsupported;
          else if (symbol->st_shndx != ELF::SHN_UNDEF)
            relocation.kind = DynamicRelocation::Kind::Unsupported;   // a local IFUNC
        }
        break;
      case DynamicRelocation::Kind::ThreadPointerOffset:
      case DynamicRelocation::Kind::Unsupported:
        break;
      }
      program.relocations.push_back(std::move(relocation));
    }
  }
  return llvm::Error::success();
}

} // namespace

std::string relocationTypeName(uint32_t type) {
  return llvm::object::getELFRelocationTypeName(ELF::EM_X86_64, type).str();
}

const DynamicRelocation *ElfProgram::relocationAt(uint64_t address) const {
  for (const DynamicRelocation &relocation : relocations)
    if (relocation.address == address)
      return &relocation;
  return nullptr;
}

std::optional<uint64_t> ElfProgram::relocatedPointerAt(uint64_t address) const {
  const DynamicRelocation *relocation = relocationAt(address);
  if (relocation && relocation->kind == DynamicRelocation::Kind::Value)
    return relocation->value;
  return std::nullopt;
}

bool ElfProgram::filledBeforeStart(uint64_t address) const {
  const DynamicRelocation *relocation = relocationAt(address);
  if (!relocation)
    return false;
  return (relocation->kind == DynamicRelocation::Kind::Value && relocation->value != 0) ||
         (relocation->kind == DynamicRelocation::Kind::Symbol && !relocation->weak);
}

llvm::Expected<ElfProgram> readElfProgram(llvm::StringRef bytes, uint64_t bias) {
  auto object = ElfObject::create(llvm::MemoryBufferRef(bytes, "program"));
  if (!object)
    return object.takeError();
  const Elf &elf = object->getELFFile();
  ElfProgram program;
  auto segments = elf.program_headers();
  if (!segments)
    return segments.takeError();
  readSegments(*segments, bias, program);
  auto sections = elf.sections();
  if (!sections)
    return sections.takeError();
  for (const auto &section : *sections)
    if (section.sh_type == ELF::SHT_DYNAMIC)
      if (llvm::Error error = readDynamicTags(elf, section, *sections, bias, program))
        return error;
  if (llvm::Error error = readRelocations(*object, *sections, bias, program))
    return error;
  return program;
}

} // namespace hoist
