#include "hoist/Lifter.h"

#include "Arch/StateLayout.h"
#include "Discover/FunctionDiscovery.h"
#include "Discover/InstructionCache.h"
#include "Discover/ProgramDiscovery.h"
#include "Discover/Redecode.h"
#include "Lift/CallTargets.h"
#include "Lift/FunctionLifter.h"
#include "Lift/Intrinsics.h"
#include "Support/Diagnostics.h"
#include "Support/Error.h"
#include "Support/TimeBudget.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <deque>
#include <set>

namespace hoist {

void addLiftStats(LiftStats &into, const LiftStats &from) {
  into.instructionsLifted += from.instructionsLifted;
  into.blocks += from.blocks;
  into.functions += from.functions;
  for (const auto &[mnemonic, count] : from.unsupported)
    into.unsupported[mnemonic] += count;
  into.writesMispredicted += from.writesMispredicted;
}

struct Lifter::Impl {
  const Image &image;
  llvm::LLVMContext &context;
  DiagnosticSink &diagnostics;
  LiftOptions options;
  std::unique_ptr<llvm::Module> module;
  InstructionCache cache;
  LiftStats stats;
  /// Each lifted function's instruction-to-address map (Lifter::instructionAddresses).
  llvm::DenseMap<const llvm::Function *, std::vector<InstructionAddress>> addresses;

  Impl(const Image &image, llvm::LLVMContext &context, DiagnosticSink &diagnostics,
       LiftOptions options)
      : image(image), context(context), diagnostics(diagnostics), options(options),
        module(std::make_unique<llvm::Module>(image.path(), context)), cache(image) {
    module->setTargetTriple("x86_64-unknown-linux-gnu");
    module->setDataLayout(X86_64DataLayout);
  }

  /// From program discovery; empty without it.
  /// The functions it explored, by entry, without their instructions: liftFunction decodes
  /// their blocks again rather than exploring them again. Shared, read-only, with the Lifters
  /// that adopt the discovery (parallel workers).
  std::shared_ptr<const std::map<uint64_t, DiscoveredFunction>> discovered;
  Decoder decoder;
  /// The instructions of the discovered function being lifted, decoded again (redecode).
  /// One buffer for every function of this Lifter: liftFunction never runs twice at once on
  /// one Lifter (it does not recurse: callees are only declared while a function is lifted,
  /// and liftCallees lifts them one after the other), and a Lifter is never shared between
  /// threads (its module and context are not; `-j N` workers each make their own).
  std::vector<Instr> decodeBuffer;
  /// A function larger than this leaves the buffer freed after its lift, so that one huge
  /// function does not hold its instructions' memory for the rest of the program.
  static constexpr size_t KeptDecodeBufferCapacity = 32768;
  /// Shared, read-only, with the Lifters that adopt the discovery: `-j N` makes a Lifter per
  /// chunk of 16 functions, and copying the sets into each made a whole-program lift quadratic.
  std::shared_ptr<const std::set<uint64_t>> functionStarts = emptySet();
  std::shared_ptr<const std::set<uint64_t>> noreturnCallees = emptySet();
  std::shared_ptr<const std::set<uint64_t>> noreturnWhenStatusNonzero = emptySet();

  static std::shared_ptr<const std::set<uint64_t>> emptySet() {
    return std::make_shared<const std::set<uint64_t>>();
  }

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

  /// Runs the verifier on one lifted function; a broken one goes back to a declaration (the
  /// module stays valid, and finishing it defines the function as a runtime call). Returns
  /// the verifier's report for a broken function.
  std::optional<std::string> discardIfBroken(llvm::Function &function) {
    std::string problems;
    llvm::raw_string_ostream stream(problems);
    if (!llvm::verifyFunction(function, &stream))
      return std::nullopt;
    deleteLiftedBody(function);
    addresses.erase(&function);
    --stats.functions;
    return problems;
  }

  /// The verifier once over the module: one pass instead of one per function. Only when the
  /// module is broken (a Hoist bug) are the functions verified one by one, and each broken one
  /// reported as `lift-failed` and left a declaration.
  void verifyLifted() {
    if (!options.verify || options.verifyEachFunction || !llvm::verifyModule(*module))
      return;
    for (llvm::Function &function : *module) {
      std::optional<uint64_t> entry = entryAddressOf(function);
      if (function.isDeclaration() || !entry)
        continue;
      if (std::optional<std::string> problems = discardIfBroken(function))
        diagnostics.error("lift-failed", *entry,
                          llvm::formatv("{0}: lifted function at {1} fails the LLVM verifier "
                                        "(a Hoist bug): {2}; calls to it are runtime calls "
                                        "(__hoist_call)",
                                        image.path(), formatAddress(*entry), *problems)
                              .str());
    }
  }

