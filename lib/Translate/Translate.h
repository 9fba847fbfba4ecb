// `hoist translate`: a dynamically linked x86-64 ELF executable lifted whole, optimized and
// linked with the translation runtime (runtime/) into a new executable that behaves the same.
// See docs/TRANSLATE.md.
#pragma once

#include <llvm/Support/Error.h>

#include <cstdint>
#include <string>

namespace hoist {

class DiagnosticSink;

/// Where a PIE's image is mapped in the translated program (and where lifting places it).
inline constexpr uint64_t TranslatedPieBase = 0x100000000000;

struct TranslateOptions {
  std::string input;
  std::string output;
  unsigned optLevel = 2;
  bool allowUnsupported = false;     ///< translate despite refusals (they become warnings)
  std::string runtimeLibrary;        ///< libhoist_translate_runtime.a
  std::string compiler = "cc";       ///< links the output
  std::string keepModule;            ///< also write the optimized module (.ll) here
};

struct TranslateReport {
  uint64_t functions = 0;
  uint64_t patchableEntries = 0;
  uint64_t instructions = 0;
  uint64_t redundantStoresRemoved = 0;   ///< State writebacks of values already there
  uint64_t nativeCarrylessMultiplies = 0;   ///< generic pclmulqdq halves made the instruction
};

llvm::Expected<TranslateReport> translateProgram(const TranslateOptions &options,
                                                 DiagnosticSink &diagnostics);

} // namespace hoist
