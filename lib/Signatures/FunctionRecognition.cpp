#include "Signatures/FunctionRecognition.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringSet.h>

#include <algorithm>
#include <cstring>
#include <set>

namespace hoist {

using namespace signatures;

namespace {

/// The name a function is shown under among its aliases: the one with the fewest leading
/// underscores, then the shortest (`malloc` over `__libc_malloc`, `puts` over `_IO_puts`).
bool preferredName(llvm::StringRef a, llvm::StringRef b) {
  size_t ua = a.size() - a.ltrim('_').size(), ub = b.size() - b.ltrim('_').size();
  if (ua != ub)
    return ua < ub;
  if (a.size() != b.size())
    return a.size() < b.size();
  return a < b;
}

using Candidates = std::map<uint64_t, llvm::SmallVector<uint32_t, 2>>;

bool hasName(const SignatureDatabase &database, const FunctionRecord &function,
             llvm::StringRef name) {
  for (uint32_t i = 0; i < function.nameCount; ++i)
    if (database.name(function, i) == name)
      return true;
  return false;
}

/// False when what `function`, placed at `entry`, reaches through a PC-relative reference is
/// not what the library's reference reaches: a function whose every remaining signature has
/// another name, or read-only data with other bytes. With `confirmed`, also false unless
/// there is such a reference and each reaches a function every remaining signature of which
/// has the name, or the data.
bool referencesAgree(const Image &image, const SignatureDatabase &database,
                     const FunctionRecord &function, uint64_t entry, const Candidates &candidates,
                     bool confirmed) {
  bool any = false;
  for (const RelocationRecord &relocation : database.relocations(function)) {
    if (relocation.callee == NoString && relocation.dataLength == 0)
      continue;   // a TLS offset, an absolute address: nothing to compare
    any = true;
    int32_t displacement = 0;
    if (!image.read(entry + relocation.field, &displacement, sizeof displacement))
      return false;
    // The field ends its instruction: the CPU adds it to the field's end.
    uint64_t target = entry + relocation.field + 4 + int64_t(displacement);
    if (relocation.dataLength) {
      llvm::ArrayRef<uint8_t> expected = database.data(relocation);
      llvm::SmallVector<uint8_t, 16> actual(expected.size());
      if (!image.read(target, actual.data(), actual.size()) ||
          !std::equal(expected.begin(), expected.end(), actual.begin()))
        return false;
      continue;
    }
    auto there = candidates.find(target);
    if (there == candidates.end()) {
      if (confirmed)
        return false;
      continue;   // a function no signature matched (an IFUNC's PLT stub): no evidence
    }
    llvm::StringRef callee = database.string(relocation.callee);
    auto named = [&](uint32_t index) {
      return hasName(database, database.function(index), callee);
    };
    if (confirmed ? !llvm::all_of(there->second, named) : !llvm::any_of(there->second, named))
      return false;
  }
  return !confirmed || any;
}

Recognition describe(const SignatureDatabase &database, llvm::ArrayRef<uint32_t> matched) {
  Recognition recognition;
  // The names every remaining signature has: one function under several aliases.
  llvm::SmallVector<llvm::StringRef, 4> common;
  const FunctionRecord &first = database.function(matched.front());
  for (uint32_t i = 0; i < first.nameCount; ++i) {
    llvm::StringRef name = database.name(first, i);
    if (llvm::all_of(matched, [&](uint32_t index) {
          return hasName(database, database.function(index), name);
        }))
      common.push_back(name);
  }
  std::set<std::string> candidates;
  for (uint32_t index : matched) {
    const FunctionRecord &function = database.function(index);
    llvm::StringRef best = database.name(function, 0);
    for (uint32_t i = 1; i < function.nameCount; ++i)
      if (preferredName(database.name(function, i), best))
        best = database.name(function, i);
    candidates.insert(best.str());
    recognition.indirect |= (function.flags & IndirectFunction) != 0;
  }
  recognition.candidates.assign(candidates.begin(), candidates.end());
  if (common.empty())
    return recognition;
  recognition.name = *std::min_element(common.begin(), common.end(), preferredName);
  if (!llvm::is_contained(recognition.candidates, recognition.name))
    recognition.candidates = {recognition.name};
  recognition.library = database.library(first).str();
  recognition.localOnly = llvm::all_of(matched, [&](uint32_t index) {
    return (database.function(index).flags & LocalOnly) != 0;
  });
  return recognition;
}

} // namespace

std::map<uint64_t, Recognition> recognizeFunctions(const Image &image,
                                                   const SignatureDatabase &database,
                                                   llvm::ArrayRef<uint64_t> entries) {
  Candidates candidates;
  for (uint64_t entry : entries) {
    if (!image.isExecutable(entry))
      continue;
    llvm::ArrayRef<uint8_t> code = image.bytesAt(entry);
    llvm::SmallVector<uint32_t, 4> matched;
    database.matches(code, matched);
    if (!matched.empty())
      candidates[entry].assign(matched.begin(), matched.end());
  }

  // What a reference is checked against: every strong signature left at its target, and the
  // short ones whose own references are confirmed (a `ret` alone is evidence of nothing).
  auto isWeak = [&](uint32_t index) {
    return database.fixedBytes(index) < MinimumFixedBytes;
  };
  Candidates evidence;
  for (const auto &[entry, matched] : candidates)
    for (uint32_t index : matched)
      if (!isWeak(index))
        evidence[entry].push_back(index);

  // Rounds until nothing changes. Refuting only removes signatures, but a short signature's
  // confirmation can come and go with its callee's, so the rounds are also bounded.
  constexpr unsigned MaximumRounds = 64;
  for (unsigned round = 0; round < MaximumRounds; ++round) {
    Candidates kept, confirmed;
    for (const auto &[entry, matched] : candidates)
      for (uint32_t index : matched) {
        const FunctionRecord &function = database.function(index);
        if (!referencesAgree(image, database, function, entry, evidence, false))
          continue;
        kept[entry].push_back(index);
        if (!isWeak(index) ||
            referencesAgree(image, database, function, entry, evidence, true))
          confirmed[entry].push_back(index);
      }
    bool changed = kept != candidates || confirmed != evidence;
    candidates = std::move(kept);
    evidence = std::move(confirmed);
    if (!changed)
      break;
  }

  std::map<uint64_t, Recognition> recognized;
  for (const auto &[entry, matched] : evidence)
    recognized.emplace(entry, describe(database, matched));
  return recognized;
}

} // namespace hoist
