/* Crossings between lifted code and native code: imports called by lifted code, native code
 * (libraries, the runtime) entering lifted functions, and the runtime intrinsics through which
 * lifted code hands over control it could not resolve (include/hoist/Lifter.h). */
#include "Runtime.h"

#include <stddef.h>
#include <string.h>

_Static_assert(offsetof(HoistNativeFrame, rax) == 48, "trampolines.S frame layout");
_Static_assert(offsetof(HoistNativeFrame, xmm) == 64, "trampolines.S frame layout");
_Static_assert(offsetof(HoistNativeFrame, st0) == 192, "trampolines.S frame layout");
_Static_assert(offsetof(HoistNativeFrame, st0Valid) == 208, "trampolines.S frame layout");

/* Pushes `value` on State's x87 stack as fld would: ST[i] is ST(i) (include/hoist/State.def),
 * TOP in FPU_SW bits 11..13, FPU_TW one valid bit per physical register. */
static void pushX87(HoistState *state, const uint8_t value[10]) {
  unsigned top = ((state->FPU_SW >> 11) - 1) & 7;
  memmove(&state->ST[1], &state->ST[0], 7 * sizeof state->ST[0]);
  memset(&state->ST[0], 0, sizeof state->ST[0]);
  memcpy(&state->ST[0], value, 10);
  state->FPU_SW = (uint16_t)((state->FPU_SW & ~(7u << 11)) | (top << 11));
  state->FPU_TW |= (uint16_t)(1u << top);
}

static const uint64_t StackArgumentWords = 32;

HoistCrossings hoist_crossings;

/* Indirect calls and jumps repeat their targets (a comparison function called through a
 * pointer for every pair): a direct-mapped cache in front of the binary search. An entry is
 * one pointer, read and written whole (relaxed atomics): a signal handler's lookups, or
 * another thread's, can then interrupt or overlap another lookup without it reading half of
 * their entry. All threads share the cache. */
enum { LookupCacheSize = 1024 };
static const HoistFunction *lookupCache[LookupCacheSize];

static const HoistFunction *searchTable(uint64_t address);

const HoistFunction *hoist_lookup(uint64_t address) {
  unsigned slot = (unsigned)((address >> 4) ^ (address >> 14)) & (LookupCacheSize - 1);
  const HoistFunction *cached = __atomic_load_n(&lookupCache[slot], __ATOMIC_RELAXED);
  if (cached && cached->address == address)
    return cached;
  const HoistFunction *function = searchTable(address);
  if (function)
    __atomic_store_n(&lookupCache[slot], function, __ATOMIC_RELAXED);
  return function;
}

static const HoistFunction *searchTable(uint64_t address) {
  const HoistFunction *functions = hoist_program.functions;
  uint64_t low = 0, high = hoist_program.functionCount;
  while (low < high) {
    uint64_t middle = low + (high - low) / 2;
    if (functions[middle].address < address)
      low = middle + 1;
    else
      high = middle;
  }
  if (low < hoist_program.functionCount && functions[low].address == address)
    return &functions[low];
  return 0;
}

static void frameFromState(HoistNativeFrame *frame, const HoistState *state) {
  frame->gpr[0] = state->RDI;
  frame->gpr[1] = state->RSI;
  frame->gpr[2] = state->RDX;
  frame->gpr[3] = state->RCX;
  frame->gpr[4] = state->R8;
  frame->gpr[5] = state->R9;
  frame->rax = state->RAX;
  frame->rdx = state->RDX;
  for (int i = 0; i < 8; ++i)
    memcpy(frame->xmm[i], &state->YMM[i], 16);
}

/* Calls native code at `function` as the call instruction lifted code made (the return
 * address is on the guest stack at RSP): arguments from State, results into State, and the
 * return address popped, as the callee's ret would. */
static void callNative(HoistState *state, uint64_t function) {
  HoistNativeFrame frame;
  frameFromState(&frame, state);
  uint64_t saved = hoist_guest_sp;
  hoist_guest_sp = state->RSP;   /* a callback's frames go below the caller's */
  hoist_native_call(&frame, function, (const uint64_t *)(state->RSP + 8));
  hoist_guest_sp = saved;
  state->RAX = frame.rax;
  state->RDX = frame.rdx;
  memcpy(&state->YMM[0], frame.xmm[0], 16);
  memcpy(&state->YMM[1], frame.xmm[1], 16);
  if (frame.st0Valid)
    pushX87(state, frame.st0);
  state->RIP = *(const uint64_t *)state->RSP;
  state->RSP += 8;
}

/* Called by an `import.NAME` body (lib/Translate/ImportCalls.cpp) whose GOT slot is empty. */
_Noreturn void hoist_missing_import(const char *name) {
  hoist_fatal("%s: the program called %s, which no library defines", hoist_program.path, name);
}

