// Where functions start, before any code is read: the entry point, symbols, exports, the
// unwinding tables (.eh_frame, .pdata) and the ELF init/fini code. Registered with their reasons.
#pragma once

#include "Discover/Registry.h"
#include "Discover/UnwindTables.h"
#include "hoist/Image.h"

#include <set>
#include <vector>

namespace hoist {

class DiagnosticSink;

/// The code ranges the unwinding tables give, by start; a function with unwinding information
/// is known to end where its range does.
using UnwindRanges = std::map<uint64_t, uint64_t>;

/// Adds every function start the image records to `registry` and returns the unwind ranges.
/// The starts of the ranges whose stack is not a called function's (CodeRange::continuesFrame)
/// go to `continuingFrames`: they are more likely parts of a function than functions.
/// A malformed unwinding table is a warning (its starts are skipped), never an error: the other
/// sources still count.
UnwindRanges registerFunctionStarts(const Image &image, JumpTargetRegistry &registry,
                                    std::set<uint64_t> &continuingFrames,
                                    DiagnosticSink &diagnostics);

/// Whether `address` is inside (not at the start of) one of `ranges`, or at its start.
bool insideUnwindRange(const UnwindRanges &ranges, uint64_t address);

/// The words of an ELF .init_array or .fini_array `section`, as loaded (absolute in a non-PIE
/// file, relocated otherwise), in order and at most 4096 of them, without the 0 and -1 that
/// linkers leave as terminators and placeholders: the functions it has the C library call.
std::vector<uint64_t> initializerArrayEntries(const Image &image, const Section &section);

} // namespace hoist
