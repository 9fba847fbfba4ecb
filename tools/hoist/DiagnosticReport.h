// The diagnostics of a run as the command line prints them on stderr: each in full while there
// are few; past a limit the warnings are summarised by code, and the full list is what
// --diagnostics FILE.json writes.
#pragma once

#include "hoist/Diagnostics.h"

#include <llvm/Support/raw_ostream.h>

namespace hoist {

/// How many warnings are printed one by one before they are summarised (--max-warnings).
inline constexpr unsigned DefaultMaxWarnings = 20;

/// Prints every note and error, and every warning when there are at most `maxWarnings` of
/// them; otherwise one line per warning code instead: how many, and the first addresses.
void printDiagnostics(const DiagnosticSink &diagnostics, unsigned maxWarnings,
                      llvm::raw_ostream &out);

/// 183950 -> "183,950": counts in messages people read.
std::string withThousands(uint64_t count);

} // namespace hoist
