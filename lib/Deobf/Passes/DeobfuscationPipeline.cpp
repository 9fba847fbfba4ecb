// How the deobfuscation passes plug into the optimization pipeline and into textual pipelines.
#include "Deobf/Passes/DeobfPasses.h"

#include <llvm/Passes/PassBuilder.h>

namespace hoist {

void addDeobfuscationPasses(llvm::FunctionPassManager &passes, DeobfuscationPassStats *stats) {
  // Arithmetic first: a simplified MBA can make a predicate's shape plain; folded predicates
  // leave the dispatcher only the real edges to thread.
  passes.addPass(SimplifyMbaPass(stats));
  passes.addPass(FoldOpaquePredicatesPass(stats));
  passes.addPass(UnflattenPass(stats));
}

AddPasses deobfuscationRoundPasses(DeobfuscationPassStats *stats) {
  return [stats](llvm::FunctionPassManager &passes) { addDeobfuscationPasses(passes, stats); };
}

void registerDeobfuscationPasses(llvm::PassBuilder &builder) {
  builder.registerPipelineParsingCallback(
      [](llvm::StringRef name, llvm::FunctionPassManager &passes,
         llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
        if (name == "simplify-mba") {
          passes.addPass(SimplifyMbaPass());
          return true;
        }
        if (name == "fold-opaque-predicates") {
          passes.addPass(FoldOpaquePredicatesPass());
          return true;
        }
        if (name == "unflatten") {
          passes.addPass(UnflattenPass());
          return true;
        }
        return false;
      });
}

} // namespace hoist
