// PE32+ executables and DLLs built by mingw, checked against llvm-readobj and llvm-nm.
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

class PeImageTest : public testing::TestWithParam<const char *> {};

const char *const peBinaries[] = {peExecutable, peDll};

TEST_P(PeImageTest, HeaderFieldsMatchReadobj) {
  auto image = loadOrFail(GetParam());
  ASSERT_TRUE(image);
  auto base = readobjField(GetParam(), "--file-headers", "ImageBase");
  auto entry = readobjField(GetParam(), "--file-headers", "AddressOfEntryPoint");
  ASSERT_TRUE(base && entry);
  EXPECT_EQ(image->format(), ImageFormat::Pe);
  EXPECT_EQ(image->imageBase(), *base);
  EXPECT_EQ(image->entryPoint(), *base + *entry);
}

TEST_P(PeImageTest, SectionsAreAtImageBasePlusRva) {
  auto image = loadOrFail(GetParam());
  ASSERT_TRUE(image);
  auto truth = objdumpSections(GetParam());
  ASSERT_EQ(image->sections().size(), truth.size());
  for (size_t i = 0; i < truth.size(); ++i) {
    const Section &section = image->sections()[i];
    EXPECT_EQ(section.name, truth[i].name);
    EXPECT_EQ(section.address, truth[i].address) << section.name;
    EXPECT_TRUE(section.mapped);
  }
  const Section *text = sectionNamed(*image, ".text");
  const Section *data = sectionNamed(*image, ".data");
  const Section *rdata = sectionNamed(*image, ".rdata");
  ASSERT_TRUE(text && data && rdata);
  EXPECT_TRUE(text->readable && !text->writable && text->executable);
  EXPECT_TRUE(data->readable && data->writable && !data->executable);
  EXPECT_TRUE(rdata->readable && !rdata->writable && !rdata->executable);
}

TEST_P(PeImageTest, ImportsAreOneSlotPerIatEntry) {
  auto image = loadOrFail(GetParam());
  ASSERT_TRUE(image);
  std::vector<std::tuple<std::string, std::string, uint64_t>> truth, loaded;
  for (const CoffImportTable &table : coffImports(GetParam()))
    for (size_t i = 0; i < table.names.size(); ++i)
      truth.emplace_back(table.library, table.names[i],
                         image->imageBase() + table.addressTableRva + 8 * i);
  for (const Import &import : image->imports()) {
    loaded.emplace_back(import.library, import.name, import.slotAddress);
    EXPECT_EQ(image->importAtSlot(import.slotAddress), &import);
  }
  EXPECT_EQ(loaded, truth);
  EXPECT_FALSE(truth.empty());
}

TEST_P(PeImageTest, CoffSymbolsMatchNm) {
  auto image = loadOrFail(GetParam());
  ASSERT_TRUE(image);
  std::set<std::pair<std::string, uint64_t>> loaded;
  for (const Symbol &symbol : image->symbols()) {
    loaded.emplace(symbol.name, symbol.address);
    EXPECT_EQ(symbol.source, Symbol::Source::Coff);
  }
  size_t checked = 0;
  for (const NmSymbol &truth : nmSymbols(GetParam())) {
    // Section symbols (".text", ".bss", ...) are not symbols of code or data.
    if (truth.name.starts_with(".") || truth.type == 'A' || truth.type == 'a')
      continue;
    EXPECT_TRUE(loaded.count({truth.name, truth.address}))
        << truth.name << " at " << std::hex << truth.address;
    ++checked;
  }
  EXPECT_GT(checked, 20u);
}

INSTANTIATE_TEST_SUITE_P(Binaries, PeImageTest, testing::ValuesIn(peBinaries),
                         testNameOfBinary);

