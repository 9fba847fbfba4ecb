// The brightened half of a recompiled program (`hoist recompile`, docs/TRANSLATE.md
// "Recompiled programs"): the functions brightening accepts, as native System V functions in a
// module of their own, made to live in the translated program's process. There the original
// image is mapped at its addresses and every function keeps its State form, so the native
// functions refer to that image instead of carrying its data, call the program's imports
// through its GOT slots (which the runtime fills, with its own functions for signal handlers,
// threads and non-local jumps), and name functions by their original entries (which the
// runtime patches into entries from native code); the State-form function of each is replaced
// by a bridge to it (defineBrightenedBridge).
#pragma once

#include "Translate/ElfProgram.h"
#include "hoist/Image.h"

#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace hoist {

class DiagnosticSink;

struct BrightenedHalf {
  std::unique_ptr<llvm::Module> module; ///< the native functions, optimized
  /// The native function of each original entry brightened, by its name in `module`.
  std::map<uint64_t, std::string> nativeByEntry;
  unsigned candidates = 0; ///< lifted functions brightening was asked to brighten
};

/// Brightens a copy of `lifted` (the translated program's module, as lifted), keeps the
/// functions brightened but the ones that must stay in State form (the entry point, whose
/// `__libc_start_main` is the runtime's, and the callers of setjmp and longjmp, which the
/// runtime implements for lifted code; each gets a "recompile-state-form" warning), and
/// prepares them for the mapped image as the header says, optimized at `optLevel`.
/// `dataAtOriginalAddresses`: as BrightenOutput's (a position-dependent executable).
/// `program` tells which imports are weak.
llvm::Expected<BrightenedHalf> brightenHalf(const llvm::Module &lifted, const Image &image,
                                            const ElfProgram &program, bool dataAtOriginalAddresses,
                                            unsigned optLevel, DiagnosticSink &diagnostics);

/// Replaces the body of each lifted function of `lifted` whose entry `half` brightened by a
/// bridge to the native function (defineBrightenedBridge), declared in `lifted`.
void bridgeToBrightened(llvm::Module &lifted, const BrightenedHalf &half);

/// Whether a function of `lifted` that stays in State form (one with a body, bridges aside:
/// they call no import) calls or takes the address of the import `name`.
bool stateFormUses(const llvm::Module &lifted, llvm::StringRef name);

} // namespace hoist
