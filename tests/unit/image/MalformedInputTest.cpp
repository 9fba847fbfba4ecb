// Bad input: the loader returns an error naming the file (or, where the damage is harmless, an
// image) and never crashes, hangs or reads outside the buffer. Run under HOIST_SANITIZE to
// have AddressSanitizer check the last part.
#include "TestBinaries.h"

#include "hoist/Image.h"

#include <gtest/gtest.h>

#include <llvm/BinaryFormat/COFF.h>
#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Object/ELFTypes.h>
#include <llvm/Support/Endian.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

#include <cstdlib>
#include <cstring>
#include <random>

namespace hoist {
namespace {

using namespace hoist::test;
using Bytes = std::vector<uint8_t>;

constexpr const char *mutatedName = "mutated.bin";

Bytes readFile(const char *path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    ADD_FAILURE() << path << ": " << buffer.getError().message();
    return {};
  }
  return Bytes((*buffer)->getBufferStart(), (*buffer)->getBufferEnd());
}

llvm::Expected<std::unique_ptr<Image>> loadBytes(const Bytes &bytes,
                                                 const char *name = mutatedName) {
  llvm::StringRef text(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  return Image::fromBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, name));
}

/// Touches every byte the image claims to have, so that a bad table shows under ASan.
void exerciseImage(const Image &image) {
  uint8_t scratch[64];
  for (const Section &section : image.sections()) {
    if (!section.mapped || section.size == 0)
      continue;
    llvm::ArrayRef<uint8_t> bytes = image.bytesAt(section.address);
    unsigned sum = 0;
    for (uint8_t byte : bytes)
      sum += byte;
    (void)sum;
    image.read(section.address, scratch, std::min<uint64_t>(section.size, sizeof scratch));
    image.read(section.address + section.size - 1, scratch, 1);
  }
  for (const Symbol &symbol : image.symbols())
    image.nameAt(symbol.address);
  for (const Import &import : image.imports())
    image.read(import.slotAddress, scratch, 8);
}

/// Loads `bytes` and expects either an image or an error that starts with the buffer's name.
/// Returns the error message ("" for an image).
std::string loadExpectingNoCrash(const Bytes &bytes, const char *name = mutatedName) {
  auto image = loadBytes(bytes, name);
  if (image) {
    exerciseImage(**image);
    return "";
  }
  std::string message = llvm::toString(image.takeError());
  EXPECT_TRUE(llvm::StringRef(message).starts_with(std::string(name) + ": ")) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
  return message;
}

/// Expects an error naming the file, containing `fragment`.
void expectError(const Bytes &bytes, llvm::StringRef fragment) {
  auto image = loadBytes(bytes);
  ASSERT_FALSE(bool(image)) << "loaded although it should fail with '" << fragment.str() << "'";
  std::string message = llvm::toString(image.takeError());
  EXPECT_TRUE(llvm::StringRef(message).starts_with(std::string(mutatedName) + ": ")) << message;
  EXPECT_NE(message.find(fragment.str()), std::string::npos) << message;
}

template <typename T> void put(Bytes &bytes, uint64_t offset, T value) {
  ASSERT_LE(offset + sizeof(T), bytes.size());
  llvm::support::endian::write<T, llvm::endianness::little>(bytes.data() + offset, value);
}

template <typename T> T get(const Bytes &bytes, uint64_t offset) {
  EXPECT_LE(offset + sizeof(T), bytes.size());
  if (offset + sizeof(T) > bytes.size())
    return 0;
  return llvm::support::endian::read<T, llvm::endianness::little>(bytes.data() + offset);
}

// ---------------------------------------------------------------------------------------------
// Files that are not binaries at all

TEST(MalformedInputTest, MissingFileNamesThePath) {
  auto image = Image::load("/nonexistent/hoist/prog");
  ASSERT_FALSE(bool(image));
  EXPECT_EQ(llvm::toString(image.takeError()),
            "/nonexistent/hoist/prog: No such file or directory");
}

TEST(MalformedInputTest, DirectoryIsAnError) {
  auto image = Image::load("/");
  ASSERT_FALSE(bool(image));
  EXPECT_TRUE(llvm::StringRef(llvm::toString(image.takeError())).starts_with("/: "));
}

