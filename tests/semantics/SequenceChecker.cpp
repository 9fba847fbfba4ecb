#include "SequenceChecker.h"

#include "Assembler.h"
#include "Brighten/EmitObject.h"
#include "CodeLayout.h"
#include "Comparison.h"
#include "Decode/Decoder.h"
#include "JitRunner.h"
#include "NativeRunner.h"
#include "SequenceFlags.h"
#include "StateGenerator.h"
#include "hoist/Optimize.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/raw_ostream.h>

#include <cstring>
#include <memory>

namespace hoist::test {
namespace {

constexpr unsigned ReportedMismatches = 3;

/// A decoded `nop` at the instruction address: the state generator's instruction (no operand
/// to place, so every register keeps its random or boundary value) and the comparison's
/// (nothing masked but what the sequence's own analysis masks).
const Instr &neutralInstr() {
  static const Instr nop = [] {
    static const uint8_t bytes[] = {0x90};
    Instr instr;
    Decoder().decode(bytes, 1, layout::InstructionAddress, instr);
    return instr;
  }();
  return nop;
}

ModuleSteps stepsOf(Pipeline pipeline, bool keepIr) {
  ModuleSteps steps;
  steps.keepIr = keepIr;
  unsigned level = pipeline == Pipeline::O0 ? 0 : pipeline == Pipeline::O1 ? 1 : 2;
  steps.transform = [level](llvm::Module &module, const Image &image) {
    OptimizeOptions options;
    options.level = level;
    optimizeModule(module, &image, options);
    return llvm::Error::success();
  };
  if (pipeline == Pipeline::Object)
    steps.toObject = [](llvm::Module &module)
        -> llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> {
      llvm::SmallVector<char, 0> object;
      llvm::raw_svector_ostream out(object);
      if (llvm::Error error = emitHostObject(module, out))
        return std::move(error);
      return llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(object.data(), object.size()),
                                                  "sequence.o");
    };
  return steps;
}

struct FlagField {
  uint32_t mask;
  uint8_t CpuState::*field;
  const char *name;
};
const FlagField Flags[] = {{FlagCF, &CpuState::cf, "CF"}, {FlagPF, &CpuState::pf, "PF"},
                           {FlagAF, &CpuState::af, "AF"}, {FlagZF, &CpuState::zf, "ZF"},
                           {FlagSF, &CpuState::sf, "SF"}, {FlagOF, &CpuState::of, "OF"}};

std::string flagNames(uint32_t mask) {
  std::string out;
  for (const FlagField &flag : Flags)
    if (mask & flag.mask)
      out += (out.empty() ? "" : " ") + std::string(flag.name);
  return out;
}

/// The lifted run with what the analysis masks taken from the native run, so that
/// compareRuns compares everything else exactly.
void maskUndefined(const RunResult &native, RunResult &lifted, uint32_t flags,
                   const SequenceFlags &analysis) {
  for (const FlagField &flag : Flags)
    if (flags & flag.mask)
      lifted.state.*flag.field = native.state.*flag.field;
  lifted.state.fp.mxcsr =
      (lifted.state.fp.mxcsr & ~analysis.mxcsr) | (native.state.fp.mxcsr & analysis.mxcsr);
  lifted.state.fp.fsw = uint16_t((lifted.state.fp.fsw & ~analysis.fsw) |
                                 (native.state.fp.fsw & analysis.fsw));
}

/// The maybe-undefined flags where the native run stopped: at the end, or before the
/// instruction that faulted.
uint32_t undefinedAtStop(const RunResult &native, const std::vector<Instr> &code,
                         const SequenceFlags &analysis) {
  if (native.outcome == Outcome::Fault)
    for (size_t i = 0; i < code.size(); ++i)
      if (code[i].address == native.state.rip)
        return analysis.undefinedBefore[i];
  return analysis.undefinedBefore.back();
}

llvm::Expected<std::vector<Instr>> decodeSequence(const AssembledSequence &assembled) {
  std::vector<Instr> code;
  Decoder decoder;
  for (uint64_t offset : assembled.offsets) {
    Instr instr;
    if (decoder.decode(assembled.bytes.data() + offset, assembled.bytes.size() - offset,
                       layout::InstructionAddress + offset, instr) != DecodeStatus::Ok)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "the assembled sequence does not decode");
    code.push_back(instr);
  }
  return code;
}

} // namespace

