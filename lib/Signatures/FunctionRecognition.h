// Recognizing statically linked library functions in a binary by their signatures
// (docs/SIGNATURES.md): runs after discovery, on the functions it found, and before lifting.
#pragma once

#include "Signatures/SignatureDatabase.h"
#include "hoist/Image.h"

#include <llvm/ADT/ArrayRef.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hoist {

/// A function discovery found: its entry and the end of its furthest instruction (0 when not
/// known). A signature shorter than the code discovery reached there is not that function.
struct DiscoveredExtent {
  uint64_t entry = 0;
  uint64_t end = 0;
};

struct Recognition {
  /// The library function's name when every signature left agrees on it; empty when several
  /// functions have these bytes (a collision: `candidates` lists them, none is chosen).
  std::string name;
  std::string library;                  ///< "glibc 2.36-9 libc.a": where `name` comes from
  std::vector<std::string> candidates;  ///< every name still possible, sorted
  /// The bytes are an IFUNC's resolver (it returns the implementation it chooses).
  bool indirect = false;
  /// `name` is a `static` function of the library, which no library exports.
  bool localOnly = false;
};

/// Signatures with fewer fixed bytes (a lone `jmp rel32` has one) match too much code to
/// name anything.
inline constexpr uint32_t MinimumFixedBytes = 8;

/// Matches every function of `functions` against `database`; the map holds those with at
/// least one signature left after references have refuted what they could: a signature whose
/// call, jmp or lea of `f` lands on a function recognized as something other than `f`, or
/// whose read-only data differs from the program's there, is dropped.
std::map<uint64_t, Recognition> recognizeFunctions(const Image &image,
                                                   const SignatureDatabase &database,
                                                   llvm::ArrayRef<DiscoveredExtent> functions);

} // namespace hoist
