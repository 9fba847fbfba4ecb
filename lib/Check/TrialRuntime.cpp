#include "Check/TrialRuntime.h"

#include "Check/TrialGuard.h"
#include "hoist/State.h"

#include <llvm/ADT/STLExtras.h>

#include <bit>
#include <cstring>

namespace hoist::check {
namespace {

thread_local RunContext *activeRun = nullptr;

uint64_t mix(uint64_t hash, uint64_t value) {
  hash ^= value + 0x9e3779b97f4a7c15 + (hash << 6) + (hash >> 2);
  return hash * 0xff51afd7ed558ccd;
}

/// memcpy, memmove, memset, mempcpy and their _chk forms on host pointers.
void performOperation(const std::string &name, uint64_t destination, uint64_t source,
                      uint64_t size) {
  auto *to = reinterpret_cast<void *>(destination);
  if (name == "memset" || name == "__memset_chk")
    std::memset(to, int(source), size);
  else if (name == "memmove" || name == "__memmove_chk")
    std::memmove(to, reinterpret_cast<const void *>(source), size);
  else
    std::memcpy(to, reinterpret_cast<const void *>(source), size);
}

/// The host pointer a run's argument stands for.
uint64_t hostPointer(const RunContext &run, uint64_t value) {
  if (run.side == RunSide::Brightened)
    return value;
  return value + reinterpret_cast<uint64_t>(run.memory->liftedMemory());
}

uint64_t answer(RunContext &run, unsigned id, const uint64_t *integers, const uint64_t *floats) {
  const ImportPrototype &prototype = run.imports->imports[id];
  if (prototype.performs) {
    uint64_t destination = hostPointer(run, integers[0]);
    uint64_t source = prototype.name.starts_with("__memset") || prototype.name == "memset"
                          ? integers[1]
                          : hostPointer(run, integers[1]);
    performOperation(prototype.name, destination, source, integers[2]);
    // The destination back, or its end for mempcpy.
    return prototype.name.find("mempcpy") != std::string::npos ? integers[0] + integers[2]
                                                                : integers[0];
  }
  ImportCall call{id, {}};
  for (auto [i, bits] : llvm::enumerate(prototype.integerBits)) {
    uint64_t value = bits >= 64 ? integers[i] : integers[i] & ((uint64_t(1) << bits) - 1);
    call.arguments.push_back(run.side == RunSide::Lifted ? run.memory->canonicalLifted(value)
                                                         : run.memory->canonicalBrightened(value));
  }
  for (auto [i, bits] : llvm::enumerate(prototype.floatBits))
    call.arguments.push_back(
        {Canonical::Kind::Number, bits >= 64 ? floats[i] : floats[i] & 0xffffffffu});
  Canonical result = importAnswer(call, prototype);
  run.calls.push_back(std::move(call));
  if (prototype.noReturn)
    abandonTrial(TrialEnd::Exited, "a call that does not return");
  return run.side == RunSide::Lifted ? run.memory->liftedValue(result)
                                     : run.memory->brightenedValue(result);
}

extern "C" uint64_t hoist_check_brightened_import(uint64_t id, const uint64_t *arguments) {
  RunContext &run = *activeRun;
  const ImportPrototype &prototype = run.imports->imports[id];
  return answer(run, unsigned(id), arguments, arguments + prototype.integerBits.size());
}

extern "C" void hoist_check_lifted_import(HoistState *state, uint8_t *memory, uint64_t id) {
  RunContext &run = *activeRun;
  const ImportPrototype &prototype = run.imports->imports[id];
  // System V: six integer registers, then the stack above the return address.
  const uint64_t registers[6] = {state->RDI, state->RSI, state->RDX,
                                 state->RCX, state->R8,  state->R9};
  uint64_t integers[16] = {}, floats[8] = {};
  for (unsigned i = 0; i < prototype.integerBits.size() && i < 16; ++i)
    if (i < 6)
      integers[i] = registers[i];
    else
      std::memcpy(&integers[i], memory + state->RSP + 8 * (i - 5), 8);
  for (unsigned i = 0; i < prototype.floatBits.size() && i < 8; ++i)
    floats[i] = state->YMM[i].lanes[0];
  uint64_t result = answer(run, unsigned(id), integers, floats);
  uint64_t seed = run.clobberSeed + run.calls.size();
  auto garbage = [&] {
    seed = seed * 6364136223846793005u + 1442695040888963407u;
    return run.invertGarbage ? ~seed : seed;
  };
  for (uint64_t *scratch : {&state->RAX, &state->RCX, &state->RDX, &state->RSI, &state->RDI,
                            &state->R8, &state->R9, &state->R10, &state->R11})
    *scratch = garbage();
  for (hoist_V256 &vector : state->YMM)
    for (uint64_t &lane : vector.lanes)
      lane = garbage();
  switch (prototype.result) {
  case ImportPrototype::Result::Void:
    break;
  case ImportPrototype::Result::Float:
  case ImportPrototype::Result::Double:
    state->YMM[0].lanes[0] = result;
    state->YMM[0].lanes[1] = 0;
    break;
  default:
    state->RAX =
        prototype.resultBits >= 64 ? result : result & ((1ull << prototype.resultBits) - 1);
    break;
  }
  // The return: pop the address the call pushed, as the machine's `ret` in the import does.
  uint64_t returnAddress;
  std::memcpy(&returnAddress, memory + state->RSP, 8);
  state->RSP += 8;
  state->RIP = returnAddress;
}

extern "C" void hoist_check_end(uint64_t code) {
  switch (IntrinsicEnd(code)) {
  case IntrinsicEnd::Fault:
    abandonTrial(TrialEnd::Faulted, "a trap");
  case IntrinsicEnd::UnresolvedJump:
    abandonTrial(TrialEnd::Faulted, "an unresolved jump");
  default:
    abandonTrial(TrialEnd::Abandoned, "code the check does not run (an intrinsic)");
  }
}

} // namespace

ActiveRun::ActiveRun(RunContext &context) { activeRun = &context; }
ActiveRun::~ActiveRun() { activeRun = nullptr; }

std::vector<std::pair<const char *, void *>> trialCallbacks() {
  return {
      {"hoist_check_brightened_import", reinterpret_cast<void *>(hoist_check_brightened_import)},
      {"hoist_check_lifted_import", reinterpret_cast<void *>(hoist_check_lifted_import)},
      {"hoist_check_end", reinterpret_cast<void *>(hoist_check_end)},
  };
}

Canonical importAnswer(const ImportCall &call, const ImportPrototype &prototype) {
  uint64_t hash = mix(0x686f697374, call.id);
  for (const Canonical &argument : call.arguments)
    hash = mix(mix(hash, uint64_t(argument.kind)), argument.value);
  switch (prototype.result) {
  case ImportPrototype::Result::Pointer: {
    // 16-byte aligned, with room after it: malloc's result, or a pointer into a string.
    uint64_t room = ScratchMemory::HeapBytes - ScratchMemory::ArgumentHeapBytes - 256;
    return {Canonical::Kind::Heap, ScratchMemory::ArgumentHeapBytes + ((hash % room) & ~15ull)};
  }
  case ImportPrototype::Result::Float:
    return {Canonical::Kind::Number, std::bit_cast<uint32_t>(float(hash % 1000) / 8)};
  case ImportPrototype::Result::Double:
    return {Canonical::Kind::Number, std::bit_cast<uint64_t>(double(hash % 1000) / 8)};
  default:
    // Small results are what callers of most imports test (a count, an error code).
    return {Canonical::Kind::Number, hash % 4 == 0 ? hash : hash % 8};
  }
}

} // namespace hoist::check
