// A program built on libhoist: loads a binary, prints what discovery found in one function,
// lifts it, optimizes it at -O2 and prints its IR. Usage: lift-function BINARY [FUNCTION]
// (a symbol name or a 0x address; default main, else the entry point).
#include "hoist/Hoist.h"

#include <llvm/Support/raw_ostream.h>

#include <vector>

namespace {

int fail(llvm::Error error) {
  llvm::errs() << "lift-function: " << llvm::toString(std::move(error)) << "\n";
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    llvm::errs() << "usage: lift-function BINARY [FUNCTION]\n";
    return 2;
  }
  llvm::Expected<std::unique_ptr<hoist::Image>> image = hoist::Image::load(argv[1]);
  if (!image)
    return fail(image.takeError());

  hoist::LiftRequest request;
  request.optLevel = 2;
  if (argc == 3) {
    llvm::Expected<uint64_t> function = hoist::resolveFunction(**image, argv[2]);
    if (!function)
      return fail(function.takeError());
    request.functions.push_back(*function);
  }

  hoist::DiagnosticSink diagnostics;
  llvm::Expected<hoist::ControlFlow> flow = hoist::discoverControlFlow(
      **image, request.functions, /*all=*/false, request.lift, diagnostics);
  if (!flow)
    return fail(flow.takeError());
  for (const hoist::CfgFunction &function : flow->functions)
    llvm::outs() << "; function " << llvm::format_hex(function.entry, 0) << " "
                 << function.name.value_or("-") << ": " << function.blocks.size()
                 << " blocks, " << function.calls.size() << " calls\n";

  llvm::LLVMContext context;
  llvm::Expected<hoist::LiftedProgram> lifted =
      hoist::liftProgram(**image, context, request, diagnostics);
  if (!lifted)
    return fail(lifted.takeError());
  lifted->module->print(llvm::outs(), nullptr);
  for (const hoist::Diagnostic &diagnostic : diagnostics.all())
    llvm::errs() << hoist::severityName(diagnostic.severity) << ": " << diagnostic.message
                 << "\n";
  llvm::errs() << "lifted " << lifted->stats.instructionsLifted << " instructions with Hoist "
               << HOIST_VERSION_STRING << "\n";
  return 0;
}
