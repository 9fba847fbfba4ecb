// Which functions' addresses a program may take: where a call through a pointer may reach
// them. Brightened code calls through a pointer with a fixed shape (emitPointerCall passes
// HandedOnStackSlots stack slots), so a function that reads more of its caller's stack may
// only be brightened where nothing but direct calls reach it.
#pragma once

#include <cstdint>
#include <map>
#include <set>

namespace llvm {
class Function;
}

namespace hoist {

class Image;

/// The entries of `lifted` (by original address) whose address the program may hold as a
/// value: a relocated pointer or (without relocations) a data word equal to it, a 32- or
/// 64-bit constant in any lifted function (a `lea`, an immediate, a pushed return address
/// that happens to be the next function's entry), or an export (dlsym, another module).
/// Over-approximates: an entry missing from it is reached by direct calls only.
std::set<uint64_t> takenCodeAddresses(const std::map<uint64_t, llvm::Function *> &lifted,
                                      const Image &image);

} // namespace hoist
