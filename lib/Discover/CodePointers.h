// Function-start candidates for binaries without symbols or unwinding tables: code addresses
// stored in data (`data_pointer`) and code addresses the code computes (`code_reference`).
// A candidate is only a guess; ProgramDiscovery accepts it under the precision policy of
// docs/CFG.md ("Code pointers").
#pragma once

#include "Discover/FunctionExplorer.h"
#include "hoist/Image.h"

#include <cstdint>
#include <set>

namespace hoist {

/// Whether `address` may start a function: in an executable section that is not a PLT, and
/// not an import's stub.
bool mayStartFunction(const Image &image, uint64_t address);

/// Whether the bytes at `address` are plainly data though they decode: two zero bytes
/// (`add [rax], al`), as in mingw's constructor lists, which live in .text.
bool startsWithZeroBytes(const Image &image, uint64_t address);

/// Code addresses stored in the image's data, by the strength of the evidence.
struct DataPointers {
  /// Pointers the image says are pointers: the addends of ELF R_X86_64_RELATIVE relocations,
  /// the slots of PE IMAGE_REL_BASED_DIR64 base relocations. In an image that can be moved
  /// (PIE, shared object, PE with base relocations) these are all there are.
  std::set<uint64_t> relocated;
  /// In an image that cannot be moved, every aligned 64-bit word of a mapped, non-executable
  /// section (.data, .rodata, .got, ...) whose value is such an address: a guess, since the
  /// entries of an absolute jump table are such words too. Unwinding, dynamic-linking and
  /// relocation tables themselves are not scanned.
  std::set<uint64_t> words;
};
DataPointers codePointersInData(const Image &image);

/// Code addresses the instructions of `function` compute: `lea reg, [rip+X]`, and in a
/// position-dependent ELF an immediate operand (`mov edi, 0x401136`). Addresses inside the
/// function's own extent (the lowest block start to the highest block end) are left out:
/// those are its labels (computed goto, a table inside .text), not other functions.
void collectCodeReferences(const Image &image, const ExploredFunction &function,
                           std::set<uint64_t> &out);

} // namespace hoist
