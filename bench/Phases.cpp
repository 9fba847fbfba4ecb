#include "Phases.h"

#include "Decode/Decoder.h"
#include "Discover/ProgramDiscovery.h"
#include "LinearSweep.h"
#include "Support/Diagnostics.h"
#include "Support/Error.h"
#include "hoist/Lifter.h"
#include "hoist/Optimize.h"

#include <Zydis/Zydis.h>
#include <llvm/IR/LLVMContext.h>

#include <chrono>
#include <ctime>

namespace hoist::bench {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Wall and CPU time of one stretch of work (the phases are single-threaded).
struct Stopwatch {
  Clock::time_point wallStart = Clock::now();
  double cpuStart = cpuNow();

  static double cpuNow() {
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
  }
  double wall() const { return secondsSince(wallStart); }
  double cpu() const { return cpuNow() - cpuStart; }
};

/// The baseline: Zydis's own API in a tight loop, no Hoist code (full decode with operands,
/// which is what Hoist's decoder asks Zydis for).
PhaseResult decodeWithZydis(const Image &image) {
  ZydisDecoder decoder;
  ZydisDecoderInit(&decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
  ZydisDecodedInstruction instruction;
  ZydisDecodedOperand operands[ZYDIS_MAX_OPERAND_COUNT];
  PhaseResult result;
  Stopwatch watch;
  result.instructions = sweepExecutableSections(
      image, [&](const uint8_t *bytes, size_t size, uint64_t) -> unsigned {
        if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&decoder, bytes, size, &instruction, operands)))
          return 0;
        return instruction.length;
      });
  result.seconds = watch.wall();
  result.cpuSeconds = watch.cpu();
  return result;
}

PhaseResult decodeWithHoist(const Image &image) {
  Decoder decoder;
  Instr instr;
  PhaseResult result;
  Stopwatch watch;
  result.instructions = sweepExecutableSections(
      image, [&](const uint8_t *bytes, size_t size, uint64_t address) -> unsigned {
        if (decoder.decode(bytes, size, address, instr) != DecodeStatus::Ok)
          return 0;
        return instr.length;
      });
  result.seconds = watch.wall();
  result.cpuSeconds = watch.cpu();
  return result;
}

/// The instructions in the blocks discovery found (decoded again, outside the timed part:
/// discovery drops its blocks' instructions to save memory).
uint64_t countDiscoveredInstructions(const Image &image, const ProgramCfg &cfg) {
  Decoder decoder;
  Instr instr;
  uint64_t instructions = 0;
  for (const auto &[entry, function] : cfg.functions)
    for (const auto &[start, block] : function.explored.blocks)
      for (uint64_t address = start; address < block.endAddress; address += instr.length) {
        llvm::ArrayRef<uint8_t> bytes = image.bytesAt(address);
        if (decoder.decode(bytes.data(), bytes.size(), address, instr) != DecodeStatus::Ok)
          break;
        ++instructions;
      }
  return instructions;
}

PhaseResult discoverAll(const Image &image) {
  DiagnosticSink diagnostics;
  PhaseResult result;
  Stopwatch watch;
  ProgramCfg cfg = discoverProgram(image, ProgramDiscoveryRequest{.roots = {}, .all = true},
                                   LiftOptions{}, diagnostics);
  result.seconds = watch.wall();
  result.cpuSeconds = watch.cpu();
  result.functions = result.functionsInProgram = cfg.functions.size();
  result.instructions = countDiscoveredInstructions(image, cfg);
  return result;
}

/// `count` entries spread evenly over `all` (all of them when count is 0 or too large).
std::vector<uint64_t> sample(const std::vector<uint64_t> &all, uint64_t count) {
  if (count == 0 || count >= all.size())
    return all;
  std::vector<uint64_t> picked;
  for (uint64_t i = 0; i < count; ++i)
    picked.push_back(all[i * all.size() / count]);
  return picked;
}

/// Lifts (and at `optLevel` > 0 optimizes) the sampled functions. With `timeDiscovery`, the
/// whole-program discovery is part of the timed work (the "program" phase).
PhaseResult liftFunctions(const Image &image, const PhaseRequest &request, unsigned optLevel,
                          bool timeDiscovery) {
  DiagnosticSink diagnostics;
  llvm::LLVMContext context;
  context.setDiscardValueNames(true);   // as `hoist lift` without --names
  // As `hoist lift` does: the verifier runs where the module is optimized, not at -O0.
  LiftOptions options;
  options.verify = optLevel > 0;
  options.pcMetadata = request.pcMetadata;
  Lifter lifter(image, context, diagnostics, options);
  PhaseResult result;
  Stopwatch discovery;
  std::vector<uint64_t> discovered = lifter.discover({}, /*all=*/true);
  double discoverySeconds = discovery.wall(), discoveryCpuSeconds = discovery.cpu();
  result.functionsInProgram = discovered.size();

  Stopwatch lift;
  for (uint64_t entry : sample(discovered, request.sampleFunctions)) {
    llvm::Expected<llvm::Function *> lifted = lifter.liftFunction(entry);
    if (!lifted)   // counted by the lifter's stats as not lifted; the figures go on
      llvm::consumeError(lifted.takeError());
  }
  std::unique_ptr<llvm::Module> module = lifter.takeModule();
  result.liftSeconds = lift.wall();
  result.liftCpuSeconds = lift.cpu();
  result.instructions = lifter.stats().instructionsLifted;
  result.functions = lifter.stats().functions;
  result.writesMispredicted = lifter.stats().writesMispredicted;
  if (optLevel > 0) {
    Stopwatch optimize;
    optimizeModule(*module, &image, OptimizeOptions{.level = optLevel});
    result.optimizeSeconds = optimize.wall();
    result.optimizeCpuSeconds = optimize.cpu();
  }
  result.seconds = result.liftSeconds + result.optimizeSeconds +
                   (timeDiscovery ? discoverySeconds : 0);
  result.cpuSeconds = result.liftCpuSeconds + result.optimizeCpuSeconds +
                      (timeDiscovery ? discoveryCpuSeconds : 0);
  return result;
}

} // namespace

const std::vector<std::string> &phaseNames() {
  static const std::vector<std::string> names = {"zydis",   "decode", "lift", "cleanup",
                                                 "o2",      "discover", "program"};
  return names;
}

llvm::Expected<PhaseResult> runPhase(const Image &image, const PhaseRequest &request) {
  if (request.phase == "zydis")
    return decodeWithZydis(image);
  if (request.phase == "decode")
    return decodeWithHoist(image);
  if (request.phase == "lift")
    return liftFunctions(image, request, 0, false);
  if (request.phase == "cleanup")
    return liftFunctions(image, request, 1, false);
  if (request.phase == "o2")
    return liftFunctions(image, request, 2, false);
  if (request.phase == "discover")
    return discoverAll(image);
  if (request.phase == "program")
    return liftFunctions(image, request, 0, true);
  return makeError("unknown phase '{0}' (one of: zydis, decode, lift, cleanup, o2, discover, "
                   "program)",
                   request.phase);
}

} // namespace hoist::bench