TEST(MalformedInputTest, EmptyFileIsAnError) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("hoist-empty", "exe", path));
  auto image = Image::load(path);
  ASSERT_FALSE(bool(image));
  EXPECT_EQ(llvm::toString(image.takeError()), (path + ": file is empty").str());
  llvm::sys::fs::remove(path);
}

TEST(MalformedInputTest, GarbageIsNotAnImage) {
  std::mt19937 random(7);
  Bytes garbage(1024);
  for (uint8_t &byte : garbage)
    byte = random() & 0xff;
  garbage[0] = 'x';
  expectError(garbage, "not an ELF or PE file");
}

TEST(MalformedInputTest, MagicAloneIsNotEnough) {
  expectError({0x7f, 'E', 'L', 'F', 2, 1, 1}, "truncated ELF header");
  expectError({'M', 'Z', 0, 0}, "truncated DOS header");
  Bytes dosOnly(256, 0);
  dosOnly[0] = 'M';
  dosOnly[1] = 'Z';
  put<uint32_t>(dosOnly, 0x3c, 0x80);   // e_lfanew to a place without "PE\0\0"
  expectError(dosOnly, "no PE signature at offset 0x80");
}

// ---------------------------------------------------------------------------------------------
// Truncation and random damage of every real test binary

class DamagedBinaryTest : public testing::TestWithParam<const char *> {};

const char *const allBinaries[] = {elfExecutable, elfPie,  elfPieIbt,
                                   elfLibrary,    peDll,   peExecutable};

TEST_P(DamagedBinaryTest, TruncatedAnywhereFailsCleanly) {
  Bytes original = readFile(GetParam());
  ASSERT_FALSE(original.empty());
  std::vector<size_t> lengths = {1, 2, 4, 16, 52, 63, 64, 65, 0x3c, 0x40, 0x80, 0x100};
  for (size_t i = 1; i <= 40; ++i)
    lengths.push_back(original.size() * i / 41);
  lengths.push_back(original.size() - 1);
  size_t failed = 0;
  for (size_t length : lengths) {
    Bytes prefix(original.begin(), original.begin() + length);
    if (!loadExpectingNoCrash(prefix).empty())
      ++failed;
  }
  // ELF section headers and PE debug sections sit at the end: nearly every cut breaks them.
  EXPECT_GE(failed, lengths.size() - 2);
}

TEST_P(DamagedBinaryTest, RandomByteDamageNeverCrashes) {
  Bytes original = readFile(GetParam());
  ASSERT_FALSE(original.empty());
  std::mt19937_64 random(llvm::StringRef(GetParam()).size());
  // Headers sit at the start of these files; ELF section headers and COFF symbols at the end.
  size_t window = std::min<size_t>(original.size(), 4096);
  // HOIST_DAMAGE_ROUNDS raises the count for a longer local run.
  int rounds = 400;
  if (const char *setting = std::getenv("HOIST_DAMAGE_ROUNDS"))
    rounds = std::atoi(setting);
  for (int round = 0; round < rounds; ++round) {
    Bytes damaged = original;
    int flips = 1 + random() % 8;
    for (int i = 0; i < flips; ++i) {
      size_t offset = random() % window;
      switch (random() % 3) {
      case 0:
        break;
      case 1:
        offset = original.size() - 1 - offset;
        break;
      default:   // the tables headers point to: .dynsym, .rela.*, .idata, .edata
        offset = random() % original.size();
      }
      if (random() % 2) {
        damaged[offset] = random() & 0xff;
        continue;
      }
      // Sizes, counts and offsets are 32- or 64-bit fields: give one an extreme value.
      static constexpr uint64_t extremes[] = {0,          1,          0x7fffffff, 0x80000000,
                                              0xffffffff, 0xfffffff0, ~0ull,      1ull << 40};
      uint64_t value = extremes[random() % std::size(extremes)];
      size_t width = random() % 2 ? 4 : 8;
      offset &= ~(width - 1);
      for (size_t b = 0; b < width && offset + b < damaged.size(); ++b)
        damaged[offset + b] = (value >> (8 * b)) & 0xff;
    }
    loadExpectingNoCrash(damaged);
  }
}

