#include "Signatures/FunctionRecognition.h"
#include "TestDatabase.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

namespace hoist {
namespace {

using testing::readTestFile;
using testing::TestDatabase;

constexpr uint64_t Base = 0x1000;

TEST(FunctionRecognition, RenamedFunctionGivesBothCandidatesAndNoName) {
  TestDatabase test;
  llvm::Expected<SignatureDatabase> database = test.load();
  ASSERT_TRUE(bool(database)) << llvm::toString(database.takeError());
  std::vector<uint8_t> code = readTestFile("alpha.text");
  ASSERT_FALSE(code.empty());
  std::unique_ptr<Image> image = Image::fromRawBytes(code, Base);
  std::map<uint64_t, Recognition> recognized =
      recognizeFunctions(*image, *database, {Base});
  ASSERT_EQ(recognized.count(Base), 1u);
  EXPECT_EQ(recognized[Base].name, "");
  EXPECT_EQ(recognized[Base].candidates, (std::vector<std::string>{"alpha", "beta"}));
}

/// wrap_one's code at Base calling helper_one's at Base + 0x100.
std::vector<uint8_t> wrapperCallingHelper(const std::string &wrapper) {
  std::vector<uint8_t> wrap = readTestFile(wrapper + ".text");
  std::vector<uint8_t> helpers = readTestFile("helpers.text");
  if (wrap.empty() || helpers.empty() || wrap.size() > 0x100)
    return {};
  std::vector<uint8_t> code(0x100 + helpers.size(), 0xcc);
  std::copy(wrap.begin(), wrap.end(), code.begin());
  std::copy(helpers.begin(), helpers.end(), code.begin() + 0x100);
  auto call = std::find(code.begin(), code.begin() + wrap.size(), 0xe8);
  if (call == code.begin() + wrap.size())
    return {};
  size_t field = call - code.begin() + 1;
  int32_t displacement = int32_t(0x100 - (field + 4));
  std::memcpy(&code[field], &displacement, 4);
  return code;
}

TEST(FunctionRecognition, RecognizedCalleeDecidesBetweenEqualCallers) {
  TestDatabase test;
  llvm::Expected<SignatureDatabase> database = test.load();
  ASSERT_TRUE(bool(database)) << llvm::toString(database.takeError());
  std::vector<uint8_t> code = wrapperCallingHelper("wrap_one");
  ASSERT_FALSE(code.empty());
  std::unique_ptr<Image> image = Image::fromRawBytes(code, Base);
  // Without the callee, wrap_one and wrap_two are the same bytes.
  std::map<uint64_t, Recognition> alone = recognizeFunctions(*image, *database, {Base});
  ASSERT_EQ(alone.count(Base), 1u);
  EXPECT_EQ(alone[Base].name, "");
  EXPECT_EQ(alone[Base].candidates, (std::vector<std::string>{"wrap_one", "wrap_two"}));
  // With it recognized as helper_one, only wrap_one agrees.
  std::map<uint64_t, Recognition> recognized =
      recognizeFunctions(*image, *database, {Base, Base + 0x100});
  EXPECT_EQ(recognized[Base + 0x100].name, "helper_one");
  EXPECT_EQ(recognized[Base].name, "wrap_one");
  EXPECT_EQ(recognized[Base].library, "test wrap_one.o");
}

TEST(FunctionRecognition, CallerOfALibraryFunctionIsNotNamedAfterIt) {
  TestDatabase test;
  llvm::Expected<SignatureDatabase> database = test.load();
  ASSERT_TRUE(bool(database)) << llvm::toString(database.takeError());
  // The program's own function: different code around a call of helper_one at Base + 0x100.
  std::vector<uint8_t> code(0x100, 0xcc);
  const uint8_t own[] = {0x55, 0x48, 0x89, 0xe5, 0x83, 0xc7, 0x02, 0xe8, 0, 0, 0, 0, 0x5d, 0xc3};
  std::copy(std::begin(own), std::end(own), code.begin());
  int32_t displacement = int32_t(0x100 - 12);
  std::memcpy(&code[8], &displacement, 4);
  std::vector<uint8_t> helpers = readTestFile("helpers.text");
  code.insert(code.end(), helpers.begin(), helpers.end());
  std::unique_ptr<Image> image = Image::fromRawBytes(code, Base);
  std::map<uint64_t, Recognition> recognized =
      recognizeFunctions(*image, *database, {Base, Base + 0x100});
  EXPECT_EQ(recognized.count(Base), 0u);
  EXPECT_EQ(recognized[Base + 0x100].name, "helper_one");
}

/// greet_a's code at Base, its `lea rdi, [rip+string]` pointed at `text` placed at Base + 0x100.
std::vector<uint8_t> greeterWithString(const std::string &text) {
  std::vector<uint8_t> greet = readTestFile("greet_a.text");
  if (greet.empty() || greet.size() > 0x100)
    return {};
  std::vector<uint8_t> code(0x100, 0xcc);
  std::copy(greet.begin(), greet.end(), code.begin());
  code.insert(code.end(), text.begin(), text.end());
  code.push_back(0);
  const uint8_t lea[] = {0x48, 0x8d, 0x3d};
  auto at = std::search(code.begin(), code.begin() + greet.size(), std::begin(lea), std::end(lea));
  if (at == code.begin() + greet.size())
    return {};
  size_t field = at - code.begin() + 3;
  int32_t displacement = int32_t(0x100 - (field + 4));
  std::memcpy(&code[field], &displacement, 4);
  return code;
}

TEST(FunctionRecognition, ReferencedStringDecidesBetweenEqualCode) {
  TestDatabase test;
  llvm::Expected<SignatureDatabase> database = test.load();
  ASSERT_TRUE(bool(database)) << llvm::toString(database.takeError());
  for (auto [text, name] : {std::pair<std::string, std::string>{"hello from a", "greet_a"},
                            {"hello from b", "greet_b"}}) {
    std::vector<uint8_t> code = greeterWithString(text);
    ASSERT_FALSE(code.empty());
    std::unique_ptr<Image> image = Image::fromRawBytes(code, Base);
    std::map<uint64_t, Recognition> recognized = recognizeFunctions(*image, *database, {Base});
    EXPECT_EQ(recognized[Base].name, name) << text;
  }
  // Other data refutes both.
  std::vector<uint8_t> code = greeterWithString("hello from c");
  std::unique_ptr<Image> image = Image::fromRawBytes(code, Base);
  EXPECT_EQ(recognizeFunctions(*image, *database, {Base}).count(Base), 0u);
}

} // namespace
} // namespace hoist
