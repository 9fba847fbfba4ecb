// A hostile image may name a million functions. Loading it, looking names up and discovering
// its functions must stay linear: a quadratic step would take hours here, not seconds.
#include "Discover/ProgramDiscovery.h"
#include "Support/Diagnostics.h"
#include "hoist/Image.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Support/MemoryBuffer.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <string>
#include <vector>

using namespace hoist;

namespace {

constexpr uint64_t LoadAddress = 0x400000;
constexpr uint64_t TextOffset = 0x1000;
constexpr size_t SymbolCount = 1000000;
/// Generous for a sanitizer build on a busy machine; linear work takes a few seconds.
constexpr double SecondsAllowed = 60;

template <typename T> void append(std::vector<uint8_t> &bytes, const T &value) {
  const auto *raw = reinterpret_cast<const uint8_t *>(&value);
  bytes.insert(bytes.end(), raw, raw + sizeof(T));
}

/// An ELF executable whose .text is `symbols` one-byte functions (`ret`), each named by a
/// static FUNC symbol "f<i>".
std::vector<uint8_t> elfWithFunctionSymbols(size_t symbols) {
  using namespace llvm::ELF;
  std::vector<uint8_t> text(symbols, 0xc3);
  std::string strtab(1, '\0');
  std::vector<uint8_t> symtab;
  append(symtab, Elf64_Sym{});
  for (size_t i = 0; i < symbols; ++i) {
    Elf64_Sym symbol{};
    symbol.st_name = static_cast<uint32_t>(strtab.size());
    symbol.setBindingAndType(STB_GLOBAL, STT_FUNC);
    symbol.st_shndx = 1;
    symbol.st_value = LoadAddress + TextOffset + i;
    symbol.st_size = 1;
    append(symtab, symbol);
    strtab += "f" + std::to_string(i);
    strtab += '\0';
  }
  const std::string shstrtab = std::string("\0.text\0.symtab\0.strtab\0.shstrtab\0", 33);

  uint64_t symtabOffset = TextOffset + text.size();
  uint64_t strtabOffset = symtabOffset + symtab.size();
  uint64_t shstrtabOffset = strtabOffset + strtab.size();
  uint64_t sectionsOffset = (shstrtabOffset + shstrtab.size() + 7) & ~uint64_t(7);

  std::vector<uint8_t> file;
  Elf64_Ehdr header{};
  std::memcpy(header.e_ident, "\x7f" "ELF", 4);
  header.e_ident[EI_CLASS] = ELFCLASS64;
  header.e_ident[EI_DATA] = ELFDATA2LSB;
  header.e_ident[EI_VERSION] = EV_CURRENT;
  header.e_type = ET_EXEC;
  header.e_machine = EM_X86_64;
  header.e_version = EV_CURRENT;
  header.e_entry = LoadAddress + TextOffset;
  header.e_phoff = sizeof(Elf64_Ehdr);
  header.e_shoff = sectionsOffset;
  header.e_ehsize = sizeof(Elf64_Ehdr);
  header.e_phentsize = sizeof(Elf64_Phdr);
  header.e_phnum = 1;
  header.e_shentsize = sizeof(Elf64_Shdr);
  header.e_shnum = 5;
  header.e_shstrndx = 4;
  append(file, header);
  Elf64_Phdr load{};
  load.p_type = PT_LOAD;
  load.p_flags = PF_R | PF_X;
  load.p_offset = 0;
  load.p_vaddr = load.p_paddr = LoadAddress;
  load.p_filesz = load.p_memsz = TextOffset + text.size();
  load.p_align = 0x1000;
  append(file, load);
  file.resize(TextOffset, 0);
  file.insert(file.end(), text.begin(), text.end());
  file.insert(file.end(), symtab.begin(), symtab.end());
  file.insert(file.end(), strtab.begin(), strtab.end());
  file.insert(file.end(), shstrtab.begin(), shstrtab.end());
  file.resize(sectionsOffset, 0);

  auto section = [&](uint32_t name, uint32_t type, uint64_t flags, uint64_t address,
                     uint64_t offset, uint64_t size, uint32_t link, uint64_t entrySize) {
    Elf64_Shdr shdr{};
    shdr.sh_name = name;
    shdr.sh_type = type;
    shdr.sh_flags = flags;
    shdr.sh_addr = address;
    shdr.sh_offset = offset;
    shdr.sh_size = size;
    shdr.sh_link = link;
    shdr.sh_info = link ? 1 : 0;   // the symbol table: index of the first global symbol
    shdr.sh_addralign = 1;
    shdr.sh_entsize = entrySize;
    append(file, shdr);
  };
  section(0, SHT_NULL, 0, 0, 0, 0, 0, 0);
  section(1, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, LoadAddress + TextOffset, TextOffset,
          text.size(), 0, 0);
  section(7, SHT_SYMTAB, 0, 0, symtabOffset, symtab.size(), 3, sizeof(Elf64_Sym));
  section(15, SHT_STRTAB, 0, 0, strtabOffset, strtab.size(), 0, 0);
  section(23, SHT_STRTAB, 0, 0, shstrtabOffset, shstrtab.size(), 0, 0);
  return file;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One test, not three: ctest runs each test in a process of its own, and building and loading
// the image is most of the time.
TEST(ManySymbolsTest, MillionFunctionSymbolsLoadResolveAndDiscoverQuickly) {
  std::vector<uint8_t> bytes = elfWithFunctionSymbols(SymbolCount);
  auto start = std::chrono::steady_clock::now();
  auto image = Image::fromBuffer(llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(reinterpret_cast<const char *>(bytes.data()), bytes.size()),
      "many-symbols"));
  ASSERT_TRUE(bool(image)) << llvm::toString(image.takeError());
  EXPECT_LT(secondsSince(start), SecondsAllowed) << "loading";
  EXPECT_EQ((*image)->symbols().size(), SymbolCount);

  start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < SymbolCount; i += 997) {
    uint64_t address = LoadAddress + TextOffset + i;
    EXPECT_EQ((*image)->lookupSymbol("f" + std::to_string(i)), address);
    EXPECT_EQ((*image)->nameAt(address), "f" + std::to_string(i));
  }
  EXPECT_LT(secondsSince(start), SecondsAllowed) << "names";

  // Every symbol is a function start; discovery explores as many as its budget allows.
  LiftOptions options;
  options.maxFunctions = 2000;
  DiagnosticSink diagnostics;
  ProgramDiscoveryRequest request;
  request.all = true;
  start = std::chrono::steady_clock::now();
  ProgramCfg cfg = discoverProgram(**image, request, options, diagnostics);
  EXPECT_LT(secondsSince(start), SecondsAllowed) << "discovery";
  EXPECT_EQ(cfg.functions.size(), options.maxFunctions);
  EXPECT_TRUE(cfg.budgetExhausted);
  EXPECT_EQ(cfg.registry.functionStarts().size(), SymbolCount);
  ASSERT_FALSE(diagnostics.all().empty());
  EXPECT_EQ(diagnostics.all().back().code, "budget-exhausted");
}

} // namespace
