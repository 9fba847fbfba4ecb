// hoist-opt: runs Hoist's passes or its whole pipeline on an IR file, with the binary the IR
// was lifted from. The lit tests of lib/Passes drive it (tests/lit/passes, docs/TESTING.md).
//
//   hoist-opt in.ll -passes=fold-flag-idioms,instcombine      one or more passes by name
//   hoist-opt in.ll -O2 --report                               the pipeline of `hoist lift -O2`
//   hoist-opt in.ll --image BIN -passes=fold-image-loads       with the binary's read-only bytes
//   hoist-opt in.ll --raw --base 0x1000 --image code.bin ...   with a raw blob at a base
#include "Deobf/Passes/DeobfPasses.h"
#include "Passes/Passes.h"
#include "hoist/Image.h"
#include "hoist/Optimize.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/ToolOutputFile.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>

namespace cl = llvm::cl;

namespace {

cl::opt<std::string> InputPath(cl::Positional, cl::desc("<input.ll|.bc>"), cl::init("-"));
cl::opt<std::string> OutputPath("o", cl::desc("Output file (default: stdout)"),
                                cl::value_desc("file"), cl::init("-"));
cl::opt<std::string> Passes("passes", cl::desc("A textual pass pipeline, Hoist's names included"),
                            cl::value_desc("pipeline"));
cl::opt<unsigned> OptLevel("O", cl::desc("Hoist's pipeline at this level (0-3)"), cl::Prefix,
                           cl::init(0));
cl::opt<std::string> ImagePath("image", cl::desc("The binary the IR was lifted from"),
                               cl::value_desc("binary"));
cl::opt<bool> Raw("raw", cl::desc("The image is raw code (needs --base)"));
cl::opt<uint64_t> Base("base", cl::desc("Address of the raw image"), cl::init(0));
cl::opt<bool> Report("report",
                     cl::desc("Print instruction counts (per fixpoint round with -O) and time"));

int fail(const llvm::Twine &message) {
  llvm::errs() << "hoist-opt: error: " << message << "\n";
  return 1;
}

llvm::Error runPipeline(llvm::Module &module, const hoist::Image *image) {
  hoist::PassSetup setup(image);
  // The deobfuscation passes are not the pipeline's; they plug in from above, here by name.
  hoist::registerDeobfuscationPasses(setup.builder);
  llvm::ModulePassManager passes;
  if (llvm::Error error = setup.builder.parsePassPipeline(passes, Passes))
    return error;
  passes.run(module, setup.modules);
  return llvm::Error::success();
}

} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "Hoist's optimization passes on lifted IR\n");
  if (!Passes.empty() && OptLevel.getNumOccurrences())
    return fail("give either -passes or -O, not both");
  if (OptLevel > 3)
    return fail("-O" + llvm::Twine(OptLevel.getValue()) + ": the levels are 0 to 3");
  if (Raw && ImagePath.empty())
    return fail("--raw needs --image");

  std::unique_ptr<hoist::Image> image;
  if (!ImagePath.empty()) {
    auto loaded = Raw ? hoist::Image::loadRaw(ImagePath, Base) : hoist::Image::load(ImagePath);
    if (!loaded)
      return fail(llvm::toString(loaded.takeError()));
    image = std::move(*loaded);
  }

  llvm::LLVMContext context;
  llvm::SMDiagnostic parseError;
  std::unique_ptr<llvm::Module> module = llvm::parseIRFile(InputPath, parseError, context);
  if (!module) {
    parseError.print("hoist-opt", llvm::errs());
    return 1;
  }

  uint64_t before = hoist::countInstructions(*module);
  auto start = std::chrono::steady_clock::now();
  hoist::OptimizeReport report;
  if (!Passes.empty()) {
    if (llvm::Error error = runPipeline(*module, image.get()))
      return fail("-passes: " + llvm::toString(std::move(error)));
  } else if (OptLevel > 0) {
    hoist::OptimizeOptions options;
    options.level = OptLevel;
    report = hoist::optimizeModule(*module, image.get(), options);
  }
  double milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (Report) {
    llvm::errs() << "instructions: " << before << " before";
    for (size_t i = 0; i < report.instructionsPerRound.size(); ++i)
      llvm::errs() << ", " << report.instructionsPerRound[i] << " after round " << i + 1;
    llvm::errs() << ", " << hoist::countInstructions(*module) << " after\n";
    if (!report.functionsPerRound.empty()) {
      llvm::errs() << "functions per round:";
      for (uint64_t functions : report.functionsPerRound)
        llvm::errs() << " " << functions;
      llvm::errs() << "\n";
    }
    for (const hoist::PassActivity &pass : report.passActivity)
      llvm::errs() << llvm::formatv("round {0} {1}: ran {2}, changed {3}, skipped {4}\n",
                                    pass.round, pass.pass, pass.ran, pass.changed, pass.skipped);
    llvm::errs() << llvm::formatv("time: {0:F1} ms", milliseconds);
    if (OptLevel > 0)
      llvm::errs() << llvm::formatv(" (fixpoint {0:F1} ms, final {1:F1} ms)", report.fixpointMs,
                                    report.finalMs);
    llvm::errs() << "\n";
  }
  if (llvm::verifyModule(*module, &llvm::errs()))
    return fail("the optimized module fails the LLVM verifier (a Hoist bug)");

  std::error_code error;
  llvm::ToolOutputFile out(OutputPath, error, llvm::sys::fs::OF_Text);
  if (error)
    return fail(OutputPath + ": cannot write: " + error.message());
  module->print(out.os(), nullptr);
  out.keep();
  return 0;
}
