// ELF executables, PIEs and shared objects, checked against llvm-nm, llvm-readobj and GNU
// objdump on the same files.
#include "TestBinaries.h"
#include "ToolTruth.h"

#include "hoist/Image.h"

#include <gtest/gtest.h>

#include <set>

namespace hoist {
namespace {

using namespace hoist::test;

std::unique_ptr<Image> loadOrFail(const char *path) {
  auto image = Image::load(path);
  if (!image) {
    ADD_FAILURE() << llvm::toString(image.takeError());
    return nullptr;
  }
  return std::move(*image);
}

const Section *sectionNamed(const Image &image, llvm::StringRef name) {
  for (const Section &section : image.sections())
    if (section.name == name)
      return &section;
  return nullptr;
}

const Import *importNamed(const Image &image, llvm::StringRef name) {
  for (const Import &import : image.imports())
    if (import.name == name)
      return &import;
  return nullptr;
}

class ElfImageTest : public testing::TestWithParam<const char *> {};

#ifdef HOIST_TEST_ELF_PIE_LLD_IBT
const char *const elfPieLldIbt = HOIST_TEST_ELF_PIE_LLD_IBT;
const char *const allElfBinaries[] = {elfExecutable, elfPie, elfPieIbt, elfPieLldIbt, elfLibrary};
const char *const elfPrograms[] = {elfExecutable, elfPie, elfPieIbt, elfPieLldIbt};
#else
const char *const allElfBinaries[] = {elfExecutable, elfPie, elfPieIbt, elfLibrary};
const char *const elfPrograms[] = {elfExecutable, elfPie, elfPieIbt};
#endif

TEST_P(ElfImageTest, EntryPointMatchesHeader) {
  auto image = loadOrFail(GetParam());
  ASSERT_TRUE(image);
  auto entry = readobjField(GetParam(), "--file-headers", "Entry");
  ASSERT_TRUE(entry);
  EXPECT_EQ(image->entryPoint(), *entry);
  EXPECT_EQ(image->format(), ImageFormat::Elf);
}

TEST_P(ElfImageTest, MappedSectionsMatchObjdump) {
  auto image = loadOrFail(GetParam());
  ASSERT_TRUE(image);
  size_t compared = 0;
  for (const MappedSection &truth : objdumpSections(GetParam())) {
    const Section *section = sectionNamed(*image, truth.name);
    if (truth.name.empty() || truth.name == ".tbss")
      continue;
    ASSERT_TRUE(section) << truth.name;
    EXPECT_EQ(section->size, truth.size) << truth.name;
    if (section->mapped) {
      EXPECT_EQ(section->address, truth.address) << truth.name;
      ++compared;
    }
  }
  EXPECT_GT(compared, 10u);
}

TEST_P(ElfImageTest, SectionPermissionsFollowFlags) {
  auto image = loadOrFail(GetParam());
  ASSERT_TRUE(image);
  const Section *text = sectionNamed(*image, ".text");
  const Section *data = sectionNamed(*image, ".data");
  const Section *rodata = sectionNamed(*image, ".rodata");
  const Section *bss = sectionNamed(*image, ".bss");
  const Section *symtab = sectionNamed(*image, ".symtab");
  ASSERT_TRUE(text && data && rodata && bss && symtab);
  EXPECT_TRUE(text->readable && !text->writable && text->executable);
  EXPECT_TRUE(data->readable && data->writable && !data->executable);
  EXPECT_TRUE(rodata->readable && !rodata->writable && !rodata->executable);
  EXPECT_TRUE(bss->writable);
  EXPECT_EQ(bss->fileSize, 0u) << "NOBITS has no file bytes";
  EXPECT_FALSE(symtab->mapped) << "only SHF_ALLOC sections get addresses";
  EXPECT_EQ(image->sectionAt(text->address), text);
  EXPECT_TRUE(image->isExecutable(text->address));
  EXPECT_FALSE(image->isExecutable(data->address));
}

TEST_P(ElfImageTest, EveryNmSymbolIsLoadedAtItsAddress) {
  auto image = loadOrFail(GetParam());
  ASSERT_TRUE(image);
  std::set<std::pair<std::string, uint64_t>> loaded;
  for (const Symbol &symbol : image->symbols())
    loaded.emplace(symbol.name, symbol.address);
  size_t checked = 0;
  for (const NmSymbol &truth : nmSymbols(GetParam())) {
    // 'A' absolute symbols have no address in the image.
    if (truth.type == 'A' || truth.type == 'a')
      continue;
    EXPECT_TRUE(loaded.count({truth.name, truth.address}))
        << truth.name << " at " << std::hex << truth.address;
    ++checked;
  }
  EXPECT_GT(checked, 10u);
}

TEST_P(ElfImageTest, ImportsAreTheSymbolRelocationsOfTheGot) {
  auto image = loadOrFail(GetParam());
  ASSERT_TRUE(image);
  std::set<std::pair<std::string, uint64_t>> truth;
  for (const ElfRelocation &relocation : elfRelocations(GetParam()))
    if ((relocation.type == "R_X86_64_JUMP_SLOT" || relocation.type == "R_X86_64_GLOB_DAT") &&
        !relocation.symbol.empty())
      truth.emplace(relocation.symbol, relocation.offset);
  std::set<std::pair<std::string, uint64_t>> loaded;
  for (const Import &import : image->imports()) {
    loaded.emplace(import.name, import.slotAddress);
    EXPECT_EQ(image->importAtSlot(import.slotAddress), &import);
    EXPECT_TRUE(import.library.empty());
  }
  EXPECT_EQ(loaded, truth);
}

TEST_P(ElfImageTest, PltStubsMatchGnuObjdump) {
  auto image = loadOrFail(GetParam());
  ASSERT_TRUE(image);
  auto truth = pltStubs(GetParam());
  ASSERT_FALSE(truth.empty());
  for (const auto &[name, address] : truth) {
    // A symbol may have two slots (lld: GLOB_DAT and JUMP_SLOT); the stub uses one of them.
    const Import *import = image->importAtStub(address);
    ASSERT_TRUE(import) << name << " has no stub at " << std::hex << address;
    EXPECT_EQ(import->name, name);
  }
  for (const Import &import : image->imports()) {
    if (import.stubAddress) {
      EXPECT_TRUE(truth.count(import.name)) << import.name << " has a stub objdump does not see";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Binaries, ElfImageTest, testing::ValuesIn(allElfBinaries),
                         testNameOfBinary);

class ElfProgramTest : public testing::TestWithParam<const char *> {};

TEST_P(ElfProgramTest, PutsAndPrintfHavePltStubs) {
  auto image = loadOrFail(GetParam());
  ASSERT_TRUE(image);
  for (const char *name : {"puts", "printf"}) {
    const Import *import = importNamed(*image, name);
    ASSERT_TRUE(import) << name;
    ASSERT_TRUE(import->stubAddress) << name;
    EXPECT_TRUE(image->isExecutable(*import->stubAddress));
    EXPECT_EQ(image->importAtStub(*import->stubAddress), import);
  }
}

TEST_P(ElfProgramTest, KnownSymbolsHaveTheirKindsAndNames) {
  auto image = loadOrFail(GetParam());
  ASSERT_TRUE(image);
  std::map<std::string, uint64_t> truth;
  for (const NmSymbol &symbol : nmSymbols(GetParam()))
    truth.emplace(symbol.name, symbol.address);
  for (const char *name : {"main", "square", "counter", "greeting"}) {
    ASSERT_TRUE(truth.count(name)) << name;
    EXPECT_EQ(image->lookupSymbol(name), truth[name]) << name;
  }
  EXPECT_EQ(image->nameAt(truth["main"]), "main");
  EXPECT_EQ(image->nameAt(truth["square"]), "square");
  for (const Symbol &symbol : image->symbols()) {
    if (symbol.name == "main" || symbol.name == "square") {
      EXPECT_EQ(symbol.kind, Symbol::Kind::Function);
    }
    if (symbol.name == "counter" || symbol.name == "greeting") {
      EXPECT_EQ(symbol.kind, Symbol::Kind::Object);
    }
  }
}

TEST_P(ElfProgramTest, BytesAtReadsTheFileAndReadZeroFillsBss) {
  auto image = loadOrFail(GetParam());
  ASSERT_TRUE(image);
  auto greeting = image->lookupSymbol("greeting");
  ASSERT_TRUE(greeting);
  char text[17] = {};
  ASSERT_TRUE(image->read(*greeting, text, 16));
  EXPECT_STREQ(text, "hello from hoist");
  llvm::ArrayRef<uint8_t> bytes = image->bytesAt(*greeting);
  ASSERT_GE(bytes.size(), 17u);
  EXPECT_EQ(bytes[16], 0);

  const Section *bss = sectionNamed(*image, ".bss");
  ASSERT_TRUE(bss);
  uint32_t zero = 1;
  EXPECT_TRUE(image->read(bss->address, &zero, sizeof zero));
  EXPECT_EQ(zero, 0u);
  EXPECT_TRUE(image->bytesAt(bss->address).empty()) << "no file bytes behind .bss";

  uint64_t end = 0;
  for (const Section &section : image->sections())
    if (section.mapped)
      end = std::max(end, section.address + section.size);
  EXPECT_TRUE(image->read(end - 4, &zero, sizeof zero));
  EXPECT_FALSE(image->read(end - 2, &zero, sizeof zero)) << "a read past the last section fails";
}

INSTANTIATE_TEST_SUITE_P(Binaries, ElfProgramTest, testing::ValuesIn(elfPrograms),
                         testNameOfBinary);

TEST(ElfKindTest, ExecutableIsNotPositionIndependent) {
  auto image = loadOrFail(elfExecutable);
  ASSERT_TRUE(image);
  EXPECT_FALSE(image->isPositionIndependent());
  EXPECT_FALSE(image->isLibrary());
  EXPECT_EQ(image->kindDescription(), "ELF executable");
  EXPECT_EQ(image->imageBase(), 0x400000u);
}

TEST(ElfKindTest, PieIsPositionIndependentExecutable) {
  auto image = loadOrFail(elfPie);
  ASSERT_TRUE(image);
  EXPECT_TRUE(image->isPositionIndependent());
  EXPECT_FALSE(image->isLibrary());
  EXPECT_EQ(image->kindDescription(), "ELF PIE");
  EXPECT_EQ(image->imageBase(), 0u);
}

TEST(ElfKindTest, SharedObjectIsLibraryWithExports) {
  auto image = loadOrFail(elfLibrary);
  ASSERT_TRUE(image);
  EXPECT_TRUE(image->isPositionIndependent());
  EXPECT_TRUE(image->isLibrary());
  EXPECT_EQ(image->kindDescription(), "ELF shared object");
  std::map<std::string, uint64_t> truth;
  for (const NmSymbol &symbol : nmSymbols(elfLibrary, /*dynamic=*/true))
    truth.emplace(symbol.name, symbol.address);
  std::map<std::string, uint64_t> exports;
  for (const Export &exported : image->exports()) {
    EXPECT_TRUE(exported.forwarder.empty());
    exports.emplace(exported.name, exported.address);
  }
  EXPECT_EQ(exports, truth);
  for (const char *name : {"library_add", "library_hello", "library_counter"})
    EXPECT_TRUE(exports.count(name)) << name;
  const Import *puts = importNamed(*image, "puts");
  ASSERT_TRUE(puts);
  EXPECT_TRUE(puts->stubAddress);
}

TEST(ElfKindTest, IbtPieStubsAreInPltSec) {
  auto image = loadOrFail(elfPieIbt);
  ASSERT_TRUE(image);
  const Section *pltSec = sectionNamed(*image, ".plt.sec");
  ASSERT_TRUE(pltSec) << "the IBT build lost its .plt.sec; check the linker flags";
  const Import *puts = importNamed(*image, "puts");
  ASSERT_TRUE(puts && puts->stubAddress);
  EXPECT_EQ(image->sectionAt(*puts->stubAddress), pltSec);
}

} // namespace
} // namespace hoist
