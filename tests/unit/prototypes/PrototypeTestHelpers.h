// What the prototype tables' tests compare entries with.
#pragma once

#include "Prototypes/LibraryPrototype.h"

#include <gtest/gtest.h>

namespace hoist::testing {

/// `*found`, or (after a failed expectation naming `what`) an empty entry, so that one
/// missing entry fails its test without crashing the others.
inline const LibraryPrototype &entryOrNone(const LibraryPrototype *found,
                                           const std::string &what) {
  EXPECT_NE(found, nullptr) << what;
  static const LibraryPrototype none{"", {}, nullptr, 0, 0};
  return found ? *found : none;
}

inline AbiType integer(uint16_t size) { return {AbiClass::Integer, size}; }
inline AbiType pointer(bool toConst) {
  return {AbiClass::Pointer, 8, Eightbyte::None, Eightbyte::None, toConst};
}

} // namespace hoist::testing