  /// Functions lifted code calls that have no body yet, by entry.
  std::vector<std::pair<uint64_t, llvm::Function *>> calledButNotLifted() {
    std::vector<std::pair<uint64_t, llvm::Function *>> pending;
    for (llvm::Function &function : *module)
      if (function.isDeclaration())
        if (std::optional<uint64_t> entry = entryAddressOf(function))
          pending.emplace_back(*entry, &function);
    return pending;
  }

  /// Adds to `pending` the functions `lifted` refers to that have no body and are not queued.
  static void queueReferencedDeclarations(const llvm::Function &lifted,
                                          std::deque<std::pair<uint64_t, llvm::Function *>> &pending,
                                          std::set<uint64_t> &queued) {
    for (const llvm::BasicBlock &block : lifted)
      for (const llvm::Instruction &instruction : block)
        for (const llvm::Use &operand : instruction.operands())
          if (auto *callee = llvm::dyn_cast<llvm::Function>(operand.get()))
            if (callee->isDeclaration())
              if (std::optional<uint64_t> entry = entryAddressOf(*callee))
                if (queued.insert(*entry).second)
                  pending.emplace_back(*entry, callee);
  }
};

Lifter::Lifter(const Image &image, llvm::LLVMContext &context, DiagnosticSink &diagnostics,
               LiftOptions options)
    : impl_(std::make_unique<Impl>(image, context, diagnostics, options)) {}

Lifter::~Lifter() = default;

llvm::Expected<llvm::Function *> Lifter::liftFunction(uint64_t entry) {
  Impl &impl = *impl_;
  if (llvm::Function *existing = findLiftedFunction(*impl.module, impl.image, entry))
    if (!existing->isDeclaration())
      return existing;
  if (!impl.image.isExecutable(entry) || impl.image.bytesAt(entry).empty())
    return makeError("{0}: address {1} is not in an executable section", impl.image.path(),
                     formatAddress(entry));

  // A function program discovery explored is lifted as discovery found it (blocks, jump
  // tables, tail calls), its instructions decoded again and freed once it is lifted. Any other
  // (a callee found while lifting, or no discovery at all) is explored here: discovery resolves
  // the jump tables it recognizes, whose jmps become `switch`es. What program discovery knows:
  // a direct jmp to another function's start is a tail call (a call of that function), and
  // calls to noreturn functions end their block.
  std::optional<ExploredFunction> redecoded;
  if (impl.discovered)
    if (auto known = impl.discovered->find(entry); known != impl.discovered->end())
      redecoded = redecode(impl.image, impl.decoder, known->second.explored, impl.decodeBuffer);
  DiscoveredFunction discovered;
  if (!redecoded) {
    ExploreHints hints;
    if (!impl.functionStarts->empty())
      hints.functionStarts = impl.functionStarts.get();
    if (!impl.noreturnCallees->empty())
      hints.noreturnCallees = impl.noreturnCallees.get();
    if (!impl.noreturnWhenStatusNonzero->empty())
      hints.noreturnWhenStatusNonzero = impl.noreturnWhenStatusNonzero.get();
    discovered =
        discoverFunction(impl.image, impl.cache, entry, impl.options, impl.diagnostics, hints);
  }
  const ExploredFunction &explored = redecoded ? *redecoded : discovered.explored;
  llvm::Function *function = declareLiftedFunction(*impl.module, impl.image, entry);
  std::vector<InstructionAddress> addresses =
      liftExploredFunction({.image = impl.image,
                            .explored = explored,
                            .diagnostics = impl.diagnostics,
                            .stats = impl.stats,
                            .tagStackPointerWrites = impl.options.pcMetadata},
                           *function);
  if (impl.options.pcMetadata)
    attachPcMetadata(addresses);
  impl.addresses[function] = std::move(addresses);
  ++impl.stats.functions;
  if (impl.decodeBuffer.capacity() > Impl::KeptDecodeBufferCapacity)
    impl.decodeBuffer = {};

  if (impl.options.verifyEachFunction)
    if (std::optional<std::string> problems = impl.discardIfBroken(*function))
      return makeError("{0}: lifted function at {1} fails the LLVM verifier (a Hoist bug): {2}",
                       impl.image.path(), formatAddress(entry), *problems);
  return function;
}

std::vector<uint64_t> Lifter::discover(const std::vector<uint64_t> &roots, bool all) {
  Impl &impl = *impl_;
  ProgramDiscoveryRequest request;
  request.roots = roots;
  request.all = all;
  ProgramCfg cfg = discoverProgram(impl.image, request, impl.options, impl.diagnostics);
  // A function's parts (gcc's `.cold`) are not starts: a jmp to one goes on in its parent.
  std::set<uint64_t> starts = cfg.functionStarts();
  // A jmp to an import's stub is a tail call to the import, as discovery has it.
  for (const Import &import : impl.image.imports())
    if (import.stubAddress)
      starts.insert(*import.stubAddress);
  impl.functionStarts = std::make_shared<const std::set<uint64_t>>(std::move(starts));
  impl.noreturnCallees = std::make_shared<const std::set<uint64_t>>(std::move(cfg.noreturnCallees));
  impl.noreturnWhenStatusNonzero =
      std::make_shared<const std::set<uint64_t>>(std::move(cfg.noreturnWhenStatusNonzero));
  std::vector<uint64_t> entries = roots;
  for (const auto &[entry, function] : cfg.functions)
    if (std::find(roots.begin(), roots.end(), entry) == roots.end())
      entries.push_back(entry);
  impl.discovered =
      std::make_shared<const std::map<uint64_t, DiscoveredFunction>>(std::move(cfg.functions));
  return entries;
}

const std::map<uint64_t, DiscoveredFunction> &Lifter::discoveredFunctions() const {
  static const std::map<uint64_t, DiscoveredFunction> none;
  return impl_->discovered ? *impl_->discovered : none;
}

uint64_t Lifter::liftCallees() {
  Impl &impl = *impl_;
  uint64_t lifted = 0;
  std::set<uint64_t> queued;   // lifted, failed or waiting
  std::deque<std::pair<uint64_t, llvm::Function *>> pending;
  // A worklist fed by each lifted function's own references, not recursion and not a scan of
  // the whole module per level: a call chain as deep as the function budget costs neither
  // stack nor quadratic time. The module is scanned again only when the worklist runs dry, in
  // case something declared a function in a way the references did not show.
  while (true) {
    for (auto [entry, function] : impl.calledButNotLifted())
      if (queued.insert(entry).second)
        pending.emplace_back(entry, function);
    if (pending.empty())
      return lifted;
    while (!pending.empty()) {
      auto [entry, function] = pending.front();
      pending.pop_front();
      if (impl.stats.functions >= impl.options.maxFunctions) {
        impl.diagnostics.warning("budget-exhausted", entry,
                                 "function budget exhausted; callees not lifted are runtime "
                                 "calls (__hoist_call)");
        return lifted;
      }
      if (impl.options.pastDeadline()) {
        reportTimeBudgetExhausted(impl.diagnostics,
                                  "lifting callees stopped after " + std::to_string(lifted) +
                                      " functions; the rest are runtime calls (__hoist_call)");
        return lifted;
      }
      if (llvm::Expected<llvm::Function *> result = liftFunction(entry); result) {
        ++lifted;
        Impl::queueReferencedDeclarations(**result, pending, queued);
      } else {
        impl.diagnostics.error("lift-failed", entry,
                               llvm::toString(result.takeError()) +
                                   "; calls to it are runtime calls (__hoist_call)");
      }
    }
  }
}

void Lifter::finishModule() {
  for (auto [entry, function] : impl_->calledButNotLifted())
    impl_->defineAsRuntimeCall(*function, entry);
}

void Lifter::adoptDiscovery(const Lifter &other) {
  impl_->discovered = other.impl_->discovered;
  impl_->functionStarts = other.impl_->functionStarts;
  impl_->noreturnCallees = other.impl_->noreturnCallees;
  impl_->noreturnWhenStatusNonzero = other.impl_->noreturnWhenStatusNonzero;
}

llvm::Module &Lifter::module() { return *impl_->module; }
std::unique_ptr<llvm::Module> Lifter::takeUnfinishedModule() {
  impl_->verifyLifted();
  return std::move(impl_->module);
}
std::unique_ptr<llvm::Module> Lifter::takeModule() {
  impl_->verifyLifted();
  finishModule();
  return std::move(impl_->module);
}
const LiftStats &Lifter::stats() const { return impl_->stats; }
const LiftOptions &Lifter::options() const { return impl_->options; }

llvm::ArrayRef<InstructionAddress>
Lifter::instructionAddresses(const llvm::Function &function) const {
  auto found = impl_->addresses.find(&function);
  if (found == impl_->addresses.end())
    return {};
  return found->second;
}

} // namespace hoist
