// What `hoist lift` does, as one call: choose the functions, discover the program's control
// flow, lift (statically, or concolically with `deobfuscate`), brighten, optimize. The result
// is a verified module; what went wrong on the way is in the DiagnosticSink, what makes the
// whole request fail (an unknown function, a brightening that cannot start) is the Error.
// docs/API.md has a complete example.
#pragma once

#include "hoist/Diagnostics.h"
#include "hoist/Image.h"
#include "hoist/Lifter.h"
#include "hoist/Optimize.h"
#include "hoist/Options.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hoist {

/// Which calling convention brightening gives the functions (docs/BRIGHTEN.md).
enum class Brightening { None, FromFormat, SysV, Win64 };

struct LiftRequest {
  /// Entries to lift; empty (and not `all`): `main` where a symbol names it, else the entry
  /// point. resolveFunction() turns a name or "0x..." into an entry.
  std::vector<uint64_t> functions = {};
  bool all = false;        ///< every function program discovery finds
  bool callees = true;     ///< also lift what lifted code calls, transitively
  unsigned optLevel = 0;   ///< 0 to 3 (include/hoist/Optimize.h)
  Brightening brighten = Brightening::None;
  /// The deobfuscation of `hoist lift --deobfuscate` with its default options: `functions`
  /// lifted concolically, then the MBA, opaque-predicate and unflattening passes in every
  /// optimization round (docs/DEOBFUSCATE.md).
  bool deobfuscate = false;
  /// The caller's own function passes, run first in every round of the optimization's
  /// fixpoint (and of brightening's), after deobfuscation's: OptimizeOptions::roundPasses.
  std::vector<AddPasses> roundPasses = {};
  LiftOptions lift;        ///< budgets, the deadline, the verifier
};

struct LiftedProgram {
  std::unique_ptr<llvm::Module> module;
  LiftStats stats;
};

/// A function given as a symbol name or a "0x..." address, as `--function` takes it.
llvm::Expected<uint64_t> resolveFunction(const Image &image, llvm::StringRef spec);

/// Each of `specs` resolved as resolveFunction does, in order.
llvm::Expected<std::vector<uint64_t>> resolveFunctions(const Image &image,
                                                       const std::vector<std::string> &specs);

/// What a request that names no function takes: main, by its symbol or, in a stripped ELF
/// program, as the first argument the entry point's code passes to __libc_start_main (glibc's
/// `_start`, musl's `_start` -> `_start_c`); else the entry point.
struct DefaultFunction {
  uint64_t address = 0;
  bool bySymbol = false;   ///< a symbol names it main
  std::string how;         ///< for the user: "main at 0x1070, the first argument ..."
};
DefaultFunction defaultFunction(const Image &image);

/// The entries a request lifts first: its own, else defaultFunction's; each must be in an
/// executable section.
llvm::Expected<std::vector<uint64_t>> requestedFunctions(const Image &image,
                                                         const std::vector<uint64_t> &functions,
                                                         bool all);

/// Lifts what `request` asks for into a new module of `context`.
llvm::Expected<LiftedProgram> liftProgram(const Image &image, llvm::LLVMContext &context,
                                          const LiftRequest &request,
                                          DiagnosticSink &diagnostics);

} // namespace hoist