/* Called by an `import.NAME` body after a library call that returned a long double. */
/* A lifted callee came back elsewhere than its call site (translate's UnexpectedReturns.h). */
_Noreturn void hoist_unexpected_return(uint64_t target, uint64_t callSite) {
  hoist_fatal("%s: the function called at %#lx returned to %#lx instead of after the call "
              "(a rewritten return address is not supported)",
              hoist_program.path, (unsigned long)callSite, (unsigned long)target);
}

void hoist_push_x87_result(HoistState *state, const HoistNativeFrame *frame) {
  pushX87(state, frame->st0);
}

void hoist_run_lifted(const HoistFunction *function, HoistNativeFrame *frame,
                      const uint64_t *stackWords) {
  hoist_enter_thread();   /* a thread's first lifted code: its guest stack */
  hoist_run_lifted_below(function, frame, stackWords, hoist_guest_sp);
}

void hoist_run_lifted_below(const HoistFunction *function, HoistNativeFrame *frame,
                            const uint64_t *stackWords, uint64_t guestTop) {
  HoistState state = hoist_initial_state;
  state.FS_BASE = hoist_enter_thread();
  state.RDI = frame->gpr[0];
  state.RSI = frame->gpr[1];
  state.RDX = frame->gpr[2];
  state.RCX = frame->gpr[3];
  state.R8 = frame->gpr[4];
  state.R9 = frame->gpr[5];
  state.RAX = frame->rax;
  for (int i = 0; i < 8; ++i)
    memcpy(&state.YMM[i], frame->xmm[i], 16);
  /* The guest frame: below anything live, the stack arguments, then the return address
   * (RSP = 8 mod 16 at entry, as after a call). */
  uint64_t saved = hoist_guest_sp;
  uint64_t sp = (guestTop & ~(uint64_t)15) - 128 - StackArgumentWords * 8;
  if (stackWords)
    memcpy((void *)sp, stackWords, StackArgumentWords * 8);
  sp -= 8;
  *(uint64_t *)sp = HOIST_RETURN_SENTINEL;
  state.RSP = sp;
  state.RIP = function->address;
  hoist_guest_sp = sp;
  function->lifted(&state, 0);
  if (state.RIP != HOIST_RETURN_SENTINEL)
    hoist_fatal("%s: lifted code left the function at %#lx for %#lx instead of returning "
                "(a jump into the middle of a function is not supported)",
                hoist_program.path, (unsigned long)function->address, (unsigned long)state.RIP);
  hoist_guest_sp = saved;
  frame->rax = state.RAX;
  frame->rdx = state.RDX;
  memcpy(frame->xmm[0], &state.YMM[0], 16);
  memcpy(frame->xmm[1], &state.YMM[1], 16);
}

uint64_t hoist_call_lifted_at(uint64_t address, uint64_t a0, uint64_t a1, uint64_t a2) {
  const HoistFunction *function = hoist_lookup(address);
  if (!function)
    hoist_fatal("%s: no lifted code at %#lx", hoist_program.path, (unsigned long)address);
  HoistNativeFrame frame;
  memset(&frame, 0, sizeof frame);
  frame.gpr[0] = a0;
  frame.gpr[1] = a1;
  frame.gpr[2] = a2;
  hoist_run_lifted(function, &frame, 0);
  return frame.rax;
}

/* From hoist_callback_entry: native code called a patched function entry. `registers` holds
 * only the register part of a frame (no st0); the stack arguments are at `nativeStack`. */
void hoist_enter_from_native(const HoistFunction *function, HoistNativeFrame *registers,
                             const uint64_t *nativeStack) {
  hoist_count(&hoist_crossings.nativeEntries);
  HoistNativeFrame frame;
  memcpy(&frame, registers, offsetof(HoistNativeFrame, st0));
  hoist_run_lifted(function, &frame, nativeStack);
  registers->rax = frame.rax;
  registers->rdx = frame.rdx;
  memcpy(registers->xmm[0], frame.xmm[0], 16);
  memcpy(registers->xmm[1], frame.xmm[1], 16);
}

/* Control that lifted code could not resolve: a function in the table, native code outside
 * the image (a library function reached through a pointer), or nothing we can run. */
static void transfer(HoistState *state, void *memory, uint64_t target, const char *how) {
  hoist_count(&hoist_crossings.indirectTransfers);
  const HoistFunction *function = hoist_lookup(target);
  if (function) {
    state->RIP = target;
    function->lifted(state, memory);
    return;
  }
  if (hoist_in_executable_segment(target) || target == HOIST_RETURN_SENTINEL || target < 4096)
    hoist_fatal("%s: no lifted code at %#lx (%s; only function entries are reachable "
                "indirectly)", hoist_program.path, (unsigned long)target, how);
  callNative(state, target);
}

void __hoist_call(HoistState *state, void *memory, uint64_t target) {
  transfer(state, memory, target, "an indirect call");
}

void __hoist_jmp(HoistState *state, void *memory, uint64_t target) {
  transfer(state, memory, target, "an indirect jump");
}