INSTANTIATE_TEST_SUITE_P(Binaries, DamagedBinaryTest, testing::ValuesIn(allBinaries),
                         testNameOfBinary);

// ---------------------------------------------------------------------------------------------
// ELF header and section header fields

using Ehdr = llvm::object::ELF64LE::Ehdr;
using Shdr = llvm::object::ELF64LE::Shdr;

class MalformedElfTest : public testing::Test {
protected:
  void SetUp() override { elf = readFile(elfExecutable); }

  const Ehdr &header() const { return *reinterpret_cast<const Ehdr *>(elf.data()); }

  /// File offset of the section header named `name`.
  uint64_t sectionHeader(llvm::StringRef name) const {
    const Ehdr &h = header();
    auto shdr = [&](unsigned i) {
      return reinterpret_cast<const Shdr *>(elf.data() + h.e_shoff + i * sizeof(Shdr));
    };
    const Shdr *names = shdr(h.e_shstrndx);
    for (unsigned i = 0; i < h.e_shnum; ++i)
      if (name == reinterpret_cast<const char *>(elf.data() + names->sh_offset +
                                                 shdr(i)->sh_name))
        return h.e_shoff + i * sizeof(Shdr);
    ADD_FAILURE() << "no section " << name.str();
    return 0;
  }

  Bytes elf;
};

TEST_F(MalformedElfTest, SectionTableOffsetBeyondFile) {
  put<uint64_t>(elf, offsetof(Ehdr, e_shoff), 0xffffffffffff0000);
  expectError(elf, "section header table");
}

TEST_F(MalformedElfTest, HugeSectionCount) {
  put<uint16_t>(elf, offsetof(Ehdr, e_shnum), 0xfffe);
  expectError(elf, "section");
}

TEST_F(MalformedElfTest, WrongSectionHeaderSize) {
  put<uint16_t>(elf, offsetof(Ehdr, e_shentsize), 10);
  expectError(elf, "e_shentsize");
}

TEST_F(MalformedElfTest, ProgramHeadersBeyondFile) {
  put<uint64_t>(elf, offsetof(Ehdr, e_phoff), 0x7fffffffffff);
  expectError(elf, "program header");
}

TEST_F(MalformedElfTest, SectionNameTableIndexOutOfRange) {
  put<uint16_t>(elf, offsetof(Ehdr, e_shstrndx), 0xfeff);
  expectError(elf, "");
}

TEST_F(MalformedElfTest, SectionSizeBeyondFile) {
  put<uint64_t>(elf, sectionHeader(".text") + offsetof(Shdr, sh_size), uint64_t(1) << 40);
  expectError(elf, "section '.text'");
}

TEST_F(MalformedElfTest, SectionOffsetBeyondFile) {
  put<uint64_t>(elf, sectionHeader(".data") + offsetof(Shdr, sh_offset), ~uint64_t(0) - 8);
  expectError(elf, "section '.data'");
}

TEST_F(MalformedElfTest, SectionWrappingTheAddressSpace) {
  uint64_t bss = sectionHeader(".bss");
  put<uint64_t>(elf, bss + offsetof(Shdr, sh_addr), ~uint64_t(0) - 0x100);
  put<uint64_t>(elf, bss + offsetof(Shdr, sh_size), 0x1000);
  expectError(elf, "address space");
}

TEST_F(MalformedElfTest, SymbolTableBeyondFile) {
  put<uint64_t>(elf, sectionHeader(".dynsym") + offsetof(Shdr, sh_size), 0x7fffffff0);
  expectError(elf, "");
}

TEST_F(MalformedElfTest, RelocationLinkOutOfRange) {
  put<uint32_t>(elf, sectionHeader(".rela.plt") + offsetof(Shdr, sh_link), 0xfff0);
  expectError(elf, "");
}

