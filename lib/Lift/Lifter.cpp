#include "hoist/Lifter.h"

#include "Arch/StateLayout.h"
#include "Discover/FunctionDiscovery.h"
#include "Discover/InstructionCache.h"
#include "Discover/ProgramDiscovery.h"
#include "Lift/CallTargets.h"
#include "Lift/FunctionLifter.h"
#include "Lift/Intrinsics.h"
#include "Support/Diagnostics.h"
#include "Support/Error.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <set>

namespace hoist {

std::string liftedFunctionName(uint64_t address) {
  return "fn_" + llvm::utohexstr(address, /*LowerCase=*/true);
}

struct Lifter::Impl {
  const Image &image;
  llvm::LLVMContext &context;
  DiagnosticSink &diagnostics;
  LiftOptions options;
  std::unique_ptr<llvm::Module> module;
  InstructionCache cache;
  LiftStats stats;

  Impl(const Image &image, llvm::LLVMContext &context, DiagnosticSink &diagnostics,
       LiftOptions options)
      : image(image), context(context), diagnostics(diagnostics), options(options),
        module(std::make_unique<llvm::Module>(image.path(), context)), cache(image) {
    module->setTargetTriple("x86_64-unknown-linux-gnu");
    module->setDataLayout(X86_64DataLayout);
  }

  /// From program discovery; empty without it.
  std::set<uint64_t> functionStarts;
  std::set<uint64_t> noreturnCallees;
  std::set<uint64_t> noreturnWhenStatusNonzero;

  /// Gives a function that was called but not lifted a body that leaves through __hoist_call,
  /// so that the module is complete: the runtime performs the call.
  void defineAsRuntimeCall(llvm::Function &function, uint64_t entry) {
    llvm::IRBuilder<> ir(llvm::BasicBlock::Create(context, "entry", &function));
    llvm::Value *rip = ir.getInt64(entry);
    ir.CreateStore(rip, ir.CreateStructGEP(getStateType(context), function.getArg(0),
                                           HOIST_FIELD_RIP, "rip.ptr"));
    ir.CreateCall(getIntrinsic(*module, Intrinsic::Call), {function.getArg(0), function.getArg(1), rip});
    ir.CreateRetVoid();
    function.addFnAttr("hoist-not-lifted");
  }

  /// Functions lifted code calls that have no body yet, by entry.
  std::vector<std::pair<uint64_t, llvm::Function *>> calledButNotLifted() {
    std::vector<std::pair<uint64_t, llvm::Function *>> pending;
    for (llvm::Function &function : *module)
      if (function.isDeclaration())
        if (std::optional<uint64_t> entry = liftedFunctionEntry(function.getName()))
          pending.emplace_back(*entry, &function);
    return pending;
  }
};

Lifter::Lifter(const Image &image, llvm::LLVMContext &context, DiagnosticSink &diagnostics,
               LiftOptions options)
    : impl_(std::make_unique<Impl>(image, context, diagnostics, options)) {}

Lifter::~Lifter() = default;

llvm::Expected<llvm::Function *> Lifter::liftFunction(uint64_t entry) {
  Impl &impl = *impl_;
  if (llvm::Function *existing = impl.module->getFunction(liftedFunctionName(entry)))
    if (!existing->isDeclaration())
      return existing;
  const DecodedAt *first = impl.cache.at(entry);
  if (!first)
    return makeError("{0}: address {1} is not in an executable section", impl.image.path(),
                     formatAddress(entry));

  // Discovery resolves the jump tables it recognizes; their jmps become `switch`es.
  // What program discovery knows: a direct jmp to another function's start is a tail call (a
  // call of that function), and calls to noreturn functions end their block.
  ExploreHints hints;
  if (!impl.functionStarts.empty())
    hints.functionStarts = &impl.functionStarts;
  if (!impl.noreturnCallees.empty())
    hints.noreturnCallees = &impl.noreturnCallees;
  if (!impl.noreturnWhenStatusNonzero.empty())
    hints.noreturnWhenStatusNonzero = &impl.noreturnWhenStatusNonzero;
  DiscoveredFunction discovered =
      discoverFunction(impl.image, impl.cache, entry, impl.options, impl.diagnostics, hints);
  const ExploredFunction &explored = discovered.explored;
  llvm::Function *function = declareLiftedFunction(*impl.module, entry);
  liftExploredFunction({impl.image, explored, impl.diagnostics, impl.stats}, *function);
  ++impl.stats.functions;

  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyFunction(*function, &stream)) {
    // Back to a declaration: the module stays valid, and finishing it defines the function
    // as a runtime call.
    function->deleteBody();
    --impl.stats.functions;
    return makeError("{0}: lifted function at {1} fails the LLVM verifier (a Hoist bug): {2}",
                     impl.image.path(), formatAddress(entry), problems);
  }
  return function;
}

std::vector<uint64_t> Lifter::discover(const std::vector<uint64_t> &roots, bool all) {
  Impl &impl = *impl_;
  ProgramDiscoveryRequest request;
  request.roots = roots;
  request.all = all;
  ProgramCfg cfg = discoverProgram(impl.image, request, impl.options, impl.diagnostics);
  impl.functionStarts = cfg.registry.functionStarts();
  // A jmp to an import's stub is a tail call to the import, as discovery has it.
  for (const Import &import : impl.image.imports())
    if (import.stubAddress)
      impl.functionStarts.insert(*import.stubAddress);
  impl.noreturnCallees = std::move(cfg.noreturnCallees);
  impl.noreturnWhenStatusNonzero = std::move(cfg.noreturnWhenStatusNonzero);
  std::vector<uint64_t> entries = roots;
  for (const auto &[entry, function] : cfg.functions)
    if (std::find(roots.begin(), roots.end(), entry) == roots.end())
      entries.push_back(entry);
  return entries;
}

uint64_t Lifter::liftCallees() {
  Impl &impl = *impl_;
  uint64_t lifted = 0;
  std::set<uint64_t> failed;
  while (true) {
    bool progress = false;
    for (auto [entry, function] : impl.calledButNotLifted()) {
      if (failed.count(entry))
        continue;
      if (impl.stats.functions >= impl.options.maxFunctions) {
        impl.diagnostics.warning("budget-exhausted", entry,
                                 "function budget exhausted; callees not lifted are runtime "
                                 "calls (__hoist_call)");
        return lifted;
      }
      if (llvm::Expected<llvm::Function *> result = liftFunction(entry); result) {
        ++lifted;
        progress = true;
      } else {
        failed.insert(entry);
        impl.diagnostics.error("lift-failed", entry,
                               llvm::toString(result.takeError()) +
                                   "; calls to it are runtime calls (__hoist_call)");
      }
    }
    if (!progress)
      return lifted;
  }
}

void Lifter::finishModule() {
  for (auto [entry, function] : impl_->calledButNotLifted())
    impl_->defineAsRuntimeCall(*function, entry);
}

void Lifter::adoptDiscovery(const Lifter &other) {
  impl_->functionStarts = other.impl_->functionStarts;
  impl_->noreturnCallees = other.impl_->noreturnCallees;
  impl_->noreturnWhenStatusNonzero = other.impl_->noreturnWhenStatusNonzero;
}

llvm::Module &Lifter::module() { return *impl_->module; }
std::unique_ptr<llvm::Module> Lifter::takeUnfinishedModule() { return std::move(impl_->module); }
std::unique_ptr<llvm::Module> Lifter::takeModule() {
  finishModule();
  return std::move(impl_->module);
}
const LiftStats &Lifter::stats() const { return impl_->stats; }

} // namespace hoist
