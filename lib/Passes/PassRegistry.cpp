// Hoist's passes by name, for textual pipelines (`hoist-opt -passes=fold-flag-idioms`), and in
// the order one fixpoint round runs them.
#include "Passes/Passes.h"
#include "Passes/CachedCaptureAA.h"

namespace hoist {

void registerHoistPasses(llvm::PassBuilder &builder, const Image *image) {
  builder.registerPipelineParsingCallback(
      [image](llvm::StringRef name, llvm::FunctionPassManager &passes,
              llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
        if (name == "fold-image-loads" && image) {
          passes.addPass(FoldImageLoadsPass(*image));
          return true;
        }
        if (name == "narrow-trunc-loads") {
          passes.addPass(NarrowTruncLoadsPass());
          return true;
        }
        if (name == "fold-flag-idioms") {
          passes.addPass(FoldFlagIdiomsPass());
          return true;
        }
        if (name == "propagate-branch-constants") {
          passes.addPass(PropagateBranchConstantsPass());
          return true;
        }
        if (name == "dead-state-stores") {
          passes.addPass(DeadStateStoresPass());
          return true;
        }
        return false;
      });
}

PassSetup::PassSetup(
    const Image *image,
    const std::function<void(llvm::PassBuilder &, llvm::FunctionAnalysisManager &)>
        &registerAnalyses) {
  optNone.registerCallbacks(instrumentation);
  registerHoistPasses(builder, image);
  if (registerAnalyses)
    registerAnalyses(builder, functions);
  // Before LLVM's own: the first AAManager registered is the one used.
  registerCachedCaptureAA(functions);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(cgsccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, cgsccs, modules);
}

void addHoistPasses(llvm::FunctionPassManager &passes, const Image *image,
                    const std::shared_ptr<FunctionVersions> &versions) {
  // Flags first: the lifter's own formulas are the easiest to recognize, before InstCombine
  // reshapes them.
  addMaybeSkipped(passes, FoldFlagIdiomsPass(), versions);
  if (image)
    addMaybeSkipped(passes, FoldImageLoadsPass(*image), versions);
  addMaybeSkipped(passes, NarrowTruncLoadsPass(), versions);
  addMaybeSkipped(passes, DeadStateStoresPass(), versions);
  // Last: the compares it reads are those FoldFlagIdioms made of the flag formulas.
  addMaybeSkipped(passes, PropagateBranchConstantsPass(), versions);
}

} // namespace hoist