TEST_F(MalformedElfTest, RelocationSymbolIndexOutOfRange) {
  uint64_t relaPlt = get<uint64_t>(elf, sectionHeader(".rela.plt") + offsetof(Shdr, sh_offset));
  // r_info of the first entry: symbol 0xffffff, type R_X86_64_JUMP_SLOT.
  put<uint64_t>(elf, relaPlt + 8, (uint64_t(0xffffff) << 32) | llvm::ELF::R_X86_64_JUMP_SLOT);
  expectError(elf, "");
}

TEST_F(MalformedElfTest, SymbolNameOutsideStringTable) {
  uint64_t header = sectionHeader(".symtab");
  uint64_t symtab = get<uint64_t>(elf, header + offsetof(Shdr, sh_offset));
  uint64_t count = get<uint64_t>(elf, header + offsetof(Shdr, sh_size)) / 24;
  for (uint64_t i = 1; i < count; ++i)
    put<uint32_t>(elf, symtab + 24 * i, 0x7fffffff);   // st_name
  expectError(elf, "");
}

TEST_F(MalformedElfTest, OtherMachineIsRejectedByName) {
  put<uint16_t>(elf, offsetof(Ehdr, e_machine), llvm::ELF::EM_AARCH64);
  expectError(elf, "ELF machine 183 (AArch64) is not supported");
}

TEST_F(MalformedElfTest, Elf32IsRejected) {
  elf[llvm::ELF::EI_CLASS] = llvm::ELF::ELFCLASS32;
  expectError(elf, "32-bit ELF is not supported");
}

TEST_F(MalformedElfTest, BigEndianIsRejected) {
  elf[llvm::ELF::EI_DATA] = llvm::ELF::ELFDATA2MSB;
  expectError(elf, "big-endian");
}

TEST_F(MalformedElfTest, ObjectFilesAndCoreDumpsAreRejected) {
  put<uint16_t>(elf, offsetof(Ehdr, e_type), llvm::ELF::ET_REL);
  expectError(elf, "relocatable object files are not supported");
  put<uint16_t>(elf, offsetof(Ehdr, e_type), llvm::ELF::ET_CORE);
  expectError(elf, "core dumps");
}

TEST_F(MalformedElfTest, NoSectionHeadersFallsBackToSegments) {
  put<uint64_t>(elf, offsetof(Ehdr, e_shoff), 0);
  put<uint16_t>(elf, offsetof(Ehdr, e_shnum), 0);
  auto image = loadBytes(elf);
  ASSERT_TRUE(bool(image)) << llvm::toString(image.takeError());
  EXPECT_TRUE((*image)->isExecutable((*image)->entryPoint()));
  ASSERT_FALSE((*image)->sections().empty());
  EXPECT_TRUE(llvm::StringRef((*image)->sections()[0].name).starts_with("LOAD#"));
}

// ---------------------------------------------------------------------------------------------
// PE headers, sections and directories

class MalformedPeTest : public testing::Test {
protected:
  void SetUp() override {
    exe = readFile(peExecutable);
    dll = readFile(peDll);
  }

  static uint64_t peHeader(const Bytes &pe) { return get<uint32_t>(pe, 0x3c); }
  static uint64_t coffHeader(const Bytes &pe) { return peHeader(pe) + 4; }
  static uint64_t optionalHeader(const Bytes &pe) { return coffHeader(pe) + 20; }
  static uint64_t dataDirectory(const Bytes &pe, unsigned index) {
    return optionalHeader(pe) + 112 + 8 * index;   // PE32+ layout
  }
  static uint64_t sectionTable(const Bytes &pe) {
    return optionalHeader(pe) + get<uint16_t>(pe, coffHeader(pe) + 16);
  }
  static uint16_t sectionCount(const Bytes &pe) { return get<uint16_t>(pe, coffHeader(pe) + 2); }
  /// The file offset of `rva`, from the section table.
  static uint64_t fileOffsetOf(const Bytes &pe, uint32_t rva) {
    for (unsigned i = 0; i < sectionCount(pe); ++i) {
      uint64_t header = sectionTable(pe) + 40 * i;
      uint32_t start = get<uint32_t>(pe, header + 12);
      uint32_t size = get<uint32_t>(pe, header + 16);
      if (rva >= start && rva < start + size)
        return get<uint32_t>(pe, header + 20) + (rva - start);
    }
    ADD_FAILURE() << "RVA " << rva << " is in no section";
    return 0;
  }
  /// The file offset where the raw data of the section holding `rva` ends.
  static uint64_t sectionFileEnd(const Bytes &pe, uint32_t rva) {
    for (unsigned i = 0; i < sectionCount(pe); ++i) {
      uint64_t header = sectionTable(pe) + 40 * i;
      uint32_t start = get<uint32_t>(pe, header + 12);
      uint32_t size = get<uint32_t>(pe, header + 16);
      if (rva >= start && rva < start + size)
        return get<uint32_t>(pe, header + 20) + size;
    }
    ADD_FAILURE() << "RVA " << rva << " is in no section";
    return 0;
  }
  static uint64_t importDescriptor(const Bytes &pe, unsigned index) {
    return fileOffsetOf(pe, get<uint32_t>(pe, dataDirectory(pe, COFF_IMPORT))) + 20 * index;
  }
  static uint64_t exportTable(const Bytes &pe) {
    return fileOffsetOf(pe, get<uint32_t>(pe, dataDirectory(pe, COFF_EXPORT)));
  }

