// A position-independent image loaded with a bias reports every address moved by it, and the
// bytes at the moved addresses are the bytes at the link-time ones.
#include "TestBinaries.h"

#include "hoist/Image.h"

#include <gtest/gtest.h>

namespace hoist {
namespace {

using namespace hoist::test;

constexpr uint64_t Bias = 0x100000000000;

std::unique_ptr<Image> loadOrFail(const char *path, uint64_t bias) {
  auto image = Image::load(path, bias);
  if (!image) {
    ADD_FAILURE() << llvm::toString(image.takeError());
    return nullptr;
  }
  return std::move(*image);
}

TEST(LoadBias, MovesEveryAddressOfAPie) {
  auto linked = loadOrFail(elfPie, 0);
  auto moved = loadOrFail(elfPie, Bias);
  ASSERT_TRUE(linked && moved);
  EXPECT_EQ(linked->loadBias(), 0u);
  EXPECT_EQ(moved->loadBias(), Bias);
  EXPECT_EQ(moved->entryPoint(), linked->entryPoint() + Bias);
  EXPECT_EQ(moved->imageBase(), linked->imageBase() + Bias);

  ASSERT_EQ(moved->sections().size(), linked->sections().size());
  for (size_t i = 0; i < linked->sections().size(); ++i) {
    const Section &before = linked->sections()[i], &after = moved->sections()[i];
    SCOPED_TRACE(before.name);
    EXPECT_EQ(after.address, before.mapped ? before.address + Bias : before.address);
    if (before.mapped && before.fileSize > 0) {
      EXPECT_EQ(moved->bytesAt(after.address), linked->bytesAt(before.address));
    }
  }

  std::optional<uint64_t> main = linked->lookupSymbol("main");
  ASSERT_TRUE(main);
  EXPECT_EQ(moved->lookupSymbol("main"), *main + Bias);
  EXPECT_EQ(moved->nameAt(*main + Bias), "main");
  EXPECT_TRUE(moved->isExecutable(*main + Bias));
  EXPECT_FALSE(moved->isExecutable(*main));

  ASSERT_FALSE(linked->imports().empty());
  ASSERT_EQ(moved->imports().size(), linked->imports().size());
  for (const Import &import : linked->imports()) {
    const Import *after = moved->importAtSlot(import.slotAddress + Bias);
    ASSERT_NE(after, nullptr) << import.name;
    EXPECT_EQ(after->name, import.name);
    if (import.stubAddress) {
      EXPECT_EQ(moved->importAtStub(*import.stubAddress + Bias), after);
    }
  }
}

TEST(LoadBias, RefusedForAnImageAtFixedAddresses) {
  auto image = Image::load(elfExecutable, Bias);
  ASSERT_FALSE(image);
  std::string message = llvm::toString(image.takeError());
  EXPECT_NE(message.find("needs a position-independent ELF image"), std::string::npos) << message;
}

TEST(LoadBias, RefusedWhenItWouldWrapTheAddressSpace) {
  auto image = Image::load(elfPie, ~uint64_t(0) - 0x1000);
  ASSERT_FALSE(image);
  EXPECT_NE(llvm::toString(image.takeError()).find("past the top of the address space"),
            std::string::npos);
}

} // namespace
} // namespace hoist
