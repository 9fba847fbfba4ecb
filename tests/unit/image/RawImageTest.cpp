// Raw code blobs and the address queries every image answers the same way.
#include "hoist/Image.h"

#include <gtest/gtest.h>

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <cstring>

namespace hoist {
namespace {

const uint8_t code[] = {0x55, 0x48, 0x89, 0xe5, 0x31, 0xc0, 0x5d, 0xc3};

TEST(RawImageTest, FromRawBytesMapsOneExecutableSection) {
  auto image = Image::fromRawBytes(code, 0x1000, "blob");
  EXPECT_EQ(image->format(), ImageFormat::Raw);
  EXPECT_EQ(image->path(), "blob");
  EXPECT_EQ(image->kindDescription(), "raw code");
  ASSERT_EQ(image->sections().size(), 1u);
  const Section &raw = image->sections()[0];
  EXPECT_EQ(raw.name, ".raw");
  EXPECT_EQ(raw.address, 0x1000u);
  EXPECT_EQ(raw.size, sizeof code);
  EXPECT_TRUE(raw.readable && raw.executable && !raw.writable);
  EXPECT_EQ(image->entryPoint(), 0x1000u);
  EXPECT_EQ(image->imageBase(), 0x1000u);
}

TEST(RawImageTest, BytesAtRunsToTheEndOfTheSection) {
  auto image = Image::fromRawBytes(code, 0x1000);
  EXPECT_EQ(image->bytesAt(0x1000).size(), sizeof code);
  EXPECT_EQ(image->bytesAt(0x1007).size(), 1u);
  EXPECT_EQ(image->bytesAt(0x1007)[0], 0xc3);
  EXPECT_TRUE(image->bytesAt(0x1008).empty());
  EXPECT_TRUE(image->bytesAt(0xfff).empty());
  EXPECT_TRUE(image->isExecutable(0x1003));
  EXPECT_FALSE(image->isExecutable(0x1008));
  EXPECT_EQ(image->sectionAt(0x1008), nullptr);
}

TEST(RawImageTest, ReadFailsWhenAnyByteIsOutside) {
  auto image = Image::fromRawBytes(code, 0x1000);
  uint8_t buffer[8] = {};
  EXPECT_TRUE(image->read(0x1000, buffer, 8));
  EXPECT_EQ(0, std::memcmp(buffer, code, 8));
  EXPECT_FALSE(image->read(0x1001, buffer, 8));
  EXPECT_FALSE(image->read(0xfff, buffer, 2));
  EXPECT_TRUE(image->read(0x1003, buffer, 0));
}

TEST(RawImageTest, TopOfAddressSpaceDoesNotWrap) {
  uint64_t base = ~uint64_t(0) - sizeof code;
  auto image = Image::fromRawBytes(code, base);
  uint8_t byte = 0;
  EXPECT_TRUE(image->read(base + sizeof code - 1, &byte, 1));
  EXPECT_EQ(byte, 0xc3);
  uint8_t two[2];
  EXPECT_FALSE(image->read(base + sizeof code - 1, two, 2));
  EXPECT_TRUE(image->bytesAt(0).empty());
  // Bytes that would cross 2^64 are dropped rather than wrapped to address 0.
  auto clipped = Image::fromRawBytes(code, ~uint64_t(0) - 3);
  EXPECT_EQ(clipped->sections()[0].size, 3u);
  EXPECT_EQ(clipped->sectionAt(0), nullptr);
}

TEST(RawImageTest, EmptyBytesMapNothing) {
  auto image = Image::fromRawBytes({}, 0x1000);
  EXPECT_EQ(image->sectionAt(0x1000), nullptr);
  EXPECT_TRUE(image->bytesAt(0x1000).empty());
}

TEST(RawImageTest, LoadRawReadsTheFile) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("hoist-raw", "bin", path));
  {
    std::error_code error;
    llvm::raw_fd_ostream out(path, error);
    ASSERT_FALSE(error);
    out.write(reinterpret_cast<const char *>(code), sizeof code);
  }
  auto image = Image::loadRaw(path, 0x400000);
  ASSERT_TRUE(bool(image)) << llvm::toString(image.takeError());
  EXPECT_EQ((*image)->path(), path.str());
  EXPECT_EQ((*image)->bytesAt(0x400000).size(), sizeof code);
  llvm::sys::fs::remove(path);
}

TEST(RawImageTest, LoadRawRejectsEmptyAndMissingFilesByName) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("hoist-empty", "bin", path));
  auto empty = Image::loadRaw(path, 0x1000);
  ASSERT_FALSE(bool(empty));
  EXPECT_EQ(llvm::toString(empty.takeError()), (path + ": file is empty").str());
  llvm::sys::fs::remove(path);

  auto missing = Image::loadRaw("/nonexistent/hoist/blob.bin", 0x1000);
  ASSERT_FALSE(bool(missing));
  EXPECT_TRUE(llvm::StringRef(llvm::toString(missing.takeError()))
                  .starts_with("/nonexistent/hoist/blob.bin: "));
}

TEST(RawImageTest, LoadRawRejectsBaseThatWraps) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("hoist-raw", "bin", path));
  {
    std::error_code error;
    llvm::raw_fd_ostream out(path, error);
    out.write(reinterpret_cast<const char *>(code), sizeof code);
  }
  auto image = Image::loadRaw(path, ~uint64_t(0) - 2);
  ASSERT_FALSE(bool(image));
  EXPECT_NE(llvm::toString(image.takeError()).find("address space"), std::string::npos);
  llvm::sys::fs::remove(path);
}

} // namespace
} // namespace hoist
