#include "hoist/Translate.h"

#include "Passes/ImpossibleSwitchDefaults.h"
#include "Passes/LargeFunctionNotes.h"
#include "Support/Diagnostics.h"
#include "Support/Error.h"
#include "Translate/BrightenedHalf.h"
#include "Translate/ClobberMarkers.h"
#include "Translate/ClobberedStateStores.h"
#include "Translate/ElfProgram.h"
#include "Translate/GuestAddresses.h"
#include "Translate/GuestMemoryOrder.h"
#include "Translate/HostObject.h"
#include "Translate/ImportCalls.h"
#include "Translate/LiftedCallEffects.h"
#include "Translate/NativeCarrylessMultiply.h"
#include "Translate/NullMemoryBase.h"
#include "Translate/PartitionedObjects.h"
#include "Translate/ProgramTables.h"
#include "Translate/RedundantStateStores.h"
#include "Translate/Refusals.h"
#include "Translate/RunPasses.h"
#include "Translate/RuntimeLocation.h"
#include "Translate/StatePointers.h"
#include "Translate/UnexpectedReturns.h"
#include "hoist/Lifter.h"
#include "hoist/Optimize.h"
#include "hoist/Progress.h"

#include <llvm/IR/Verifier.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FileUtilities.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/ToolOutputFile.h>

#include <deque>

namespace hoist {
namespace {

/// Runs ImpossibleSwitchDefaults on every function of `module`; returns how many defaults it
/// made unreachable. Once the optimizer has simplified the lifted code (its first round), so
/// that the bounds checks are plain compares.
unsigned removeImpossibleSwitchDefaults(llvm::Module &module) {
  unsigned removed = 0;
  llvm::ModulePassManager pipeline;
  pipeline.addPass(llvm::createModuleToFunctionPassAdaptor(ImpossibleSwitchDefaultsPass(&removed)));
  runModulePasses(module, pipeline);
  return removed;
}

llvm::Error refuse(const Image &image, const std::vector<Refusal> &refusals, bool allowable) {
  std::string message;
  for (const Refusal &refusal : refusals)
    message += "\n  " + refusal.message + " [" + refusal.code + "]";
  return makeError("{0}: cannot translate:{1}{2}", image.path(), message,
                   allowable ? "\n  (--allow-unsupported translates anyway; the features above "
                               "then misbehave when used)"
                             : "");
}

/// What --allow-unsupported lets through becomes a warning each; otherwise the refusal.
llvm::Error refuseUnlessAllowed(const Image &image, const std::vector<Refusal> &refusals,
                                bool allowUnsupported, DiagnosticSink &diagnostics) {
  if (refusals.empty())
    return llvm::Error::success();
  if (!allowUnsupported)
    return refuse(image, refusals, true);
  for (const Refusal &refusal : refusals)
    diagnostics.warning("translate-" + refusal.code, std::nullopt,
                        refusal.message + "; translated anyway (--allow-unsupported)");
  return llvm::Error::success();
}

/// Functions only the runtime calls (init and fini functions, IRELATIVE resolvers) are roots
/// of discovery besides the entry point.
std::vector<uint64_t> discoveryRoots(const Image &image, const ElfProgram &program) {
  std::vector<uint64_t> roots{image.entryPoint()};
  auto addArray = [&](uint64_t array, uint64_t count) {
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t slot = array + i * 8, pointer = 0;
      if (std::optional<uint64_t> relocated = program.relocatedPointerAt(slot))
        pointer = *relocated;
      else if (!image.read(slot, &pointer, 8))
        continue;
      if (image.isExecutable(pointer))
        roots.push_back(pointer);
    }
  };
  addArray(program.preinitArray, program.preinitCount);
  addArray(program.initArray, program.initCount);
  addArray(program.finiArray, program.finiCount);
  for (uint64_t function : {program.init, program.fini})
    if (function && image.isExecutable(function))
      roots.push_back(function);
  for (const DynamicRelocation &relocation : program.relocations)
    if (relocation.kind == DynamicRelocation::Kind::Irelative &&
        image.isExecutable(relocation.value))
      roots.push_back(relocation.value);
  return roots;
}

void raiseLimit(llvm::StringRef option, unsigned value) {
  auto &options = llvm::cl::getRegisteredOptions();
  auto found = options.find(option);
  if (found != options.end())
    if (auto *limit = static_cast<llvm::cl::opt<unsigned> *>(found->second))
      limit->setValue(value);
}

/// Alias analysis gives up on a pointer with more than 100 uses (LLVM's default), and a lifted
/// function's State has thousands: without a higher limit the optimizer assumes every library
/// call may read and write State, and writes all of it back before each call.
void letAliasAnalysisFollowState() {
  raiseLimit("capture-tracking-max-uses-to-explore", 1u << 20);
}

/// Lets LLVM inline lifted functions into each other more than into ordinary code: a lifted
/// function's cost counts its State traffic and guest stack pushes, most of which the inlining
/// itself removes (sort's comparison chain compare -> xmemcoll0 -> memcoll0 -> strcoll_loop
/// costs 1,000-2,200 per function; xmemcoll0 with the rest inlined into it 5,440). Instructions
/// sort --parallel=1 executes on 2 MB (callgrind; the original: 681 M): 1,339 M at 3,000
/// (compare calls xmemcoll0), 1,084 M at 8,000, 1,105 M at 20,000; translating sort took 42 s
/// at 3,000, 57 s at 8,000. Safe since library calls overwrite the caller-saved registers in
/// the IR itself (ClobberMarkers.h): before, ClobberedStateStores and LLVM disagreed about
/// them and an inlined callee could lose a caller's writeback. `-inline-threshold` counts
/// only when given, so it is given as if on the command line (unless it was).
void inlineLiftedCallsMore() {
  auto &options = llvm::cl::getRegisteredOptions();
  if (auto found = options.find("inline-threshold");
      found != options.end() && found->second->getNumOccurrences() == 0)
    found->second->addOccurrence(0, "inline-threshold", "8000");
}

} // namespace

