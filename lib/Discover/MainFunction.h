// Where a stripped program's `main` is: the C runtime's startup code hands it to the C
// library's `__libc_start_main` as the first argument.
#pragma once

#include "Discover/InstructionCache.h"
#include "hoist/Image.h"

#include <optional>
#include <string>

namespace hoist {

struct MainFunction {
  uint64_t address = 0;
  bool bySymbol = false;   ///< a symbol names it main
  /// How it was found, for the user: "the symbol main", "the first argument _start passes to
  /// __libc_start_main".
  std::string how;
  /// Where main was found as __libc_start_main's argument: the start files' own init and fini
  /// (`__libc_csu_init`, `__libc_csu_fini`), which an older glibc's `_start` passes too (its
  /// fourth and fifth arguments; a newer one passes none).
  std::optional<uint64_t> startFilesInit, startFilesFini;
};

/// `main` by its symbol; else, in an ELF program, the first argument of the call (or tail
/// call) of `__libc_start_main` in the entry point's straight-line code or in a function it
/// calls directly (glibc's `_start` loads it with `lea rdi, [rip+main]` or `mov rdi, offset
/// main`; musl's `_start` calls `_start_c`, which passes it on). Nothing when neither shows it
/// (a PE's C runtime calls main after its initialization, which this does not follow).
std::optional<MainFunction> findMainFunction(const Image &image, InstructionCache &cache);

} // namespace hoist
