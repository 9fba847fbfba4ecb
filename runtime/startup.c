/* Start of a translated program: map the original image's segments at their addresses, apply
 * its dynamic relocations against the libraries loaded with us, patch the original function
 * entries so that native callers reach lifted code, build the guest stack the kernel would
 * have built, and run the lifted entry point. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "Runtime.h"

#include "hoist/Selectors.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

HoistState hoist_initial_state;
_Thread_local uint64_t hoist_guest_sp;

static const uint64_t PageSize = 4096;

_Noreturn void hoist_fatal(const char *format, ...) {
  char message[1024];
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(message, sizeof message, format, arguments);
  va_end(arguments);
  dprintf(2, "hoist: %s\n", message);
  _exit(HOIST_EXIT_UNSUPPORTED);
}

int hoist_in_executable_segment(uint64_t address) {
  for (uint64_t i = 0; i < hoist_program.segmentCount; ++i) {
    const HoistSegment *segment = &hoist_program.segments[i];
    if ((segment->prot & PROT_EXEC) && address - segment->address < segment->memorySize)
      return 1;
  }
  return 0;
}

static uint64_t pageDown(uint64_t address) { return address & ~(PageSize - 1); }
static uint64_t pageUp(uint64_t address) { return (address + PageSize - 1) & ~(PageSize - 1); }

static uint64_t imageStart, imageEnd;

/* Maps the whole range writable, copies each segment, then gives each page the union of the
 * permissions of the segments on it (a page can hold the end of one and the start of the
 * next). The final permissions are set by protectImage() once relocations are done. */
