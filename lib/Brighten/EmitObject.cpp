#include "Brighten/EmitObject.h"

#include "Brighten/FreezeZeroExtensions.h"

#include "Support/Error.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>

#include <memory>
#include <mutex>

namespace hoist {

llvm::Error emitHostObject(llvm::Module &module, llvm::raw_pwrite_stream &out, bool forThisCpu,
                           llvm::CodeGenOptLevel level) {
  // Once: registering the target writes LLVM's target registry, and `hoist translate -j N`
  // compiles in N threads at once (Translate/PartitionedObjects.h).
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // Brightened code may hold inline assembly (MachineQueries.h: cpuid), which the object
    // streamer assembles.
    llvm::InitializeNativeTargetAsmParser();
  });
  std::string triple = llvm::sys::getDefaultTargetTriple();
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return makeError("{0}: no code generator for the host {1}: {2}",
                     module.getModuleIdentifier(), triple, error);
  // cmpxchg16b even for a generic CPU: lifted code has a 16-byte atomic only where the program
  // ran `lock cmpxchg16b` (Arch/AtomicAccess.cpp), which a CPU without it could not run
  // either; without the feature LLVM calls libatomic's __atomic_compare_exchange_16 instead.
  std::string cpu = "generic", features = "+cx16";
  if (forThisCpu) {
    features.clear();
    cpu = llvm::sys::getHostCPUName().str();
    for (const auto &[name, enabled] : llvm::sys::getHostCPUFeatures())
      features += (features.empty() ? "" : ",") + std::string(enabled ? "+" : "-") + name.str();
  }
  // Position-independent: the object links into PIE programs, the host compilers' default.
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpu, features, llvm::TargetOptions(), llvm::Reloc::PIC_, std::nullopt,
      level));
  module.setTargetTriple(triple);
  module.setDataLayout(machine->createDataLayout());
  // LLVM 19's selection can drop a zero extension of a 32-bit value (FreezeZeroExtensions.h).
  freezeZeroExtensions(module);
  llvm::legacy::PassManager passes;
  if (machine->addPassesToEmitFile(passes, out, nullptr, llvm::CodeGenFileType::ObjectFile))
    return makeError("{0}: the host code generator cannot emit an object",
                     module.getModuleIdentifier());
  passes.run(module);
  return llvm::Error::success();
}

} // namespace hoist