llvm::Expected<TranslateReport> translateProgram(const TranslateOptions &options,
                                                 DiagnosticSink &diagnostics,
                                                 Progress *progress) {
  // Found first: a missing runtime fails the translation before its long work, not after.
  std::string runtimeLibrary = options.runtimeLibrary;
  if (runtimeLibrary.empty()) {
    llvm::Expected<std::string> found = findTranslateRuntime();
    if (!found)
      return found.takeError();
    runtimeLibrary = std::move(*found);
  }
  auto linked = Image::load(options.input);
  if (!linked)
    return linked.takeError();
  // A PIE is lifted where the translated program maps it.
  bool pie = (*linked)->format() == ImageFormat::Elf && (*linked)->isPositionIndependent() &&
             !(*linked)->isLibrary();
  uint64_t bias = pie ? TranslatedPieBase : 0;
  std::unique_ptr<Image> image;
  if (pie) {
    auto moved = Image::load(options.input, bias);
    if (!moved)
      return moved.takeError();
    image = std::move(*moved);
  } else {
    image = std::move(*linked);
  }
  auto file = llvm::MemoryBuffer::getFile(options.input, false, false);
  if (!file)
    return makeError("{0}: {1}", options.input, file.getError().message());

  ElfProgram program;
  if (image->format() == ImageFormat::Elf) {
    auto read = readElfProgram((*file)->getBuffer(), bias);
    if (!read)
      return makeError("{0}: {1}", options.input, llvm::toString(read.takeError()));
    program = std::move(*read);
  }
  if (std::vector<Refusal> refusals = unusableInput(*image, program); !refusals.empty())
    return refuse(*image, refusals, false);
  std::vector<Refusal> features = unsupportedFeatures(*image, program);
  // Recompiled, vfork is refused only where State-form code calls it (a native caller runs
  // the child on its own native frames, as the original did): decided once brightened.
  std::vector<Refusal> vfork;
  if (options.brighten)
    for (auto it = features.begin(); it != features.end();)
      if (it->code == "vfork") {
        vfork.push_back(std::move(*it));
        it = features.erase(it);
      } else {
        ++it;
      }
  if (llvm::Error refused =
          refuseUnlessAllowed(*image, features, options.allowUnsupported, diagnostics))
    return refused;

  llvm::LLVMContext context;
  // Brightening reads each instruction's address from the IR (`!hoist.pc`).
  LiftOptions liftOptions;
  liftOptions.pcMetadata = options.brighten;
  liftOptions.discoveryThreads = std::max(1u, options.jobs);
  Lifter lifter(*image, context, diagnostics, liftOptions);
  beginPhase(progress, "discovering");
  std::vector<uint64_t> entries = lifter.discover(discoveryRoots(*image, program), /*all=*/true);
  beginPhase(progress, "lifting", entries.size());
  for (uint64_t entry : entries) {
    if (llvm::Expected<llvm::Function *> lifted = lifter.liftFunction(entry); !lifted)
      diagnostics.error("lift-failed", entry,
                        llvm::toString(lifted.takeError()) +
                            "; reaching it ends the translated program");
    advanceProgress(progress);
  }
  beginPhase(progress, "lifting callees");
  lifter.liftCallees();
  std::unique_ptr<llvm::Module> module = lifter.takeModule();

  TranslateReport report;
  // `hoist recompile`: the functions brightening accepts run as native functions, the State
  // form of each a bridge to it (BrightenedHalf.h). Before anything changes the lifted code.
  std::optional<BrightenedHalf> half;
  if (options.brighten) {
    beginPhase(progress, "brightening");
    // The data is at its original addresses, mapped (BrightenedHalf.h), PIE or not.
    llvm::Expected<BrightenedHalf> made = brightenHalf(
        *module, *image, program, /*dataAtOriginalAddresses=*/true, options.optLevel, diagnostics);
    if (!made)
      return made.takeError();
    half = std::move(*made);
    bridgeToBrightened(*module, *half);
    if (!vfork.empty() && stateFormUses(*module, "vfork"))
      if (llvm::Error refused =
              refuseUnlessAllowed(*image, vfork, options.allowUnsupported, diagnostics))
        return refused;
    report.brightened = half->nativeByEntry.size();
    report.brightenCandidates = half->candidates;
  }
  report.instructions = lifter.stats().instructionsLifted;
  ProgramTablesReport tables =
      emitProgramTables(*module, *image, program, (*file)->getBuffer());
  report.functions = tables.functions;
  report.patchableEntries = tables.patchableEntries;
  describeStateArguments(*module);
  // Before anything changes the lifted code: it reads the lifter's map of instruction
  // addresses, which holds for the IR as lifted (the two steps above add globals and
  // attributes only).
  endUnexpectedReturns(*module, lifter);
  // Only where other threads can look: the order costs the optimizer (docs/TRANSLATE.md).
  if (makesThreads(*image))
    report.orderedGuestAccesses = orderGuestAccessesAsX86(*module);
  if (hostHasCarrylessMultiply())
    report.nativeCarrylessMultiplies = useNativeCarrylessMultiply(*module);
  letAliasAnalysisFollowState();
  if (options.optLevel > 0) {
    forgetClobberedRegisters(*module);
    inlineLiftedCallsMore();
  }
  // Each function's State effects, for the alias analysis once the first round has cleaned
  // the lifted code, and again for the State store passes after the optimizer
  // (LiftedCallEffects.h: a summary of the code as it is then stays true of what follows).
  StateEffectsMap stateEffects;
  beginPhase(progress, "optimizing");
  OptimizeOptions optimize{.level = options.optLevel,
                           .registerAnalyses =
                               [&](llvm::PassBuilder &builder,
                                   llvm::FunctionAnalysisManager &functions) {
                                 registerLiftedCallAA(builder, functions, stateEffects);
                               },
                           .afterFirstRound =
                               [&] {
                                 // Bounded jump tables first: their defaults write all of
                                 // State back and leave the function.
                                 removeImpossibleSwitchDefaults(*module);
                                 // Writebacks of values already there are no writes.
                                 report.redundantStoresRemoved +=
                                     removeRedundantStateStores(*module, nullptr);
                                 stateEffects = summarizeStateEffects(*module);
                               }};
  noteLargeFunctions(optimizeModule(*module, image.get(), optimize), optimize, diagnostics);
  stateEffects = summarizeStateEffects(*module);
  if (options.optLevel > 0)
    report.redundantStoresRemoved += removeRedundantStateStores(*module, &stateEffects);
  // Last: every pass before, LLVM's and Hoist's, saw the library calls overwrite the
  // caller-saved registers.
  removeClobberMarkers(*module);
  useNullMemoryBase(*module);
  foldGuestAddresses(*module);
  // The program reaches its lifted functions through its tables (ProgramTables.h) only.
  keepLiftedFunctionsLocal(*module);
  if (llvm::verifyModule(*module, &llvm::errs()))
    return makeError("{0}: the translated module fails the LLVM verifier (a Hoist bug)",
                     options.input);
  if (!options.keepModule.empty()) {
    std::error_code error;
    llvm::ToolOutputFile out(options.keepModule, error, llvm::sys::fs::OF_Text);
    if (error)
      return makeError("{0}: cannot write: {1}", options.keepModule, error.message());
    module->print(out.os(), nullptr);
    out.keep();
  }

  // One object per partition of the module (PartitionedObjects.h), in partition order.
  std::vector<std::string> objects;
  std::deque<llvm::FileRemover> removeObjects;
  for (unsigned i = partitionCount(*module, std::max(1u, options.jobs)); i > 0; --i) {
    llvm::SmallString<128> object;
    if (std::error_code error =
            llvm::sys::fs::createTemporaryFile("hoist-translate", "o", object))
      return makeError("cannot create a temporary object file: {0}", error.message());
    removeObjects.emplace_back(object);
    objects.push_back(object.str().str());
  }
  report.partitions = objects.size();
  beginPhase(progress, "compiling");
  if (llvm::Error error = writePartitionedObjects(*module, std::max(1u, options.jobs), objects))
    return error;
  llvm::SmallString<128> nativeObject;
  std::optional<llvm::FileRemover> removeNativeObject;
  if (half) {
    if (std::error_code error =
            llvm::sys::fs::createTemporaryFile("hoist-recompile", "o", nativeObject))
      return makeError("cannot create a temporary object file: {0}", error.message());
    removeNativeObject.emplace(nativeObject);
    if (llvm::Error error = writeObjectForThisCpu(*half->module, nativeObject))
      return error;
    objects.push_back(nativeObject.str().str());
  }
  beginPhase(progress, "linking");
  if (llvm::Error error = linkTranslatedProgram(options.compiler, objects, runtimeLibrary,
                                                program.neededLibraries, options.output))
    return error;
  return report;
}

} // namespace hoist