static void mapImage(void) {
  imageStart = ~0ull;
  imageEnd = 0;
  for (uint64_t i = 0; i < hoist_program.segmentCount; ++i) {
    const HoistSegment *segment = &hoist_program.segments[i];
    if (pageDown(segment->address) < imageStart)
      imageStart = pageDown(segment->address);
    if (pageUp(segment->address + segment->memorySize) > imageEnd)
      imageEnd = pageUp(segment->address + segment->memorySize);
  }
  void *at = mmap((void *)imageStart, imageEnd - imageStart, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (at != (void *)imageStart)
    hoist_fatal("%s: cannot map the original image at %#lx-%#lx (the address range is taken)",
                hoist_program.path, (unsigned long)imageStart, (unsigned long)imageEnd);
  for (uint64_t i = 0; i < hoist_program.segmentCount; ++i) {
    const HoistSegment *segment = &hoist_program.segments[i];
    memcpy((void *)segment->address, segment->bytes, segment->fileSize);
  }
}

static void protectImage(void) {
  for (uint64_t page = imageStart; page < imageEnd; page += PageSize) {
    int prot = 0;
    for (uint64_t i = 0; i < hoist_program.segmentCount; ++i) {
      const HoistSegment *segment = &hoist_program.segments[i];
      if (page + PageSize > segment->address && page < segment->address + segment->memorySize)
        prot |= (int)segment->prot;
    }
    mprotect((void *)page, PageSize, prot ? prot : PROT_NONE);
  }
}

static uint64_t librarySymbol(const HoistRelocation *relocation) {
  uint64_t replacement = hoist_signal_replacement(relocation->symbol);
  if (!replacement)
    replacement = hoist_jump_replacement(relocation->symbol);
  if (!replacement)
    replacement = hoist_thread_replacement(relocation->symbol);
  if (replacement)
    return replacement;
  void *address = 0;
  if (relocation->version)
    address = dlvsym(RTLD_DEFAULT, relocation->symbol, relocation->version);
  if (!address)
    address = dlsym(RTLD_DEFAULT, relocation->symbol);
  if (!address && !relocation->weak)
    hoist_fatal("%s: symbol %s is not defined by any library", hoist_program.path,
                relocation->symbol);
  return (uint64_t)address;
}

static void applyRelocations(void) {
  for (uint64_t i = 0; i < hoist_program.relocationCount; ++i) {
    const HoistRelocation *relocation = &hoist_program.relocations[i];
    uint64_t *place = (uint64_t *)relocation->address;
    switch (relocation->kind) {
    case HOIST_RELOCATION_VALUE:
      *place = relocation->value;
      break;
    case HOIST_RELOCATION_SYMBOL: {
      uint64_t symbol = librarySymbol(relocation);
      *place = symbol ? symbol + relocation->value : 0;
      break;
    }
    case HOIST_RELOCATION_THREAD_POINTER_OFFSET: {
      uint64_t variable = librarySymbol(relocation);
      *place = variable ? hoist_library_thread_pointer_offset(variable) + relocation->value : 0;
      break;
    }
    case HOIST_RELOCATION_COPY: {
      uint64_t source = librarySymbol(relocation);
      if (!source)
        break;
      memcpy(place, (const void *)source, relocation->value);
      hoist_add_copy(relocation->address, source, relocation->value);
      break;
    }
    }
  }
}

/* IRELATIVE resolvers are lifted code: they run once the rest is relocated. */
static void applyIrelativeRelocations(void) {
  for (uint64_t i = 0; i < hoist_program.relocationCount; ++i) {
    const HoistRelocation *relocation = &hoist_program.relocations[i];
    if (relocation->kind == HOIST_RELOCATION_IRELATIVE)
      *(uint64_t *)relocation->address = hoist_call_lifted_at(relocation->value, 0, 0, 0);
  }
}

/* Native code that calls an original function (a library calling a callback, the runtime
 * running init functions) must reach the lifted one: each entry with room for it becomes a
 * `jmp rel32` to a stub `mov r11, &function; jmp *hoist_callback_entry`. The stubs must lie
 * within 2 GiB of the image. */
enum { StubSize = 24 };

static uint8_t *allocateStubs(uint64_t size) {
  size = pageUp(size);
  for (uint64_t step = 0; step < 1024; ++step) {
    uint64_t candidates[2] = {imageEnd + step * (1ull << 20),
                              imageStart - size - step * (1ull << 20)};
    for (int c = 0; c < 2; ++c) {
      void *at = mmap((void *)candidates[c], size, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
      if (at == (void *)candidates[c])
        return at;
      if (at != MAP_FAILED)
        munmap(at, size);
    }
  }
  hoist_fatal("%s: no room for entry stubs within 2 GiB of the image", hoist_program.path);
}

static void patchEntries(void) {
  uint64_t size = hoist_program.functionCount * StubSize;
  if (size == 0)
    return;
  uint8_t *stubs = allocateStubs(size);
  uint64_t target = (uint64_t)&hoist_callback_entry;
  for (uint64_t i = 0; i < hoist_program.functionCount; ++i) {
    const HoistFunction *function = &hoist_program.functions[i];
    if (function->patchRoom < 5)
      continue;
    uint8_t *stub = stubs + i * StubSize;
    uint64_t descriptor = (uint64_t)function;
    stub[0] = 0x49, stub[1] = 0xbb;   /* mov r11, imm64 */
    memcpy(stub + 2, &descriptor, 8);
    stub[10] = 0xff, stub[11] = 0x25;   /* jmp *0(%rip) */
    memset(stub + 12, 0, 4);
    memcpy(stub + 16, &target, 8);
    uint8_t *entry = (uint8_t *)function->address;
    int32_t displacement = (int32_t)((int64_t)stub - (int64_t)(function->address + 5));
    entry[0] = 0xe9;   /* jmp rel32 */
    memcpy(entry + 1, &displacement, 4);
  }
  mprotect(stubs, pageUp(size), PROT_READ | PROT_EXEC);
}

static uint64_t extendedFeatures(void) {
  uint32_t low, high;
  __asm__("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
  return ((uint64_t)high << 32) | low;
}

static void initialState(void) {
  memset(&hoist_initial_state, 0, sizeof hoist_initial_state);   /* FS_BASE: per thread */
  hoist_initial_state.XCR0 = extendedFeatures();
  hoist_initial_state.MXCSR = 0x1f80;
  hoist_initial_state.FPU_CW = 0x37f;
  hoist_read_selectors(&hoist_initial_state);   /* what mov r/m, Sreg reads */
}

/* The stack the kernel hands to _start: argc, argv, NULL, envp, NULL, an empty auxv. */
static uint64_t guestStack(int argc, char **argv, char **envp) {
  uint8_t *base = mmap(0, HOIST_GUEST_STACK_SIZE, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (base == MAP_FAILED)
    hoist_fatal("%s: cannot allocate the guest stack", hoist_program.path);
  uint64_t envc = 0;
  while (envp[envc])
    ++envc;
  uint64_t words = 1 + (uint64_t)argc + 1 + envc + 1 + 2;
  uint64_t top = (uint64_t)base + HOIST_GUEST_STACK_SIZE - 4096;
  uint64_t *sp = (uint64_t *)((top - words * 8) & ~(uint64_t)15);
  uint64_t *at = sp;
  *at++ = (uint64_t)argc;
  for (int i = 0; i <= argc; ++i)
    *at++ = (uint64_t)argv[i];
  for (uint64_t i = 0; i <= envc; ++i)
    *at++ = (uint64_t)envp[i];
  *at++ = 0; /* AT_NULL */
  *at++ = 0;
  return (uint64_t)sp;
}

static int savedArgc;
static char **savedArgv, **savedEnvp;

static void runFiniFunctions(void) {
  for (uint64_t i = hoist_program.finiCount; i-- > 0;) {
    uint64_t function = ((const uint64_t *)hoist_program.finiArray)[i];
    if (function != 0 && function != ~0ull)
      hoist_call_lifted_at(function, 0, 0, 0);
  }
  if (hoist_program.fini)
    hoist_call_lifted_at(hoist_program.fini, 0, 0, 0);
}

static void runInitArray(uint64_t array, uint64_t count) {
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t function = ((const uint64_t *)array)[i];
    if (function != 0 && function != ~0ull)
      hoist_call_lifted_at(function, (uint64_t)savedArgc, (uint64_t)savedArgv,
                           (uint64_t)savedEnvp);
  }
}

/* What `import.__libc_start_main` does in a translated program: libc is already started (it
 * started us), so only the program's own part is left: its init functions, main, exit. */
void hoist_libc_start_main(HoistState *state, void *memory) {
  (void)memory;
  uint64_t main = state->RDI;
  savedArgc = (int)state->RSI;
  savedArgv = (char **)state->RDX;
  savedEnvp = savedArgv + savedArgc + 1;
  runInitArray(hoist_program.preinitArray, hoist_program.preinitCount);
  if (hoist_program.init)
    hoist_call_lifted_at(hoist_program.init, (uint64_t)savedArgc, (uint64_t)savedArgv,
                         (uint64_t)savedEnvp);
  runInitArray(hoist_program.initArray, hoist_program.initCount);
  atexit(runFiniFunctions);
  uint64_t status = hoist_call_lifted_at(main, (uint64_t)savedArgc, (uint64_t)savedArgv,
                                         (uint64_t)savedEnvp);
  exit((int)status);
}

static void printCrossings(void) {
  dprintf(2, "hoist: %lu entries from native code, %lu indirect transfers\n",
          (unsigned long)hoist_crossings.nativeEntries,
          (unsigned long)hoist_crossings.indirectTransfers);
}

int main(int argc, char **argv, char **envp) {
  if (getenv("HOIST_TRANSLATE_STATS"))
    atexit(printCrossings);
  mapImage();
  applyRelocations();   /* the main thread's guest thread block is filled after them */
  hoist_redirect_copies();
  initialState();
  patchEntries();
  protectImage();
  HoistState state = hoist_initial_state;
  state.RSP = guestStack(argc, argv, envp);
  state.RIP = hoist_program.entry;
  state.FS_BASE = hoist_start_main_thread(state.RSP);
  applyIrelativeRelocations();
  const HoistFunction *entry = hoist_lookup(hoist_program.entry);
  if (!entry)
    hoist_fatal("%s: no lifted code at the entry point %#lx", hoist_program.path,
                (unsigned long)hoist_program.entry);
  entry->lifted(&state, 0);
  hoist_fatal("%s: the entry point returned (to %#lx)", hoist_program.path,
              (unsigned long)state.RIP);
}
