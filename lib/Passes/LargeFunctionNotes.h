// The note that says a function got the optimizer's cheaper pipeline for large functions
// (OptimizeOptions::largeFunctionInstructions).
#pragma once

#include "hoist/Diagnostics.h"
#include "hoist/Optimize.h"

namespace hoist {

/// A `large-function` note per function of `report.largeFunctions`, at its entry.
void noteLargeFunctions(const OptimizeReport &report, const OptimizeOptions &options,
                        DiagnosticSink &diagnostics);

} // namespace hoist
