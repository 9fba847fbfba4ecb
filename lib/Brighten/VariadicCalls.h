// Calls of variadic library functions whose calls tell what they pass after the fixed
// parameters (the prototype table's flags, ImportPrototypes.h's VariadicRule):
// - a printf or scanf format as the last fixed parameter (`fprintf`, `__fprintf_chk`,
//   `error`, `sscanf`: PrintfFormat, ScanfFormat) passes what the format converts;
// - open and openat pass the mode, an int, when their flags have O_CREAT or O_TMPFILE;
//   fcntl passes one int or pointer unless its command takes none; ioctl passes one
//   (the manual pages' rules, stated in lib/Prototypes/VariadicAnnotations.h).
//
// A probe of the caller in which each such call reports its argument registers shows, after
// simplification, the last fixed argument each call passes: for a format, a constant string
// in the image or what a gettext call returned for a constant message (translations keep the
// conversions: gettext's msgfmt --check-format); for flags or a command, a constant or not
// (then the argument is passed: a function that does not read it ignores it). The arguments
// give the call its own signature (an int in the next integer register, a double in the next
// XMM register, the rest on the stack, as System V passes them), and the brightened call
// passes exactly those:
// `call i32 (ptr, i32, ptr, ...) @__fprintf_chk(ptr %stream, i32 1, ptr @.str, ptr %name,
// i32 %n)`, `call i32 (ptr, i32, ...) @open(ptr %path, i32 0)`. In SysV a call whose format is
// not known this way (built at run time, numbered `%1$s`, a long double), or that the probe
// did not report, passes every argument register and 8 stack slots (everyArgumentCall); in
// Win64 its caller declines with the reason.
#pragma once

#include "Brighten/CallShim.h"
#include "Brighten/CallingConvention.h"

#include <llvm/IR/Function.h>

#include <map>
#include <string>
#include <variant>

namespace hoist {

class Image;

/// For each call of a reporter in the simplified `probe` (InferredImports.h's
/// argumentReporters, standing for the variadic imports in `variadic`), by the call's address:
/// the import it calls, and the signature it passes or why that is not known.
std::map<uint64_t, std::pair<const llvm::Function *, std::variant<Signature, std::string>>>
readFormatReports(llvm::Function &probe, const KnownCallees &reporters,
                  const KnownCallees &variadic, const Image &image,
                  CallingConvention convention);

/// The signature of a call of a variadic function with the fixed parameters of `fixed` that
/// passes every argument register, XMM0-7 (AL = 8) and 8 stack slots, as a call through a
/// pointer does: right whatever the call passes, in SysV (a format built at run time, or a
/// call the caller's probe did not report).
std::variant<Signature, std::string> everyArgumentCall(const Signature &fixed,
                                                       CallingConvention convention);

/// The signature of a call of a variadic function with the fixed parameters of `fixed` that
/// passes `arguments` after them, or why it cannot (more than the stack slots brightening
/// passes).
std::variant<Signature, std::string>
variadicCallSignature(const Signature &fixed, const std::vector<FormatArgument> &arguments,
                      CallingConvention convention);

} // namespace hoist