  static constexpr unsigned COFF_EXPORT = llvm::COFF::EXPORT_TABLE;
  static constexpr unsigned COFF_IMPORT = llvm::COFF::IMPORT_TABLE;

  Bytes exe, dll;
};

TEST_F(MalformedPeTest, PeHeaderOffsetBeyondFile) {
  put<uint32_t>(exe, 0x3c, 0x7ffffff0);
  expectError(exe, "PE header offset 0x7ffffff0 is beyond the end of the file");
}

TEST_F(MalformedPeTest, HugeSectionCount) {
  put<uint16_t>(exe, coffHeader(exe) + 2, 0xffff);
  expectError(exe, "");
}

TEST_F(MalformedPeTest, OtherMachineIsRejected) {
  put<uint16_t>(exe, coffHeader(exe), llvm::COFF::IMAGE_FILE_MACHINE_ARM64);
  expectError(exe, "PE machine 0xaa64 is not supported");
}

TEST_F(MalformedPeTest, Pe32IsRejected) {
  put<uint16_t>(exe, optionalHeader(exe), llvm::COFF::PE32Header::PE32);
  expectError(exe, "PE32 (32-bit) images are not supported");
}

TEST_F(MalformedPeTest, SectionRawDataBeyondFile) {
  uint64_t text = sectionTable(exe);
  put<uint32_t>(exe, text + 8, 0x7fffffff);    // VirtualSize
  put<uint32_t>(exe, text + 16, 0x7fffffff);   // SizeOfRawData
  expectError(exe, "section '.text'");
}

TEST_F(MalformedPeTest, SectionRawDataPointerBeyondFile) {
  put<uint32_t>(exe, sectionTable(exe) + 20, 0xfffffff0);
  expectError(exe, "beyond the end of the file");
}

TEST_F(MalformedPeTest, ImportDirectoryOutsideEverySection) {
  put<uint32_t>(exe, dataDirectory(exe, COFF_IMPORT), 0x7ffff000);
  expectError(exe, "0x7ffff000");
}

TEST_F(MalformedPeTest, ImportLookupTableOutsideEverySection) {
  put<uint32_t>(exe, importDescriptor(exe, 0), 0x7fff0000);
  expectError(exe, "lookup table at RVA 0x7fff0000 is outside every section");
}

TEST_F(MalformedPeTest, ImportDllNameOutsideEverySection) {
  put<uint32_t>(exe, importDescriptor(exe, 0) + 12, 0x7fff0000);
  expectError(exe, "the DLL name of import directory entry 0 at RVA 0x7fff0000 is outside");
}

TEST_F(MalformedPeTest, ImportLookupEntryWithReservedBits) {
  uint32_t lookupRva = get<uint32_t>(exe, importDescriptor(exe, 0));
  put<uint64_t>(exe, fileOffsetOf(exe, lookupRva), uint64_t(0x12345678) << 32);
  expectError(exe, "reserved bits");
}

