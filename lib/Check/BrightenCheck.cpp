#include "Check/BrightenCheck.h"

#include "Brighten/EmitObject.h"
#include "Check/CheckStubs.h"
#include "Check/ScratchMemory.h"
#include "Check/TrialArguments.h"
#include "Check/TrialGuard.h"
#include "Check/TrialRuntime.h"
#include "Support/Diagnostics.h"
#include "Support/Error.h"
#include "hoist/Lifter.h"
#include "hoist/Selectors.h"
#include "hoist/State.h"

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/SmallVectorMemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/TargetParser/Host.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

namespace hoist {
namespace {

using namespace check;

/// The return address the lifted run is entered with: no instruction of any image.
constexpr uint64_t SentinelReturn = 0x0badc0de5e771e00;
/// How far below the check's own frame the brightened run's stack may reach, for telling
/// its stack addresses (ScratchMemory::setNativeStack).
constexpr uint64_t NativeStackBytes = 16 << 20;

/// One element of what a function returns: where the lifted run holds it and how it compares.
struct ResultElement {
  HoistStateField field = HOIST_FIELD_RAX;
  unsigned element = 0;
  unsigned bytes = 8;
  bool isFloat = false; ///< a float or double: any NaN equals any NaN
};

struct CheckedFunction {
  const BrightenedFunction *info = nullptr;
  void (*enter)(HoistState *, void *) = nullptr;
  void (*call)(void *, void *) = nullptr;
  std::vector<ResultElement> results;
  std::string uncheckable; ///< why it cannot be run, if it cannot
};

uint8_t *statePointer(HoistState &state, HoistStateField field, unsigned element) {
  switch (field) {
  case HOIST_FIELD_RAX:
    return reinterpret_cast<uint8_t *>(&state.RAX);
  case HOIST_FIELD_RCX:
    return reinterpret_cast<uint8_t *>(&state.RCX);
  case HOIST_FIELD_RDX:
    return reinterpret_cast<uint8_t *>(&state.RDX);
  case HOIST_FIELD_RSI:
    return reinterpret_cast<uint8_t *>(&state.RSI);
  case HOIST_FIELD_RDI:
    return reinterpret_cast<uint8_t *>(&state.RDI);
  case HOIST_FIELD_R8:
    return reinterpret_cast<uint8_t *>(&state.R8);
  case HOIST_FIELD_R9:
    return reinterpret_cast<uint8_t *>(&state.R9);
  case HOIST_FIELD_YMM:
    return element < 16 ? reinterpret_cast<uint8_t *>(state.YMM[element].lanes) : nullptr;
  default:
    return nullptr;
  }
}

uint64_t mixSeed(uint64_t seed, uint64_t value) {
  uint64_t z = seed ^ (value * 0x9e3779b97f4a7c15);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

uint64_t threadPointer() {
  uint64_t pointer;
  asm("mov %%fs:0, %0" : "=r"(pointer));
  return pointer;
}

uint64_t hostXcr0() {
  uint32_t low, high;
  asm volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
  return uint64_t(high) << 32 | low;
}

/// What the function returns, element by element, from its brightened type and signature.
std::optional<std::vector<ResultElement>> resultElements(const llvm::Function &function,
                                                         const Signature &signature) {
  const llvm::DataLayout &layout = function.getParent()->getDataLayout();
  auto elementOf = [&](llvm::Type *type, ResultRegister where) -> ResultElement {
    return {where.field, where.element, unsigned(layout.getTypeStoreSize(type)),
            type->isFloatTy() || type->isDoubleTy()};
  };
  llvm::Type *result = function.getReturnType();
  if (result->isVoidTy())
    return std::vector<ResultElement>{};
  if (auto *record = llvm::dyn_cast<llvm::StructType>(result)) {
    std::vector<ResultRegister> registers = resultRegisters(signature);
    if (registers.size() != record->getNumElements())
      return std::nullopt;
    std::vector<ResultElement> elements;
    for (unsigned i = 0; i < record->getNumElements(); ++i)
      elements.push_back(elementOf(record->getElementType(i), registers[i]));
    return elements;
  }
  ResultRegister where{signature.returnsFloat ? HOIST_FIELD_YMM : HOIST_FIELD_RAX, 0};
  return std::vector<ResultElement>{elementOf(result, where)};
}

/// Why the check cannot pass `signature`'s arguments, if it cannot.
std::optional<std::string> unpassable(const Signature &signature) {
  HoistState probe{};
  for (const Signature::Argument &argument : signature.arguments)
    if (!argument.onStack && !statePointer(probe, argument.field, argument.element))
      return "takes an argument in " + parameterName(argument);
  return std::nullopt;
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> compile(llvm::Module &module) {
  llvm::SmallVector<char, 0> bytes;
  llvm::raw_svector_ostream stream(bytes);
  // This machine's features: lifted code calls the x86 intrinsics its instructions need.
  if (llvm::Error error =
          emitHostObject(module, stream, /*forThisCpu=*/true, llvm::CodeGenOptLevel::None))
    return std::move(error);
  return std::make_unique<llvm::SmallVectorMemoryBuffer>(std::move(bytes),
                                                         module.getModuleIdentifier(), false);
}

/// One run's end and what it left.
struct RunRecord {
  TrialOutcome outcome;
  uint8_t result[64] = {};
  /// The lifted run's result bits that another draw of the garbage registers changed.
  uint8_t undefinedResult[64] = {};
  ScratchMemory::Snapshot memory;
  std::vector<ImportCall> calls;
};

struct LiftedCall {
  void (*enter)(HoistState *, void *);
  HoistState *state;
  void *memory;
};

struct BrightenedCall {
  void (*call)(void *, void *);
  void *arguments;
  void *result;
};

class Checker {
public:
  Checker(ScratchMemory &memory, const ImportTable &imports, const BrightenCheckOptions &options)
      : memory_(memory), imports_(imports), options_(options), guard_(options.millisecondsPerRun) {
    llvm::TargetLibraryInfoImpl library{llvm::Triple(llvm::sys::getDefaultTargetTriple())};
    for (const ImportPrototype &prototype : imports.imports) {
      llvm::LibFunc known;
      knownToLlvm_.push_back(library.getLibFunc(prototype.name, known));
    }
  }

  /// The function's verdict: the difference, empty if none, nullopt without a verdict (with
  /// `why` saying the last reason).
  std::optional<std::string> check(const CheckedFunction &function, std::string &why);

private:
  /// With `invertGarbage`, the registers the signature does not name hold the complement of
  /// what they hold otherwise.
  RunRecord runLifted(const CheckedFunction &function, const std::vector<TrialArgument> &arguments,
                      uint64_t heapSeed, uint64_t garbageSeed, bool invertGarbage);
  RunRecord runBrightened(const CheckedFunction &function,
                          const std::vector<TrialArgument> &arguments, uint64_t heapSeed);
  /// The difference of two runs that both returned (or both exited: no result to compare),
  /// empty if none; nullopt for no verdict.
  std::optional<std::string> compare(const CheckedFunction &function, const RunRecord &lifted,
                                     const RunRecord &brightened, bool results, std::string &why);
  std::string describeCall(const ImportCall &call) const;

  ScratchMemory &memory_;
  const ImportTable &imports_;
  const BrightenCheckOptions &options_;
  TrialGuard guard_;
  std::vector<bool> knownToLlvm_;
};

RunRecord Checker::runLifted(const CheckedFunction &function,
                             const std::vector<TrialArgument> &arguments, uint64_t heapSeed,
                             uint64_t garbageSeed, bool invertGarbage) {
  memory_.fillHeap(heapSeed);
  memory_.restoreData();
  auto state = std::make_unique<HoistState>();
  std::memset(state.get(), 0, sizeof(HoistState));
  hoist_read_selectors(state.get());
  state->MXCSR = 0x1f80;
  state->FPU_CW = 0x37f;
  state->XCR0 = hostXcr0();
  uint64_t memoryBias = reinterpret_cast<uint64_t>(memory_.liftedMemory());
  state->FS_BASE = threadPointer() - memoryBias;
  // Registers the signature does not name hold garbage: a function that reads one the
  // signature missed computes something else than its brightened form.
  std::mt19937_64 random(garbageSeed);
  auto garbage = [&] { return invertGarbage ? ~random() : random(); };
  for (uint64_t *reg : {&state->RAX, &state->RBX, &state->RCX, &state->RDX, &state->RSI,
                        &state->RDI, &state->RBP, &state->R8, &state->R9, &state->R10, &state->R11,
                        &state->R12, &state->R13, &state->R14, &state->R15})
    *reg = garbage();
  for (unsigned i = 0; i < 16; ++i)
    for (uint64_t &lane : state->YMM[i].lanes)
      lane = garbage();
  // The stack: the return address at RSP, RSP + 8 aligned to 16 as the ABI has it at a call,
  // stack arguments above it.
  uint8_t *top = memory_.liftedStackTop() - 4096;
  // Below it, garbage as in the registers: a lift that reads a slot it never wrote (an
  // out-parameter the import stubs leave unwritten, as clock_gettime's or mbrtowc's) then
  // computes something else in the complemented run, so that read is not compared with the
  // brightened run's, whose slot is undefined.
  std::mt19937_64 stackRandom(garbageSeed ^ 0x5354414b);
  for (uint8_t *word = memory_.liftedStackTop() - ScratchMemory::StackBytes; word < top;
       word += 8) {
    uint64_t value = invertGarbage ? ~stackRandom() : stackRandom();
    std::memcpy(word, &value, 8);
  }
  uint8_t *returnSlot = top - 8;
  std::memcpy(returnSlot, &SentinelReturn, 8);
  state->RSP = reinterpret_cast<uint64_t>(returnSlot) - memoryBias;
  for (const TrialArgument &argument : arguments) {
    const Signature::Argument &parameter = *argument.parameter;
    uint64_t value = memory_.liftedValue(argument.value) | argument.upperGarbage;
    if (parameter.onStack) {
      std::memcpy(top + 8 * parameter.element, &value, 8);
      continue;
    }
    uint8_t *reg = statePointer(*state, parameter.field, parameter.element);
    if (parameter.isFloat)
      std::memcpy(reg, argument.bits, parameter.bits == 128 ? 16 : 8);
    else
      std::memcpy(reg, &value, 8);
  }
  RunRecord record;
  RunContext context{RunSide::Lifted, &imports_, &memory_, {}, garbageSeed, invertGarbage};
  {
    ActiveRun active(context);
    LiftedCall call{function.enter, state.get(), memory_.liftedMemory()};
    record.outcome = guard_.run(
        [](void *data) {
          auto *call = static_cast<LiftedCall *>(data);
          call->enter(call->state, call->memory);
        },
        &call);
  }
  if (record.outcome.end == TrialEnd::Returned && state->RIP != SentinelReturn)
    record.outcome = {TrialEnd::Faulted, "a return somewhere other than to its caller"};
  for (auto [index, element] : llvm::enumerate(function.results))
    std::memcpy(record.result + 16 * index, statePointer(*state, element.field, element.element),
                element.bytes);
  record.memory = memory_.liftedSnapshot();
  record.calls = std::move(context.calls);
  return record;
}

RunRecord Checker::runBrightened(const CheckedFunction &function,
                                 const std::vector<TrialArgument> &arguments, uint64_t heapSeed) {
  memory_.fillHeap(heapSeed);
  memory_.restoreData();
  // The call thunk reads each parameter from a 16-byte slot (CheckStubs.h).
  std::vector<uint8_t> slots(16 * std::max<size_t>(arguments.size(), 1), 0);
  for (auto [index, argument] : llvm::enumerate(arguments)) {
    if (argument.parameter->isFloat) {
      std::memcpy(&slots[16 * index], argument.bits, 16);
    } else {
      uint64_t value = memory_.brightenedValue(argument.value);
      std::memcpy(&slots[16 * index], &value, 8);
    }
  }
  RunRecord record;
  RunContext context{RunSide::Brightened, &imports_, &memory_, {}};
  {
    ActiveRun active(context);
    BrightenedCall call{function.call, slots.data(), record.result};
    record.outcome = guard_.run(
        [](void *data) {
          auto *call = static_cast<BrightenedCall *>(data);
          call->call(call->arguments, call->result);
        },
        &call);
  }
  record.memory = memory_.brightenedSnapshot();
  record.calls = std::move(context.calls);
  return record;
}

std::string Checker::describeCall(const ImportCall &call) const {
  std::string text = imports_.imports[call.id].name + "(";
  for (auto [index, argument] : llvm::enumerate(call.arguments))
    text += (index ? ", " : "") + argument.describe();
  return text + ")";
}

std::optional<std::string> Checker::compare(const CheckedFunction &function,
                                            const RunRecord &lifted, const RunRecord &brightened,
                                            bool results, std::string &why) {
  if (lifted.calls != brightened.calls) {
    for (const std::vector<ImportCall> *calls : {&lifted.calls, &brightened.calls})
      for (const ImportCall &call : *calls)
        if (knownToLlvm_[call.id]) {
          // The optimizer may fold, drop or rewrite calls of a library function it knows.
          why = "calls of " + imports_.imports[call.id].name + ", which LLVM may rewrite, differ";
          return std::nullopt;
        }
    size_t at = 0;
    while (at < lifted.calls.size() && at < brightened.calls.size() &&
           lifted.calls[at] == brightened.calls[at])
      ++at;
    auto nth = [&](const std::vector<ImportCall> &calls) {
      return at < calls.size() ? "calls " + describeCall(calls[at]) : std::string("calls nothing");
    };
    return llvm::formatv("after {0} same import calls, {1} in the lift and {2} brightened", at,
                         nth(lifted.calls), nth(brightened.calls))
        .str();
  }
  for (auto [index, element] : llvm::enumerate(function.results)) {
    if (!results)
      break;
    uint8_t left[16], right[16];
    for (unsigned i = 0; i < element.bytes; ++i) {
      // Bits the machine code leaves as its caller's garbage are no result of its own.
      uint8_t defined = uint8_t(~lifted.undefinedResult[16 * index + i]);
      left[i] = lifted.result[16 * index + i] & defined;
      right[i] = brightened.result[16 * index + i] & defined;
    }
    if (std::memcmp(left, right, element.bytes) == 0)
      continue;
    // A vector of integers may hold pointers in its lanes (gcc builds a two-pointer struct in
    // an xmm register): each lane is compared as a value, as an integer result is.
    if (!element.isFloat && element.bytes > 8 && element.bytes % 8 == 0) {
      bool same = true;
      for (unsigned lane = 0; lane < element.bytes && same; lane += 8) {
        uint64_t x = 0, y = 0;
        std::memcpy(&x, left + lane, 8);
        std::memcpy(&y, right + lane, 8);
        same = memory_.sameValue(x, y);
      }
      if (same)
        continue;
    }
    uint64_t a = 0, b = 0;
    std::memcpy(&a, left, std::min(element.bytes, 8u));
    std::memcpy(&b, right, std::min(element.bytes, 8u));
    if (element.isFloat) {
      bool bothNan = element.bytes == 4 ? std::isnan(std::bit_cast<float>(uint32_t(a))) &&
                                              std::isnan(std::bit_cast<float>(uint32_t(b)))
                                        : std::isnan(std::bit_cast<double>(a)) &&
                                              std::isnan(std::bit_cast<double>(b));
      if (bothNan)
        continue;
    }
    if (element.bytes == 8 && !element.isFloat) {
      if (memory_.sameValue(a, b))
        continue;
      return llvm::formatv("returns {0} in the lift and {1} brightened (result element {2})",
                           memory_.canonicalLifted(a).describe(),
                           memory_.canonicalBrightened(b).describe(), index)
          .str();
    }
    return llvm::formatv("returns {0:x} in the lift and {1:x} brightened (result element {2})", a,
                         b, index)
        .str();
  }
  std::string memory = memory_.firstDifference(lifted.memory, brightened.memory);
  if (!memory.empty())
    return "leaves " + memory;
  return std::string();
}

std::optional<std::string> Checker::check(const CheckedFunction &function, std::string &why) {
  const BrightenedFunction &info = *function.info;
  uint64_t functionSeed = mixSeed(options_.seed, info.address);
  bool verdict = false;
  for (unsigned trial = 0; trial < options_.trialsPerFunction; ++trial) {
    std::mt19937_64 random(mixSeed(functionSeed, trial));
    std::vector<TrialArgument> arguments = drawArguments(info.signature, random);
    uint64_t heapSeed = random(), garbageSeed = random();
    RunRecord lifted = runLifted(function, arguments, heapSeed, garbageSeed, false);
    // Again with the complement of that garbage in the registers the signature does not
    // name and in the stack: the bits that change are the machine code's caller's garbage
    // or a slot it read unwritten, which no brightened function can return.
    RunRecord again = runLifted(function, arguments, heapSeed, garbageSeed, true);
    if (again.outcome.end != lifted.outcome.end || again.calls != lifted.calls ||
        !memory_.firstDifference(lifted.memory, again.memory).empty()) {
      why = "the lift's effects depend on registers its signature does not name or on stack "
            "it did not write";
      continue;
    }
    for (unsigned i = 0; i < sizeof lifted.result; ++i)
      lifted.undefinedResult[i] = lifted.result[i] ^ again.result[i];
    RunRecord brightened = runBrightened(function, arguments, heapSeed);
    auto differs = [&](const std::string &what) {
      return llvm::formatv("with {0} (seed {1}, trial {2}) it {3}", describeArguments(arguments),
                           options_.seed, trial, what)
          .str();
    };
    TrialEnd left = lifted.outcome.end, right = brightened.outcome.end;
    if (left == TrialEnd::TimedOut || left == TrialEnd::Abandoned) {
      why = "the lift ran " + lifted.outcome.detail;
      continue;
    }
    if (right == TrialEnd::TimedOut || right == TrialEnd::Abandoned) {
      why = "the brightened function ran " + brightened.outcome.detail;
      continue;
    }
    if (left == TrialEnd::Faulted && right == TrialEnd::Faulted) {
      why = "both runs fault";
      continue;
    }
    auto ending = [&](const RunRecord &run, bool isLifted) {
      if (run.outcome.end == TrialEnd::Returned)
        return std::string("returns");
      std::string text = "ends with " + run.outcome.detail;
      if (run.outcome.faultAddress) {
        uint64_t host = *run.outcome.faultAddress;
        Canonical at =
            isLifted ? memory_.canonicalLifted(host - reinterpret_cast<uint64_t>(
                                                          memory_.liftedMemory()))
                     : memory_.canonicalBrightened(host);
        text += " at " + at.describe();
      }
      return text;
    };
    if (left != right)
      return differs(ending(lifted, true) + " in the lift and " + ending(brightened, false) +
                     " brightened");
    std::optional<std::string> difference =
        compare(function, lifted, brightened, left == TrialEnd::Returned, why);
    if (!difference)
      continue;
    if (!difference->empty())
      return differs(*difference);
    verdict = true;
  }
  if (!verdict)
    return std::nullopt;
  return std::string();
}

/// A function's verdict: the difference (empty: the same), or nullopt and why not.
struct Verdict {
  std::optional<std::string> difference;
  std::string why;
};

/// Runs the trials of `checked` from `first` on in a child process, which writes a line per
/// function to `out`: `S <index>` as it starts one, then `V <index> <D|S|U> <text>`.
[[noreturn]] void runChild(const std::vector<CheckedFunction> &checked, size_t first,
                           ScratchMemory &memory, const ImportTable &imports,
                           const BrightenCheckOptions &options, int out) {
  FILE *stream = fdopen(out, "w");
  Checker checker(memory, imports, options);
  for (size_t index = first; index < checked.size(); ++index) {
    const CheckedFunction &function = checked[index];
    fprintf(stream, "S %zu\n", index);
    fflush(stream);
    std::string why = function.uncheckable;
    std::optional<std::string> difference;
    if (why.empty())
      difference = checker.check(function, why);
    char kind = !difference ? 'U' : difference->empty() ? 'S' : 'D';
    std::string text = difference ? *difference : why;
    std::replace(text.begin(), text.end(), '\n', ' ');
    fprintf(stream, "V %zu %c %s\n", index, kind, text.c_str());
    fflush(stream);
  }
  _exit(0);
}

/// The verdicts of `checked`, from trials run in child processes: a trial may write anywhere
/// (a wild pointer of the function under test, in either run), which must not touch Hoist.
/// A child that dies leaves the function it was running unchecked, and a new child goes on
/// with the next.
std::vector<Verdict> runInChildren(const std::vector<CheckedFunction> &checked,
                                   ScratchMemory &memory, const ImportTable &imports,
                                   const BrightenCheckOptions &options) {
  std::vector<Verdict> verdicts(checked.size());
  size_t next = 0;
  while (next < checked.size()) {
    size_t before = next;
    int pipes[2];
    if (pipe(pipes) != 0) {
      for (size_t i = next; i < checked.size(); ++i)
        verdicts[i].why = "the check could not start a process for its trials";
      break;
    }
    fflush(nullptr);
    pid_t child = fork();
    if (child == 0) {
      close(pipes[0]);
      runChild(checked, next, memory, imports, options, pipes[1]);
    }
    close(pipes[1]);
    std::optional<size_t> running;
    if (child > 0) {
      FILE *stream = fdopen(pipes[0], "r");
      char *line = nullptr;
      size_t capacity = 0;
      while (getline(&line, &capacity, stream) > 0) {
        llvm::StringRef text = llvm::StringRef(line).rtrim("\n");
        auto [tag, rest] = text.split(' ');
        auto [number, remainder] = rest.split(' ');
        size_t index = 0;
        if (number.getAsInteger(10, index) || index >= checked.size())
          continue;
        if (tag == "S") {
          running = index;
          continue;
        }
        auto [kind, said] = remainder.split(' ');
        if (kind == "S" || kind == "D")
          verdicts[index].difference = kind == "S" ? std::string() : said.str();
        else
          verdicts[index].why = said.str();
        running.reset();
        next = index + 1;
      }
      free(line);
      fclose(stream);
    } else {
      close(pipes[0]);
    }
    int status = 0;
    if (child > 0)
      waitpid(child, &status, 0);
    if (!running) {
      // Done, or a child that made no progress: the rest stays unchecked.
      if (next != before)
        continue;
      for (size_t i = next; i < checked.size(); ++i)
        verdicts[i].why = "the check could not run a process for its trials";
      break;
    }
    verdicts[*running].why =
        WIFSIGNALED(status) ? llvm::formatv("its trials ended the check's process with signal {0}",
                                            WTERMSIG(status))
                                  .str()
                            : std::string("its trials ended the check's process");
    next = *running + 1;
  }
  return verdicts;
}

std::string displayName(const BrightenedFunction &function) {
  // As brightening names a declined function: `0x1139 (clamp_index)`.
  return llvm::formatv("{0:x} ({1})", function.address, function.name).str();
}

} // namespace

llvm::Expected<BrightenCheckReport>
checkBrightenedFunctions(std::unique_ptr<llvm::Module> lifted,
                         std::unique_ptr<llvm::Module> brightened, const Image &image,
                         const std::vector<BrightenedFunction> &functions,
                         CallingConvention convention, const BrightenCheckOptions &options,
                         DiagnosticSink &diagnostics) {
  BrightenCheckReport report;
  auto summary = [&] {
    diagnostics.report(
        Severity::Note, "brighten-check", std::nullopt,
        llvm::formatv("brighten-check: {0} brightened functions run against their lift with "
                      "seed {1}, {2} trials each: {3} same, {4} without a verdict, {5} "
                      "different",
                      functions.size(), options.seed, options.trialsPerFunction, report.passed,
                      report.unchecked, report.differs.size()));
    return report;
  };
  auto uncheckedAll = [&](const std::string &why) {
    for (const BrightenedFunction &function : functions) {
      diagnostics.report(Severity::Note, "brighten-check-unchecked", function.address,
                         displayName(function) + ": not checked: " + why);
      ++report.unchecked;
    }
    return summary();
  };
  if (functions.empty())
    return summary();
  if (convention != CallingConvention::SysV)
    return uncheckedAll("the check calls System V functions only");
  llvm::Expected<std::unique_ptr<ScratchMemory>> memory = ScratchMemory::create(image);
  if (!memory)
    return uncheckedAll(llvm::toString(memory.takeError()));

  std::map<uint64_t, llvm::Function *> liftedAt;
  for (llvm::Function &function : *lifted)
    if (!function.isDeclaration() && !function.hasFnAttribute("hoist-not-lifted"))
      if (std::optional<uint64_t> entry = entryAddressOf(function))
        liftedAt.emplace(*entry, &function);
  std::vector<CheckedFunction> checked(functions.size());
  for (auto [index, function] : llvm::enumerate(functions)) {
    CheckedFunction &entry = checked[index];
    entry.info = &function;
    llvm::Function *bright = brightened->getFunction(function.name);
    auto found = liftedAt.find(function.address);
    std::optional<std::vector<ResultElement>> results;
    if (!bright || bright->isDeclaration() || found == liftedAt.end())
      entry.uncheckable = "its lift or brightened form is not in the modules";
    else if (function.address == image.entryPoint())
      entry.uncheckable = "the image's entry point, which the kernel enters with no return "
                          "address";
    else if (std::optional<std::string> why = unpassable(function.signature))
      entry.uncheckable = *why;
    else if (!(results = resultElements(*bright, function.signature)))
      entry.uncheckable = "its result is not one the check reads";
    if (!entry.uncheckable.empty())
      continue;
    entry.results = std::move(*results);
    addCallThunk(*bright, llvm::formatv("hoist.check.call.{0}", index).str());
    addEntryThunk(*found->second, llvm::formatv("hoist.check.enter.{0}", index).str());
  }
  ImportTable imports;
  std::vector<std::pair<std::string, uint64_t>> pendingShared;
  std::set<std::string> brightenedImports;
  for (const llvm::Function &function : *brightened)
    if (function.isDeclaration() && !function.isIntrinsic())
      brightenedImports.insert(function.getName().str());
  // The objects the image holds copies of (R_X86_64_COPY: `stdout`, `optind`) are the lifted
  // run's copies in the brightened run too: one object, as in the process.
  std::set<std::string> sharedNames;
  std::vector<std::pair<uint64_t, uint64_t>> sharedExtents;
  for (const CopiedObject &object : image.copiedObjects())
    if (const llvm::GlobalVariable *global = brightened->getNamedGlobal(object.name);
        global && global->isDeclaration()) {
      sharedNames.insert(object.name);
      pendingShared.emplace_back(object.name, object.address);
      sharedExtents.emplace_back(object.address, object.size);
    }
  (*memory)->setSharedObjects(std::move(sharedExtents));
  addBrightenedStubs(*brightened, imports, sharedNames);
  addLiftedStubs(*lifted, imports);
  std::vector<std::string> carriedNames =
      addCarriedSectionTable(*brightened, "hoist.check.carried");

  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> liftedObject = compile(*lifted);
  if (!liftedObject)
    return liftedObject.takeError();
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> brightenedObject = compile(*brightened);
  if (!brightenedObject)
    return brightenedObject.takeError();
  llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit = llvm::orc::LLJITBuilder().create();
  if (!jit)
    return jit.takeError();
  llvm::orc::MangleAndInterner mangle((*jit)->getExecutionSession(), (*jit)->getDataLayout());
  llvm::orc::SymbolMap callbacks;
  for (auto [name, address] : trialCallbacks())
    callbacks[mangle(name)] = llvm::orc::ExecutorSymbolDef(
        llvm::orc::ExecutorAddr::fromPtr(address), llvm::JITSymbolFlags::Exported);
  std::vector<llvm::orc::JITDylib *> dylibs;
  for (const char *name : {"hoist.check.lifted", "hoist.check.brightened"}) {
    llvm::Expected<llvm::orc::JITDylib &> dylib = (*jit)->createJITDylib(name);
    if (!dylib)
      return dylib.takeError();
    if (llvm::Error error = dylib->define(llvm::orc::absoluteSymbols(callbacks)))
      return std::move(error);
    // What code generation calls on its own (memcpy for a large copy, __udivti3): the host's.
    llvm::Expected<std::unique_ptr<llvm::orc::DynamicLibrarySearchGenerator>> host =
        llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
            (*jit)->getDataLayout().getGlobalPrefix());
    if (!host)
      return host.takeError();
    dylib->addGenerator(std::move(*host));
    dylibs.push_back(&*dylib);
  }
  if (llvm::Error error = (*jit)->addObjectFile(*dylibs[0], std::move(*liftedObject)))
    return std::move(error);
  llvm::orc::SymbolMap sharedObjects;
  for (const auto &[name, address] : pendingShared)
    sharedObjects[mangle(name)] = llvm::orc::ExecutorSymbolDef(
        llvm::orc::ExecutorAddr::fromPtr((*memory)->liftedMemory() + address),
        llvm::JITSymbolFlags::Exported);
  if (!sharedObjects.empty())
    if (llvm::Error error = dylibs[1]->define(llvm::orc::absoluteSymbols(sharedObjects)))
      return std::move(error);
  if (llvm::Error error = (*jit)->addObjectFile(*dylibs[1], std::move(*brightenedObject)))
    return std::move(error);
  llvm::Expected<llvm::orc::ExecutorAddr> table = (*jit)->lookup(*dylibs[1], "hoist.check.carried");
  if (!table)
    return table.takeError();
  std::vector<CarriedSection> carried;
  for (auto [index, name] : llvm::enumerate(carriedNames)) {
    struct Entry {
      uint8_t *host;
      uint64_t size;
    };
    const Entry &entry = table->toPtr<const Entry *>()[index];
    auto section = llvm::find_if(image.sections(),
                                 [&](const Section &section) { return section.name == name; });
    if (section == image.sections().end())
      continue;
    // The global starts at the section's address rounded down to 64 (ImageData.cpp).
    carried.push_back(
        {section->address & ~uint64_t(63), entry.host, entry.size, section->writable});
  }
  (*memory)->setCarriedSections(std::move(carried));
  // Each import's slot holds, in the lifted run, a value that stands for the import (a weak
  // one's null test then goes the way the brightened run's test of its stub's address goes).
  std::vector<std::pair<uint64_t, uint64_t>> importAddresses;
  for (auto [id, prototype] : llvm::enumerate(imports.imports)) {
    uint64_t host = 0;
    if (brightenedImports.count(prototype.name)) {
      if (llvm::Expected<llvm::orc::ExecutorAddr> stub = (*jit)->lookup(*dylibs[1], prototype.name))
        host = stub->getValue();
      else
        llvm::consumeError(stub.takeError());
    }
    importAddresses.emplace_back(ScratchMemory::liftedImportValue(unsigned(id)), host);
  }
  (*memory)->setImportAddresses(std::move(importAddresses));
  for (const Import &import : image.imports())
    if (auto id = imports.idByName.find(import.name);
        import.slotAddress && !import.object && id != imports.idByName.end())
      (*memory)->writeImportSlot(import.slotAddress, id->second);
  std::vector<std::pair<uint64_t, uint64_t>> codeAddresses;
  for (const BrightenedFunction &function : functions)
    if (llvm::Expected<llvm::orc::ExecutorAddr> host = (*jit)->lookup(*dylibs[1], function.name))
      codeAddresses.emplace_back(host->getValue(), function.address);
    else
      llvm::consumeError(host.takeError());
  (*memory)->setCodeAddresses(std::move(codeAddresses));
  char marker = 0;
  (*memory)->setNativeStack(&marker, NativeStackBytes);

  for (auto [index, entry] : llvm::enumerate(checked)) {
    if (!entry.uncheckable.empty())
      continue;
    llvm::Expected<llvm::orc::ExecutorAddr> call =
        (*jit)->lookup(*dylibs[1], llvm::formatv("hoist.check.call.{0}", index).str());
    llvm::Expected<llvm::orc::ExecutorAddr> enter =
        (*jit)->lookup(*dylibs[0], llvm::formatv("hoist.check.enter.{0}", index).str());
    if (!call || !enter) {
      entry.uncheckable = "the JIT did not link it: " + (call ? llvm::toString(enter.takeError())
                                                              : llvm::toString(call.takeError()));
      if (!enter)
        llvm::consumeError(enter.takeError());
      continue;
    }
    entry.call = call->toPtr<void (*)(void *, void *)>();
    entry.enter = enter->toPtr<void (*)(HoistState *, void *)>();
  }

  std::vector<Verdict> verdicts = runInChildren(checked, **memory, imports, options);
  for (auto [function, verdict] : llvm::zip(checked, verdicts)) {
    const BrightenedFunction &info = *function.info;
    if (!verdict.difference) {
      diagnostics.report(Severity::Note, "brighten-check-unchecked", info.address,
                         displayName(info) + ": no trial had a verdict (" + verdict.why + ")");
      ++report.unchecked;
    } else if (verdict.difference->empty()) {
      ++report.passed;
    } else {
      diagnostics.warning("brighten-check-differs", info.address,
                          displayName(info) +
                              ": its brightened form computes something else than its lift: " +
                              *verdict.difference);
      report.differs[info.address] = *verdict.difference;
    }
  }
  return summary();
}

} // namespace hoist
