// The HTML pages of `hoist report`: one per function (its graph, its assembly beside its
// lifted and brightened IR, linked by address; its diagnostics) and the summary, index.html.
#pragma once

#include "ReportData.h"

#include <llvm/Support/raw_ostream.h>

namespace hoist {

void writeFunctionPage(const ProgramReport &program, const FunctionReport &function,
                       llvm::raw_ostream &out);

void writeIndexPage(const ProgramReport &program, llvm::raw_ostream &out);

} // namespace hoist
