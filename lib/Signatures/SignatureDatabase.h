// The signatures of statically linked library functions (docs/SIGNATURES.md), as generated at
// build time from Debian's static libraries (GenerateSignatures.cpp) and embedded in Hoist.
// Functions are found by their first bytes: an index keyed by a hash of the first run of
// unmasked bytes (at most PrefixBytes) answers with the few functions to compare in full.
#pragma once

#include "Signatures/SignatureFormat.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace hoist {

class SignatureDatabase {
public:
  /// Bytes hashed for the index at most: enough to tell most functions apart, few enough
  /// that a relocation rarely cuts them shorter.
  static constexpr unsigned PrefixBytes = 16;

  /// Reads a database; the bytes must outlive it. A malformed one is an Error.
  static llvm::Expected<SignatureDatabase> fromBytes(llvm::ArrayRef<uint8_t> bytes);
  /// The database built into Hoist (empty when the build found no static library).
  static const SignatureDatabase &builtIn();

  size_t size() const { return functions_.size(); }
  const signatures::FunctionRecord &function(uint32_t index) const { return functions_[index]; }
  llvm::StringRef name(const signatures::FunctionRecord &function, uint32_t i) const;
  llvm::StringRef library(const signatures::FunctionRecord &function) const;
  llvm::ArrayRef<signatures::RelocationRecord>
  relocations(const signatures::FunctionRecord &function) const;
  llvm::StringRef string(uint32_t offset) const;
  /// Bytes of the function not covered by a relocation (counted when the database loads).
  uint32_t fixedBytes(uint32_t index) const { return fixedBytes_[index]; }
  /// The expected bytes of read-only data a relocation reaches (empty when none recorded).
  llvm::ArrayRef<uint8_t> data(const signatures::RelocationRecord &relocation) const {
    return code_.slice(relocation.data, relocation.dataLength);
  }

  /// The functions whose bytes, relocated bytes aside, are the first bytes of `code`.
  void matches(llvm::ArrayRef<uint8_t> code, llvm::SmallVectorImpl<uint32_t> &out) const;

private:
  SignatureDatabase() = default;
  bool sameBytes(const signatures::FunctionRecord &function, llvm::ArrayRef<uint8_t> code) const;
  std::vector<bool> maskedBytes(const signatures::FunctionRecord &function) const;
  /// (start, length) of the bytes the function is indexed by: its first unmasked run.
  std::optional<std::pair<unsigned, unsigned>>
  indexWindow(const signatures::FunctionRecord &function) const;

  llvm::ArrayRef<signatures::LibraryRecord> libraries_;
  llvm::ArrayRef<signatures::FunctionRecord> functions_;
  llvm::ArrayRef<signatures::NameRecord> names_;
  llvm::ArrayRef<signatures::RelocationRecord> relocations_;
  llvm::ArrayRef<char> strings_;
  llvm::ArrayRef<uint8_t> code_;
  /// (hash of the index window, function), sorted; `windows_` the distinct windows.
  std::vector<std::pair<uint64_t, uint32_t>> index_;
  std::vector<std::pair<unsigned, unsigned>> windows_;
  std::vector<uint32_t> fixedBytes_;   ///< by function
};

} // namespace hoist
