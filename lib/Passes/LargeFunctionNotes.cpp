#include "Passes/LargeFunctionNotes.h"

#include "hoist/Lifter.h"

#include <llvm/Support/FormatVariadic.h>

namespace hoist {

void noteLargeFunctions(const OptimizeReport &report, const OptimizeOptions &options,
                        DiagnosticSink &diagnostics) {
  for (const auto &[function, instructions] : report.largeFunctions)
    diagnostics.report(
        Severity::Note, "large-function", entryAddressOf(*function),
        llvm::formatv("{0}: {1} IR instructions, more than {2}: optimized with the cheaper "
                      "pipeline for large functions ({3} cleanup rounds without LICM and "
                      "MemorySSA, no -O{4} passes); its code is correct but slower",
                      function->getName(), instructions, options.largeFunctionInstructions,
                      options.largeFunctionRounds, options.level)
            .str());
}

} // namespace hoist
