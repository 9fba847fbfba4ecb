// Callees known never to return: the seeds of noreturn analysis.
#pragma once

#include "hoist/Image.h"

#include <llvm/ADT/StringRef.h>

#include <set>

namespace hoist {

/// exit, abort, __stack_chk_fail, ExitProcess, ... (with or without a leading underscore).
bool isKnownNoReturnName(llvm::StringRef name);

/// The addresses a call to a known noreturn function goes to: PLT stubs and import slots of
/// noreturn imports, and the addresses of noreturn function symbols.
std::set<uint64_t> knownNoReturnCallees(const Image &image);

/// error, error_at_line: they exit when their first argument, the exit status, is not zero
/// (glibc; coreutils' `die` is `error (status, ...)` with a constant status).
bool isNoReturnWhenStatusNonzeroName(llvm::StringRef name);

/// The addresses a call to such a function goes to, as for knownNoReturnCallees.
std::set<uint64_t> noReturnWhenStatusNonzeroCallees(const Image &image);

} // namespace hoist
