// What translation reads from an ELF program (segments, relocations, libraries, init and fini
// functions) and what it refuses, on the image tests' binaries (tests/unit/image/data).
#include "Translate/ElfProgram.h"
#include "Translate/Refusals.h"
#include "hoist/Translate.h"
#include "hoist/Image.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Support/MemoryBuffer.h>

#include <gtest/gtest.h>

#include <algorithm>

namespace hoist {
namespace {

struct Loaded {
  std::unique_ptr<Image> image;
  ElfProgram program;
};

Loaded load(const char *path, uint64_t bias) {
  Loaded loaded;
  auto image = Image::load(path, bias);
  if (!image) {
    ADD_FAILURE() << llvm::toString(image.takeError());
    return loaded;
  }
  loaded.image = std::move(*image);
  auto file = llvm::MemoryBuffer::getFile(path);
  EXPECT_TRUE(bool(file));
  auto program = readElfProgram((*file)->getBuffer(), bias);
  if (!program) {
    ADD_FAILURE() << llvm::toString(program.takeError());
    return loaded;
  }
  loaded.program = std::move(*program);
  return loaded;
}

const DynamicRelocation *relocationAt(const ElfProgram &program, uint64_t address) {
  for (const DynamicRelocation &relocation : program.relocations)
    if (relocation.address == address)
      return &relocation;
  return nullptr;
}

TEST(ElfProgram, PieSegmentsAndRelocationsAreMovedByTheBias) {
  Loaded pie = load(HOIST_TEST_ELF_PIE, TranslatedPieBase);
  ASSERT_TRUE(pie.image);
  ASSERT_FALSE(pie.program.segments.empty());
  for (const LoadSegment &segment : pie.program.segments) {
    EXPECT_GE(segment.address, TranslatedPieBase);
    EXPECT_LE(segment.fileSize, segment.memorySize);
  }
  EXPECT_TRUE(std::any_of(pie.program.segments.begin(), pie.program.segments.end(),
                          [](const LoadSegment &s) { return s.executable && !s.writable; }));
  // A PIE's init array holds frame_dummy through a RELATIVE relocation: its value is the
  // function's address at the bias, in the biased image's code.
  ASSERT_GT(pie.program.initCount, 0u);
  std::optional<uint64_t> init = pie.program.relocatedPointerAt(pie.program.initArray);
  ASSERT_TRUE(init);
  EXPECT_TRUE(pie.image->isExecutable(*init));
  for (const DynamicRelocation &relocation : pie.program.relocations) {
    if (relocation.type == llvm::ELF::R_X86_64_RELATIVE) {
      EXPECT_NE(pie.image->sectionAt(relocation.value), nullptr)
          << "RELATIVE value outside the biased image: " << relocation.value;
    }
  }
}

TEST(ElfProgram, ImportSlotsAreLibrarySymbolsWithTheirVersion) {
  for (auto [path, bias] : {std::pair{HOIST_TEST_ELF_EXECUTABLE, uint64_t(0)},
                            std::pair{HOIST_TEST_ELF_PIE, TranslatedPieBase}}) {
    SCOPED_TRACE(path);
    Loaded loaded = load(path, bias);
    ASSERT_TRUE(loaded.image);
    const Import *puts = nullptr;
    for (const Import &import : loaded.image->imports())
      if (import.name == "puts")
        puts = &import;
    ASSERT_NE(puts, nullptr);
    const DynamicRelocation *slot = relocationAt(loaded.program, puts->slotAddress);
    ASSERT_NE(slot, nullptr);
    EXPECT_EQ(slot->kind, DynamicRelocation::Kind::Symbol);
    EXPECT_EQ(slot->symbol, "puts");
    EXPECT_EQ(slot->version, "GLIBC_2.2.5");
    EXPECT_EQ(slot->value, 0u);
    // The runtime fills puts's slot at start or the program does not start; the weak
    // __gmon_start__ (no library defines it) stays 0, so a call through it is checked.
    EXPECT_TRUE(loaded.program.filledBeforeStart(puts->slotAddress));
    bool sawWeak = false;
    for (const DynamicRelocation &relocation : loaded.program.relocations)
      if (relocation.symbol == "__gmon_start__") {
        sawWeak = true;
        EXPECT_TRUE(relocation.weak);
        EXPECT_FALSE(loaded.program.filledBeforeStart(relocation.address));
      }
    EXPECT_TRUE(sawWeak);
    EXPECT_NE(std::find(loaded.program.neededLibraries.begin(),
                        loaded.program.neededLibraries.end(), "libc.so.6"),
              loaded.program.neededLibraries.end());
    EXPECT_TRUE(loaded.program.hasInterpreter);
    EXPECT_FALSE(loaded.program.threadLocal.has_value());
    EXPECT_TRUE(unusableInput(*loaded.image, loaded.program).empty());
    EXPECT_TRUE(unsupportedFeatures(*loaded.image, loaded.program).empty());
  }
}

TEST(ElfProgram, ASharedObjectIsRefused) {
  Loaded library = load(HOIST_TEST_ELF_LIBRARY, 0);
  ASSERT_TRUE(library.image);
  std::vector<Refusal> refusals = unusableInput(*library.image, library.program);
  ASSERT_EQ(refusals.size(), 1u);
  EXPECT_EQ(refusals[0].code, "library");
}

} // namespace
} // namespace hoist
