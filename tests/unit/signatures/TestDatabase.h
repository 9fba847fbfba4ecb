// The test database and code built by CMakeLists.txt, read for the tests.
#pragma once

#include "Signatures/SignatureDatabase.h"

#include <llvm/Support/MemoryBuffer.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace hoist::testing {

/// A file's bytes in 8-byte aligned storage, as the database reader requires.
inline std::vector<uint8_t> readTestFile(const std::string &name) {
  auto buffer = llvm::MemoryBuffer::getFile(std::string(HOIST_SIGNATURE_TEST_DATA) + "/" + name);
  if (!buffer)
    return {};
  return std::vector<uint8_t>((*buffer)->getBufferStart(), (*buffer)->getBufferEnd());
}

/// Owns the database's bytes for as long as the test uses it.
struct TestDatabase {
  std::vector<uint64_t> storage;
  std::vector<uint8_t> bytes;

  llvm::Expected<SignatureDatabase> load(const std::string &name = "test.signatures") {
    bytes = readTestFile(name);
    storage.assign((bytes.size() + 7) / 8, 0);
    std::memcpy(storage.data(), bytes.data(), bytes.size());
    return SignatureDatabase::fromBytes(
        llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(storage.data()), bytes.size()));
  }
};

} // namespace hoist::testing
