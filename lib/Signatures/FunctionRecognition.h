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
/// name anything by their bytes: they name a function only when every reference they make
/// is confirmed (it reaches a function recognized under the name the library's reaches, or
/// the same read-only data), so that `xor ecx, ecx; jmp ____strtol_l_internal` is
/// `__strtol_internal` and a program's own `jmp memcpy` stays unnamed.
inline constexpr uint32_t MinimumFixedBytes = 8;

/// Matches the function at each of `entries` against `database`; the map holds those with at
/// least one signature left after references have refuted what they could: a signature whose
/// call, jmp or lea of `f` lands on a function recognized as something other than `f`, or
/// whose read-only data differs from the program's there, is dropped.
std::map<uint64_t, Recognition> recognizeFunctions(const Image &image,
                                                   const SignatureDatabase &database,
                                                   llvm::ArrayRef<uint64_t> entries);

} // namespace hoist
