// `hoist translate`: a dynamically linked x86-64 ELF executable lifted whole, optimized and
// linked with the translation runtime (runtime/) into a new executable that behaves the same.
// See docs/TRANSLATE.md; the runtime is found as Translate/RuntimeLocation.h says.
#pragma once

#include <llvm/Support/Error.h>

#include <cstdint>
#include <string>

namespace hoist {

class DiagnosticSink;
class Progress;

/// Where a PIE's image is mapped in the translated program (and where lifting places it).
/// Below 2 GiB, as a non-PIE's link address is: every constant address in lifted code (a
/// table, a global, a GOT slot) is then a sign-extended 32-bit displacement, folded into the
/// instruction that uses it, instead of a 64-bit `movabs` into a register (a register the
/// loop keeps or a constant rematerialized every iteration). Instructions executed on 2 MB
/// (callgrind) against 0x100000000000: tac 37.6 M -> 34.6 M, expand 63.8 M -> 59.8 M, wc
/// 177.6 M -> 172.1 M (with foldGuestAddresses, GuestAddresses.h). A translated program is
/// itself a PIE (the kernel loads it near 0x555555554000, its libraries and mmap area lie
/// higher still) and valgrind loads one at 0x108000 with libraries from 0x4000000, so 256 MiB
/// is free in both; an image larger than 1.75 GiB still works, with 64-bit constants.
inline constexpr uint64_t TranslatedPieBase = 0x10000000;

struct TranslateOptions {
  std::string input;
  std::string output;
  unsigned optLevel = 2;
  bool allowUnsupported = false;     ///< translate despite refusals (they become warnings)
  /// libhoist_translate_runtime.a; empty: where findTranslateRuntime() finds it
  /// (Translate/RuntimeLocation.h).
  std::string runtimeLibrary;
  std::string compiler = "cc";       ///< links the output
  std::string keepModule;            ///< also write the optimized module (.ll) here
  /// `hoist recompile`: every function brightening accepts becomes a native function, the
  /// rest stay in State form (docs/TRANSLATE.md, "Recompiled programs"); each function
  /// declined is a "brighten-declined" warning.
  bool brighten = false;
  /// Threads for discovery and code generation (`-j`; docs/TRANSLATE.md): the output behaves
  /// the same with any number, and the same number gives the same bytes.
  unsigned jobs = 1;
};

struct TranslateReport {
  uint64_t functions = 0;
  uint64_t patchableEntries = 0;
  uint64_t instructions = 0;
  uint64_t redundantStoresRemoved = 0;   ///< State writebacks of values already there
  uint64_t nativeCarrylessMultiplies = 0;   ///< generic pclmulqdq halves made the instruction
  /// In a program that makes threads: guest loads and stores given x86's acquire and release
  /// order (Translate/GuestMemoryOrder.h).
  uint64_t orderedGuestAccesses = 0;
  uint64_t brightenCandidates = 0;          ///< with brighten: the lifted functions offered
  uint64_t brightened = 0;                  ///< with brighten: those running as native functions
  unsigned partitions = 1;   ///< objects the module was compiled as, one per thread (jobs)
};

/// `progress`, if any, hears each phase and counts the functions lifted (hoist/Progress.h).
llvm::Expected<TranslateReport> translateProgram(const TranslateOptions &options,
                                                 DiagnosticSink &diagnostics,
                                                 Progress *progress = nullptr);

} // namespace hoist
