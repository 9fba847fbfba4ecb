// Imports known never to return: the seeds of noreturn analysis.
#pragma once

#include "hoist/Image.h"

#include <llvm/ADT/StringRef.h>

#include <set>

namespace hoist {

/// Whether the import `name` from `library` (a DLL; empty for ELF) never returns: its header
/// declares it noreturn (exit, abort, __stack_chk_fail, longjmp, err, ExitProcess, msvcrt's
/// _assert; lib/Prototypes). A symbol version is ignored (exit@GLIBC_2.2.5).
bool isKnownNoReturnImport(llvm::StringRef name, llvm::StringRef library);

/// isKnownNoReturnImport of an ELF import, which names no library.
bool isKnownNoReturnName(llvm::StringRef name);

/// The addresses a call to a known noreturn import goes to: its PLT stub and its import slot.
/// Functions the binary defines are not matched by name: whatever they are called, discovery
/// analyses their code.
std::set<uint64_t> knownNoReturnCallees(const Image &image);

/// error, error_at_line: they exit when their first argument, the exit status, is not zero
/// (glibc; coreutils' `die` is `error (status, ...)` with a constant status).
bool isNoReturnWhenStatusNonzeroName(llvm::StringRef name);

/// The addresses a call to such an import goes to, as for knownNoReturnCallees.
std::set<uint64_t> noReturnWhenStatusNonzeroCallees(const Image &image);

} // namespace hoist
