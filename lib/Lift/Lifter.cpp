#include "hoist/Lifter.h"

#include "Arch/StateLayout.h"
#include "Discover/FunctionDiscovery.h"
#include "Lift/FunctionLifter.h"
#include "Discover/InstructionCache.h"
#include "Support/Diagnostics.h"
#include "Support/Error.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

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

  llvm::Function *declare(uint64_t entry) {
    llvm::Type *ptr = llvm::PointerType::getUnqual(context);
    auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), {ptr, ptr}, false);
    auto *function = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                            liftedFunctionName(entry), *module);
    function->getArg(0)->setName("state");
    function->getArg(1)->setName("mem");
    for (unsigned i = 0; i < 2; ++i) {
      function->addParamAttr(i, llvm::Attribute::NoAlias);
      function->addParamAttr(i, llvm::Attribute::NoUndef);
    }
    return function;
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
  DiscoveredFunction discovered =
      discoverFunction(impl.image, impl.cache, entry, impl.options, impl.diagnostics);
  const ExploredFunction &explored = discovered.explored;
  llvm::Function *function = impl.module->getFunction(liftedFunctionName(entry));
  if (!function)
    function = impl.declare(entry);
  liftExploredFunction({impl.image, explored, impl.diagnostics, impl.stats}, *function);
  ++impl.stats.functions;

  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyFunction(*function, &stream))
    return makeError("{0}: lifted function at {1} fails the LLVM verifier (a Hoist bug): {2}",
                     impl.image.path(), formatAddress(entry), problems);
  return function;
}

llvm::Module &Lifter::module() { return *impl_->module; }
std::unique_ptr<llvm::Module> Lifter::takeModule() { return std::move(impl_->module); }
const LiftStats &Lifter::stats() const { return impl_->stats; }

} // namespace hoist