TEST_F(MalformedPeTest, ImportDirectoryIntoCodeFailsCleanly) {
  // Descriptors read from code are garbage: names and tables point anywhere.
  uint32_t textRva = get<uint32_t>(exe, sectionTable(exe) + 12);
  put<uint32_t>(exe, dataDirectory(exe, COFF_IMPORT), textRva + 0x40);
  loadExpectingNoCrash(exe);
}

TEST_F(MalformedPeTest, ImportTableWithoutNullEntryStopsAtSectionEnd) {
  // Fill the first lookup table from its start to the end of its section with non-zero thunks
  // naming by ordinal: the walk must stop at the end of the section, not run past it.
  uint32_t lookupRva = get<uint32_t>(exe, importDescriptor(exe, 0));
  uint64_t end = sectionFileEnd(exe, lookupRva);
  for (uint64_t at = fileOffsetOf(exe, lookupRva); at + 8 <= end; at += 8)
    put<uint64_t>(exe, at, (uint64_t(1) << 63) | 1);
  expectError(exe, "runs past the end of its section");
}

TEST_F(MalformedPeTest, ImportByOrdinalIsNamedWithHash) {
  // Not damage: an import by ordinal is valid, and rare enough that no test binary has one.
  uint64_t descriptor = importDescriptor(exe, 0);
  uint32_t lookupRva = get<uint32_t>(exe, descriptor);
  uint32_t slotRva = get<uint32_t>(exe, descriptor + 16);
  put<uint64_t>(exe, fileOffsetOf(exe, lookupRva), (uint64_t(1) << 63) | 42);
  auto image = loadBytes(exe);
  ASSERT_TRUE(bool(image)) << llvm::toString(image.takeError());
  const Import *import = (*image)->importAtSlot((*image)->imageBase() + slotRva);
  ASSERT_TRUE(import);
  EXPECT_EQ(import->name, "#42");
  const char *library =
      reinterpret_cast<const char *>(&exe[fileOffsetOf(exe, get<uint32_t>(exe, descriptor + 12))]);
  EXPECT_EQ(import->library, library);
}

TEST_F(MalformedPeTest, ExportCountsBeyondOrdinalRange) {
  put<uint32_t>(dll, exportTable(dll) + 20, 0x7fffffff);   // AddressTableEntries
  expectError(dll, "export directory claims");
}

TEST_F(MalformedPeTest, ExportNamePointerOutsideEverySection) {
  uint32_t namePointers = get<uint32_t>(dll, exportTable(dll) + 32);
  put<uint32_t>(dll, fileOffsetOf(dll, namePointers), 0x7fff0000);
  expectError(dll, "export name 0 at RVA 0x7fff0000 is outside every section");
}

TEST_F(MalformedPeTest, ExportOrdinalBeyondAddressTable) {
  uint32_t ordinals = get<uint32_t>(dll, exportTable(dll) + 36);
  put<uint16_t>(dll, fileOffsetOf(dll, ordinals), 0x7fff);
  expectError(dll, "refers to function");
}

// Not malformed: a DLL that exports by ordinal only has no name tables, and their RVAs are 0.
TEST_F(MalformedPeTest, ExportsByOrdinalOnlyNeedNoNameTables) {
  uint32_t functionCount = get<uint32_t>(dll, exportTable(dll) + 20);
  put<uint32_t>(dll, exportTable(dll) + 24, 0);   // NumberOfNamePointers
  put<uint32_t>(dll, exportTable(dll) + 32, 0);   // NamePointerRVA
  put<uint32_t>(dll, exportTable(dll) + 36, 0);   // OrdinalTableRVA
  auto image = loadBytes(dll);
  ASSERT_TRUE(bool(image)) << llvm::toString(image.takeError());
  ASSERT_FALSE((*image)->exports().empty());
  EXPECT_LE((*image)->exports().size(), functionCount);
  for (const Export &exported : (*image)->exports())
    EXPECT_EQ(exported.name[0], '#') << exported.name;   // named by ordinal
}

TEST_F(MalformedPeTest, ExportDirectoryOutsideEverySection) {
  put<uint32_t>(dll, dataDirectory(dll, COFF_EXPORT), 0x7ffff000);
  expectError(dll, "0x7ffff000");
}

} // namespace
} // namespace hoist