const char *pipelineName(Pipeline pipeline) {
  switch (pipeline) {
  case Pipeline::O0:
    return "-O0";
  case Pipeline::O1:
    return "-O1";
  case Pipeline::O2:
    return "-O2";
  case Pipeline::Object:
    return "-O2 --emit obj";
  }
  return "?";
}

SequenceReport checkSequence(const std::vector<std::string> &lines, const SequenceRun &run) {
  SequenceReport report;
  llvm::Expected<AssembledSequence> assembled = assembleSequence(lines);
  if (!assembled) {
    report.error = "does not assemble: " + llvm::toString(assembled.takeError());
    return report;
  }
  if (assembled->bytes.size() > layout::MaxCodeSize) {
    report.error = "longer than the code page holds";
    return report;
  }
  llvm::Expected<std::vector<Instr>> code = decodeSequence(*assembled);
  if (!code) {
    report.error = llvm::toString(code.takeError());
    return report;
  }
  report.instructions = unsigned(code->size());
  SequenceFlags analysis = sequenceFlags(*code);
  if (analysis.readsUndefined >= 0) {
    report.error = "harness error: " + (*code)[analysis.readsUndefined].text() +
                   " tests a flag an earlier instruction may leave undefined";
    return report;
  }
  std::vector<uint8_t> liftedBytes = assembled->bytes;
  if (run.liftedLines) {
    llvm::Expected<AssembledSequence> other = assembleSequence(*run.liftedLines);
    if (!other) {
      report.error = "the lifted lines do not assemble: " + llvm::toString(other.takeError());
      return report;
    }
    liftedBytes = other->bytes;
  }

  std::vector<std::unique_ptr<JitRunner>> lifted;
  for (Pipeline pipeline : run.pipelines) {
    llvm::Expected<std::unique_ptr<JitRunner>> runner =
        JitRunner::create(liftedBytes, layout::InstructionAddress, stepsOf(pipeline, run.keepIr));
    if (!runner) {
      report.error = std::string(pipelineName(pipeline)) +
                     ": cannot lift: " + llvm::toString(runner.takeError());
      return report;
    }
    lifted.push_back(std::move(*runner));
  }

  NativeRunner &native = NativeRunner::instance();
  native.load(assembled->bytes);
  StateGenerator generator(neutralInstr(), run.stateSeed);
  std::vector<uint8_t> initialArena, nativeArena(layout::ArenaSize);
  unsigned states = run.onlyState >= 0 ? unsigned(run.onlyState) + 1 : run.states;
  for (unsigned index = 0; index < states; ++index) {
    // Past the 64 flag combinations: every flag and DF random.
    CpuState in{};
    generator.generate(64 + index, in, initialArena);
    if (run.onlyState >= 0 && index != unsigned(run.onlyState))
      continue;
    std::memcpy(native.arena(), initialArena.data(), layout::ArenaSize);
    RunResult outNative = native.run(in);
    std::memcpy(nativeArena.data(), native.arena(), layout::ArenaSize);
    if (outNative.outcome == Outcome::HarnessError) {
      ++report.harnessErrors;
      continue;
    }
    report.nativeFaults += outNative.outcome == Outcome::Fault;
    uint32_t undefined = undefinedAtStop(outNative, *code, analysis);
    for (size_t p = 0; p < lifted.size(); ++p) {
      std::memcpy(native.arena(), initialArena.data(), layout::ArenaSize);
      RunResult outLifted;
      std::string error;
      if (!lifted[p]->run(in, outLifted, error)) {
        report.error = std::string(pipelineName(run.pipelines[p])) + ": " + error;
        return report;
      }
      ++report.executions;
      maskUndefined(outNative, outLifted, undefined, analysis);
      std::string differences = compareRuns(neutralInstr(), in, outNative, outLifted,
                                            nativeArena.data(), native.arena());
      if (differences.empty())
        continue;
      if (report.mismatchCount++ == 0 && run.keepIr)
        report.liftedIr = lifted[p]->ir();
      if (report.mismatches.size() < ReportedMismatches) {
        if (undefined)
          differences += " (masked: " + flagNames(undefined) + ")";
        report.mismatches.push_back({run.pipelines[p], index, differences,
                                     describeInput(neutralInstr(), in, initialArena.data())});
      }
    }
  }
  return report;
}

} // namespace hoist::test
