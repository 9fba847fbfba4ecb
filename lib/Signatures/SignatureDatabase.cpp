#include "Signatures/SignatureDatabase.h"

#include "Support/Error.h"

#include <algorithm>
#include <cstring>
#include <set>

namespace hoist {

using namespace signatures;

namespace {

/// FNV-1a of the window's bytes, mixed with where the window is.
uint64_t prefixHash(llvm::ArrayRef<uint8_t> window, unsigned start) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (uint8_t byte : window)
    hash = (hash ^ byte) * 0x100000001b3ull;
  return hash ^ ((window.size() | uint64_t(start) << 8) * 0x9e3779b97f4a7c15ull);
}

/// Takes `count` records of T from `bytes` at `offset`, advancing it; false if they do not fit.
template <typename T>
bool take(llvm::ArrayRef<uint8_t> bytes, uint64_t &offset, uint64_t count, llvm::ArrayRef<T> &out) {
  uint64_t size = count * sizeof(T);
  if (count > bytes.size() || offset + size > bytes.size())
    return false;
  out = llvm::ArrayRef<T>(reinterpret_cast<const T *>(bytes.data() + offset), count);
  offset += size;
  return true;
}

} // namespace

llvm::Expected<SignatureDatabase> SignatureDatabase::fromBytes(llvm::ArrayRef<uint8_t> bytes) {
  auto malformed = [](const char *what) {
    return makeError("signature database: {0}", what);
  };
  if (reinterpret_cast<uintptr_t>(bytes.data()) % alignof(FunctionRecord) != 0)
    return malformed("not aligned");
  FileHeader header;
  if (bytes.size() < sizeof header)
    return malformed("shorter than its header");
  std::memcpy(&header, bytes.data(), sizeof header);
  if (std::memcmp(header.magic, FileMagic, sizeof FileMagic) != 0)
    return malformed("not a Hoist signature database of this version");
  SignatureDatabase database;
  uint64_t offset = sizeof header;
  if (!take(bytes, offset, header.libraries, database.libraries_) ||
      !take(bytes, offset, header.functions, database.functions_) ||
      !take(bytes, offset, header.names, database.names_) ||
      !take(bytes, offset, header.relocations, database.relocations_) ||
      !take(bytes, offset, header.stringBytes, database.strings_) ||
      !take(bytes, offset, header.codeBytes, database.code_))
    return malformed("truncated");
  if (!database.strings_.empty() && database.strings_.back() != '\0')
    return malformed("unterminated strings");
  auto validString = [&](uint32_t string) { return string < database.strings_.size(); };
  for (const LibraryRecord &library : database.libraries_)
    if (!validString(library.label))
      return malformed("a library label out of range");
  for (const NameRecord &name : database.names_)
    if (!validString(name.name))
      return malformed("a name out of range");
  for (const RelocationRecord &relocation : database.relocations_)
    if (relocation.maskBegin > relocation.maskEnd ||
        (relocation.callee != NoString && !validString(relocation.callee)) ||
        uint64_t(relocation.data) + relocation.dataLength > database.code_.size())
      return malformed("a relocation out of range");
  for (const FunctionRecord &function : database.functions_) {
    if (uint64_t(function.firstName) + function.nameCount > database.names_.size() ||
        function.nameCount == 0 || function.library >= database.libraries_.size() ||
        uint64_t(function.code) + function.length > database.code_.size() ||
        function.length == 0 ||
        uint64_t(function.firstRelocation) + function.relocationCount >
            database.relocations_.size())
      return malformed("a function out of range");
    for (const RelocationRecord &relocation : database.relocations(function))
      if (relocation.maskEnd > function.length || relocation.field + 4 > function.length)
        return malformed("a relocation outside its function");
  }

  // The index: each function under its first run of unmasked bytes (at most PrefixBytes),
  // which starts after any relocated bytes at its entry (`mov x@gottpoff(%rip), %rax`).
  database.index_.reserve(database.functions_.size());
  database.fixedBytes_.reserve(database.functions_.size());
  std::set<std::pair<unsigned, unsigned>> windows;
  for (uint32_t i = 0; i < database.functions_.size(); ++i) {
    const FunctionRecord &function = database.functions_[i];
    std::vector<bool> masked = database.maskedBytes(function);
    database.fixedBytes_.push_back(std::count(masked.begin(), masked.end(), false));
    std::optional<std::pair<unsigned, unsigned>> window = database.indexWindow(function);
    if (!window)
      continue;   // every byte is the linker's: nothing to look it up by
    auto [start, length] = *window;
    database.index_.emplace_back(
        prefixHash(database.code_.slice(function.code + start, length), start), i);
    windows.insert(*window);
  }
  std::sort(database.index_.begin(), database.index_.end());
  database.windows_.assign(windows.begin(), windows.end());
  return database;
}

llvm::StringRef SignatureDatabase::string(uint32_t offset) const {
  return llvm::StringRef(strings_.data() + offset);
}

llvm::StringRef SignatureDatabase::name(const FunctionRecord &function, uint32_t i) const {
  return string(names_[function.firstName + i].name);
}

llvm::StringRef SignatureDatabase::library(const FunctionRecord &function) const {
  return string(libraries_[function.library].label);
}

llvm::ArrayRef<RelocationRecord> SignatureDatabase::relocations(const FunctionRecord &function) const {
  return relocations_.slice(function.firstRelocation, function.relocationCount);
}

std::vector<bool> SignatureDatabase::maskedBytes(const FunctionRecord &function) const {
  std::vector<bool> masked(function.length);
  for (const RelocationRecord &relocation : relocations(function))
    std::fill(masked.begin() + relocation.maskBegin, masked.begin() + relocation.maskEnd, true);
  return masked;
}

std::optional<std::pair<unsigned, unsigned>>
SignatureDatabase::indexWindow(const FunctionRecord &function) const {
  std::vector<bool> masked = maskedBytes(function);
  auto first = std::find(masked.begin(), masked.end(), false);
  if (first == masked.end())
    return std::nullopt;
  unsigned start = first - masked.begin();
  auto stop = std::find(first, masked.end(), true);
  unsigned length = std::min<unsigned>(PrefixBytes, stop - first);
  return std::pair(start, length);
}

bool SignatureDatabase::sameBytes(const FunctionRecord &function,
                                  llvm::ArrayRef<uint8_t> code) const {
  if (code.size() < function.length)
    return false;
  llvm::ArrayRef<uint8_t> expected = code_.slice(function.code, function.length);
  // Compared in the gaps between masked ranges, which the generator wrote in address order.
  uint32_t from = 0;
  auto same = [&](uint32_t begin, uint32_t end) {
    return begin >= end || std::memcmp(expected.data() + begin, code.data() + begin, end - begin) == 0;
  };
  for (const RelocationRecord &relocation : relocations(function)) {
    if (relocation.maskBegin > from && !same(from, relocation.maskBegin))
      return false;
    from = std::max(from, relocation.maskEnd);
  }
  return same(from, function.length);
}

void SignatureDatabase::matches(llvm::ArrayRef<uint8_t> code,
                                llvm::SmallVectorImpl<uint32_t> &out) const {
  for (auto [start, length] : windows_) {
    if (start + length > code.size())
      continue;
    uint64_t hash = prefixHash(code.slice(start, length), start);
    auto range = std::equal_range(index_.begin(), index_.end(), std::pair(hash, 0u),
                                  [](const auto &a, const auto &b) { return a.first < b.first; });
    for (auto it = range.first; it != range.second; ++it)
      if (sameBytes(functions_[it->second], code))
        out.push_back(it->second);
  }
}

} // namespace hoist