TEST(PeKindTest, ExecutableImportsFromTheDllKernel32AndMsvcrt) {
  auto image = loadOrFail(peExecutable);
  ASSERT_TRUE(image);
  EXPECT_FALSE(image->isLibrary());
  EXPECT_EQ(image->kindDescription(), "PE32+ executable");
  std::map<std::string, std::string> libraryOf = {{"library_add", "hoist_test.dll"},
                                                  {"library_twice", "hoist_test.dll"},
                                                  {"GetTickCount", "KERNEL32.dll"},
                                                  {"puts", "msvcrt.dll"}};
  for (const auto &[name, library] : libraryOf) {
    const Import *import = importNamed(*image, name);
    ASSERT_TRUE(import) << name;
    EXPECT_EQ(import->library, library);
    EXPECT_TRUE(image->sectionAt(import->slotAddress)) << name;
  }
}

TEST(PeKindTest, MingwImportThunksAreStubs) {
  auto image = loadOrFail(peExecutable);
  ASSERT_TRUE(image);
  // mingw names each thunk `jmp *__imp_<name>(%rip)` after the import.
  std::map<std::string, uint64_t> symbolAt;
  for (const NmSymbol &symbol : nmSymbols(peExecutable))
    symbolAt.emplace(symbol.name, symbol.address);
  for (const char *name : {"library_add", "GetTickCount"}) {
    const Import *import = importNamed(*image, name);
    ASSERT_TRUE(import && import->stubAddress) << name;
    EXPECT_EQ(*import->stubAddress, symbolAt[name]);
    EXPECT_EQ(symbolAt["__imp_" + std::string(name)], import->slotAddress);
    EXPECT_EQ(image->importAtStub(*import->stubAddress), import);
  }
}

TEST(PeKindTest, ProgramSymbolsResolve) {
  auto image = loadOrFail(peExecutable);
  ASSERT_TRUE(image);
  std::map<std::string, uint64_t> truth;
  for (const NmSymbol &symbol : nmSymbols(peExecutable))
    truth.emplace(symbol.name, symbol.address);
  for (const char *name : {"main", "square", "counter", "greeting"})
    EXPECT_EQ(image->lookupSymbol(name), truth[name]) << name;
  EXPECT_EQ(image->nameAt(truth["square"]), "square");
  EXPECT_TRUE(image->isExecutable(truth["main"]));
  char text[17] = {};
  ASSERT_TRUE(image->read(truth["greeting"], text, 16));
  EXPECT_STREQ(text, "hello from hoist");
}

TEST(PeKindTest, DllExportsAtTheirRvasWithForwarder) {
  auto image = loadOrFail(peDll);
  ASSERT_TRUE(image);
  EXPECT_TRUE(image->isLibrary());
  EXPECT_EQ(image->kindDescription(), "PE32+ DLL");
  auto truth = coffExports(peDll);
  ASSERT_EQ(image->exports().size(), truth.size());
  for (size_t i = 0; i < truth.size(); ++i) {
    const Export &exported = image->exports()[i];
    const CoffExport &expected = truth[i];
    EXPECT_EQ(exported.name, expected.name);
    if (expected.rva) {
      EXPECT_EQ(exported.address, image->imageBase() + *expected.rva) << exported.name;
      EXPECT_TRUE(exported.forwarder.empty());
    } else {
      EXPECT_EQ(exported.address, 0u);
      EXPECT_EQ(exported.forwarder, expected.forwardedTo);
    }
  }
  std::map<std::string, const Export *> byName;
  for (const Export &exported : image->exports())
    byName[exported.name] = &exported;
  ASSERT_TRUE(byName.count("library_ticks"));
  EXPECT_EQ(byName["library_ticks"]->forwarder, "KERNEL32.GetTickCount");
  for (const char *name : {"library_add", "library_twice", "library_counter"}) {
    ASSERT_TRUE(byName.count(name)) << name;
    EXPECT_EQ(image->lookupSymbol(name), byName[name]->address);
  }
  EXPECT_FALSE(image->lookupSymbol("library_ticks")) << "a forwarder has no address here";
  EXPECT_TRUE(image->isExecutable(byName["library_add"]->address));
}

} // namespace
} // namespace hoist
