// What the stubs of CheckStubs.h call while a trial runs: the record of the imports each run
// calls, the answers they get, and the end of a trial at an intrinsic. The callbacks read the
// trial in progress from a thread-local pointer that the check sets around each run.
#pragma once

#include "Check/CheckStubs.h"
#include "Check/ScratchMemory.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hoist::check {

/// One import called by a run: its id (ImportTable) and arguments in both runs' terms.
struct ImportCall {
  unsigned id = 0;
  std::vector<Canonical> arguments;
  bool operator==(const ImportCall &) const = default;
};

enum class RunSide : uint8_t { Lifted, Brightened };

/// The run in progress, as the callbacks see it.
struct RunContext {
  RunSide side = RunSide::Lifted;
  const ImportTable *imports = nullptr;
  const ScratchMemory *memory = nullptr;
  std::vector<ImportCall> calls;
  /// The lifted run's imports leave the caller-saved registers they do not return in holding
  /// garbage drawn from this seed (complemented with `invertGarbage`), as a library function
  /// leaves its scratch: a function that reads one after the call reads no value of its own.
  uint64_t clobberSeed = 0;
  bool invertGarbage = false;
};

/// Makes `context` the run the callbacks record into, until the scope ends.
class ActiveRun {
public:
  explicit ActiveRun(RunContext &context);
  ~ActiveRun();
  ActiveRun(const ActiveRun &) = delete;
  ActiveRun &operator=(const ActiveRun &) = delete;
};

/// The addresses of the callbacks by their names in the stubs, for the JIT to resolve.
std::vector<std::pair<const char *, void *>> trialCallbacks();

/// The answer an import gives to `call`: the same canonical value in both runs, a pointer into
/// the heap's second half for a pointer result.
Canonical importAnswer(const ImportCall &call, const ImportPrototype &prototype);

} // namespace hoist::check
