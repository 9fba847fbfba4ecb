// Checks of the addresses given to `lift --function` before they are lifted.
#pragma once

#include "hoist/Diagnostics.h"
#include "hoist/Image.h"
#include "hoist/Options.h"

#include <string>
#include <vector>

namespace hoist {

/// Warns (code `mid-instruction-entry`) for each `--function 0xADDR` that lies inside an
/// instruction of the function around it (a sized function symbol's, else an unwind table's
/// range), as discovery decodes that function: lifted from there, the bytes are read as
/// instructions the program never runs. The address is still lifted, as asked. An address no
/// symbol or unwind range covers is not checked.
void warnMidInstructionEntries(const Image &image, const std::vector<std::string> &specs,
                               const LiftOptions &budgets, DiagnosticSink &diagnostics);

} // namespace hoist
