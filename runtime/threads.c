/* Threads of a translated program (docs/TRANSLATE.md, "Threads and thread-local storage").
 *
 * Every thread that runs lifted code has its own guest stack (below hoist_guest_sp, which is
 * thread-local, as is everything of the runtime that a thread changes while it runs lifted
 * code) and its own guest thread pointer, State's FS_BASE in that thread. The guest thread
 * pointer is inside hoist_guest_thread_block, a thread-local variable of the translated
 * executable that the translation emits (lib/Translate/ProgramTables.cpp), so glibc makes one
 * for every thread, at the same distance from the host's thread pointer in each: below the
 * guest thread pointer the program's thread-local block, laid out as ld laid it out for the
 * original (x86-64 ABI, TLS variant II), so the offsets lifted code uses (%fs:-8, a TPOFF64
 * slot) find the thread's own variables; above it the guest thread control block, whose
 * words at 0 and 0x10 hold its own address and at 0x28 and 0x30 the host thread's
 * stack-protector canary and pointer guard, which code compiled against glibc reads there.
 * Library code runs natively with the host's thread pointer and its own thread-local data
 * (errno, stdio's locks), untouched. A library's thread-local variable that the program
 * reaches by a TPOFF64 slot is at a fixed distance from the guest thread pointer too.
 *
 * A thread gets its guest stack and fills its block when it first runs lifted code: the start
 * routine of pthread_create or thrd_create, or a callback in a thread a library made. A key
 * destructor frees the guest stack when the thread ends; a destructor of the program that runs
 * after it and enters lifted code gets a new one (glibc then runs the destructors again). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "Runtime.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <threads.h>

extern _Thread_local uint8_t hoist_guest_thread_block[];

/* The words of glibc's tcbhead_t that code of the program reads; the rest stays zero. */
enum { TcbSelf = 0, TcbAlsoSelf = 2, TcbStackGuard = 5, TcbPointerGuard = 6 };

typedef struct GuestThread {
  uint64_t threadPointer; /* 0: the block is not filled yet */
  void *stack;            /* null for the main thread's, which lives as long as the process */
} GuestThread;

static _Thread_local GuestThread current;
static pthread_key_t endingThreads;

static uint64_t hostThreadWord(unsigned index) {
  uint64_t word;
  __asm__("mov %%fs:(%1), %0" : "=r"(word) : "r"((uint64_t)index * 8));
  return word;
}

/* The block of the program's thread-local variables from their initial image (relocated at
 * start, like the rest of the original image; the zeros after it are glibc's), and the TCB. */
static uint64_t guestThreadPointer(void) {
  return (uint64_t)hoist_guest_thread_block + hoist_program.tlsThreadPointerOffset;
}

static void fillThreadBlock(void) {
  uint64_t threadPointer = guestThreadPointer();
  memcpy((void *)(threadPointer - hoist_program.tlsBlockSize),
         (const void *)hoist_program.tlsImage, hoist_program.tlsFileSize);
  uint64_t *tcb = (uint64_t *)threadPointer;
  tcb[TcbSelf] = tcb[TcbAlsoSelf] = threadPointer;
  tcb[TcbStackGuard] = hostThreadWord(TcbStackGuard);
  tcb[TcbPointerGuard] = hostThreadWord(TcbPointerGuard);
  current.threadPointer = threadPointer;
}

uint64_t hoist_enter_thread(void) {
  if (!current.threadPointer)
    fillThreadBlock();
  if (!hoist_guest_sp) {
    current.stack = mmap(0, HOIST_GUEST_STACK_SIZE, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (current.stack == MAP_FAILED)
      hoist_fatal("%s: cannot allocate the guest stack of a thread", hoist_program.path);
    hoist_guest_sp = (uint64_t)current.stack + HOIST_GUEST_STACK_SIZE - 4096;
    pthread_setspecific(endingThreads, &current);   /* a value, so that endThread runs */
  }
  return current.threadPointer;
}

/* Key destructors run after the start routine returned or the thread called pthread_exit:
 * no lifted code of the thread is running. The thread-local block is glibc's to free. */
static void endThread(void *value) {
  (void)value;
  munmap(current.stack, HOIST_GUEST_STACK_SIZE);
  current.stack = 0;
  hoist_guest_sp = 0;
  hoist_free_signal_stack();
}

uint64_t hoist_start_main_thread(uint64_t guestStackPointer) {
  if (pthread_key_create(&endingThreads, endThread) != 0)
    hoist_fatal("%s: cannot create the key that ends threads", hoist_program.path);
  hoist_guest_sp = guestStackPointer;   /* no key value: it outlives the thread (pthread_exit) */
  return hoist_enter_thread();
}

uint64_t hoist_library_thread_pointer_offset(uint64_t variable) {
  return variable - guestThreadPointer();
}

/* A new thread's start routine is lifted code, entered through the table (not the patched
 * entry, which a start routine too short to patch does not have). */
typedef struct ThreadStart {
  const HoistFunction *function;
  void *argument;
} ThreadStart;

static uint64_t runStart(void *boxed) {
  ThreadStart start = *(ThreadStart *)boxed;
  free(boxed);
  HoistNativeFrame frame;
  memset(&frame, 0, sizeof frame);
  frame.gpr[0] = (uint64_t)start.argument;
  hoist_run_lifted(start.function, &frame, 0);
  return frame.rax;
}

static void *startPosixThread(void *boxed) { return (void *)runStart(boxed); }
static int startC11Thread(void *boxed) { return (int)runStart(boxed); }

/* The lifted start routine at `start` boxed with its argument; null for native code. */
static ThreadStart *boxStart(uint64_t start, void *argument) {
  if (!hoist_in_executable_segment(start))
    return 0;
  const HoistFunction *function = hoist_lookup(start);
  if (!function)
    hoist_fatal("%s: no lifted code for the start routine of a new thread at %#lx",
                hoist_program.path, (unsigned long)start);
  ThreadStart *boxed = malloc(sizeof *boxed);
  if (boxed)
    *boxed = (ThreadStart){function, argument};
  return boxed;
}

int hoist_pthread_create(pthread_t *thread, const pthread_attr_t *attributes,
                         void *(*start)(void *), void *argument) {
  if (!hoist_in_executable_segment((uint64_t)start))
    return pthread_create(thread, attributes, start, argument);
  ThreadStart *boxed = boxStart((uint64_t)start, argument);
  if (!boxed)
    return EAGAIN;
  int result = pthread_create(thread, attributes, startPosixThread, boxed);
  if (result != 0)
    free(boxed);
  return result;
}

int hoist_thrd_create(thrd_t *thread, thrd_start_t start, void *argument) {
  if (!hoist_in_executable_segment((uint64_t)start))
    return thrd_create(thread, start, argument);
  ThreadStart *boxed = boxStart((uint64_t)start, argument);
  if (!boxed)
    return thrd_nomem;
  int result = thrd_create(thread, startC11Thread, boxed);
  if (result != thrd_success)
    free(boxed);
  return result;
}

uint64_t hoist_thread_replacement(const char *symbol) {
  if (symbol && strcmp(symbol, "pthread_create") == 0)
    return (uint64_t)hoist_pthread_create;
  if (symbol && strcmp(symbol, "thrd_create") == 0)
    return (uint64_t)hoist_thrd_create;
  return 0;
}
