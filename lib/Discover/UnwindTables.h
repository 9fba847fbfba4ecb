// Function starts recorded by the unwinding tables: ELF .eh_frame FDEs, PE .pdata entries.
#pragma once

#include "hoist/Image.h"

#include <llvm/Support/Error.h>

#include <vector>

namespace hoist {

struct CodeRange {
  uint64_t start = 0;
  uint64_t size = 0;
  /// The stack at `start` is not a called function's (the CFA is not rsp+8 there): the range
  /// continues a frame set up elsewhere, as a part of a function that the compiler moved away
  /// (gcc's `f.cold`, entered by a jump from the middle of `f`) does.
  bool continuesFrame = false;
};

/// The code range of every FDE in .eh_frame (parsed with LLVM's DWARF library); empty when the
/// image has no .eh_frame.
llvm::Expected<std::vector<CodeRange>> ehFrameFunctionRanges(const Image &image);

/// The range of every RUNTIME_FUNCTION in .pdata whose unwind info is not chained to another
/// entry (chained entries describe a later part of a function, not its start).
llvm::Expected<std::vector<CodeRange>> pdataFunctionRanges(const Image &image);

} // namespace hoist
