/* Private to the translation runtime: what its files share. */
#ifndef HOIST_RUNTIME_H
#define HOIST_RUNTIME_H

#include "HoistProgram.h"

#include <stdint.h>

/* The return address the runtime pushes when it enters lifted code: never a code address. */
#define HOIST_RETURN_SENTINEL 0x0000484f49535452ull /* "RTSIOH" */
/* The size of each thread's guest stack (reserved, not committed). */
#define HOIST_GUEST_STACK_SIZE (64ull << 20)
/* Exit status of a translated program that reaches something the translation cannot run. */
#define HOIST_EXIT_UNSUPPORTED 70

/* The registers of a native call, as trampolines.S loads and stores them. */
typedef struct HoistNativeFrame {
  uint64_t gpr[6]; /* rdi, rsi, rdx, rcx, r8, r9 */
  uint64_t rax, rdx;
  uint8_t xmm[8][16];
  uint8_t st0[16];    /* a long double result (80 bits), when st0Valid */
  uint64_t st0Valid;
} HoistNativeFrame;

/* trampolines.S */
/* Passes 32 words at `stack` as the first stack arguments. */
void hoist_native_call(HoistNativeFrame *frame, uint64_t function, const uint64_t *stack);
void hoist_callback_entry(void);

/* startup.c */
extern HoistState hoist_initial_state;
/* Where lifted code entered from native code may put its guest stack frames (below), in the
 * thread that runs it: lifted code stores it before library calls that may call back. */
extern _Thread_local uint64_t hoist_guest_sp;
int hoist_in_executable_segment(uint64_t address);

/* calls.c */
const HoistFunction *hoist_lookup(uint64_t address);
/* Runs the lifted function at `address` as a native call with `frame`'s registers (and
 * `stackWords` stack words) would, on the guest stack; results back into `frame`. */
void hoist_run_lifted(const HoistFunction *function, HoistNativeFrame *frame, const uint64_t *stackWords);
/* The same with the guest frames below `guestTop` instead of below hoist_guest_sp. */
void hoist_run_lifted_below(const HoistFunction *function, HoistNativeFrame *frame,
                            const uint64_t *stackWords, uint64_t guestTop);
uint64_t hoist_call_lifted_at(uint64_t address, uint64_t a0, uint64_t a1, uint64_t a2);

/* copies.c */
/* The program's COPY variable at `program` was initialized from the library's at `library`. */
void hoist_add_copy(uint64_t program, uint64_t library, uint64_t size);
/* Points the libraries' relocated references to the copied objects at the program's copies. */
void hoist_redirect_copies(void);

/* threads.c */
/* Gives the calling thread its guest stack (if hoist_guest_sp has none yet) and its guest
 * thread control block, once; returns the block's address, State's FS_BASE in this thread. */
uint64_t hoist_enter_thread(void);
/* The same for the main thread, whose guest stack the runtime built at `guestStackPointer`. */
uint64_t hoist_start_main_thread(uint64_t guestStackPointer);
/* Where a library's thread-local `variable` (its address in this thread) is from this
 * thread's guest thread pointer: the same in every thread (a TPOFF64 slot's value). */
uint64_t hoist_library_thread_pointer_offset(uint64_t variable);
/* pthread_create and thrd_create: their start routine is the program's code. */
uint64_t hoist_thread_replacement(const char *symbol);

/* signals.c */
/* Where the next signal handler of the program in this thread puts its guest frames (below). */
extern _Thread_local uint64_t hoist_signal_stack_top;
/* Frees the calling thread's area for handlers' guest frames (the thread is ending). */
void hoist_free_signal_stack(void);
/* Whether the program's own handler (lifted code) runs if `signal` is raised now. */
int hoist_guest_handles(int signal);
/* The runtime's function the program calls for library function `symbol` (signal, sigaction,
 * ...: they take and return handlers, which are the program's code), or 0. */
uint64_t hoist_signal_replacement(const char *symbol);

/* nonlocal.c */
/* The same for longjmp and its variants. */
uint64_t hoist_jump_replacement(const char *symbol);

/* How often control crossed between lifted and native code; printed at exit when the
 * environment has HOIST_TRANSLATE_STATS (tests check that callbacks reach lifted code).
 * Counted without a lock (hoist_count): threads running at once may lose counts.
 * Library calls are not counted: they are inlined into the lifted loops, where a counter in
 * memory cost as much as the rest of the call's bookkeeping. */
typedef struct HoistCrossings {
  uint64_t nativeEntries;     /* native code -> a patched entry -> lifted code */
  uint64_t indirectTransfers; /* __hoist_call and __hoist_jmp */
} HoistCrossings;
extern HoistCrossings hoist_crossings;
static inline void hoist_count(uint64_t *counter) {
  __atomic_store_n(counter, __atomic_load_n(counter, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
}

/* Prints "hoist: <message>" and ends the program with HOIST_EXIT_UNSUPPORTED. */
_Noreturn void hoist_fatal(const char *format, ...) __attribute__((format(printf, 1, 2)));

#endif
