// What `hoist lift` and `hoist report` do before anything is lifted: load the input, take the
// functions the command line names (IFUNCs followed), discover the program from them and set
// aside the library functions recognized by signature.
#pragma once

#include "Commands.h"
#include "RecognizedFunctions.h"

#include "Support/Diagnostics.h"
#include "hoist/Lifter.h"
#include "hoist/Progress.h"

#include <llvm/IR/LLVMContext.h>

#include <map>
#include <memory>
#include <vector>

namespace hoist {

/// Declared in the order they are built: each uses those before it, so the destructors free
/// users first.
struct PreparedLift {
  std::unique_ptr<Image> image;
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<Lifter> lifter;   ///< has discovered the program
  std::vector<uint64_t> selected;   ///< the functions named, else main; IFUNCs followed
  std::vector<uint64_t> entries;    ///< those to lift: `selected` first, then discovery's
  std::map<uint64_t, Recognition> recognized;
};

/// Loads and discovers as `options` asks (functions, all, recognize, liftRecognized, budgets,
/// valueNames). The phases are timed in `profile`; what they find to say goes to
/// `diagnostics`. An error is bad input: a file that does not load, a function not found.
/// `progress`, if given, is told when discovery begins.
llvm::Expected<PreparedLift> prepareLift(const LiftCommandOptions &options,
                                         DiagnosticSink &diagnostics, PhaseProfile &profile,
                                         Progress *progress = nullptr);

} // namespace hoist
