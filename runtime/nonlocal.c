/* setjmp and longjmp of a translated program (lib/Translate/NonlocalJumps.h). Each setjmp the
 * program calls is the host's `_setjmp`, taken in the frame of the lifted function that
 * called it, with the guest registers longjmp restores saved here first; a longjmp is the
 * host's, which abandons the native frames of the lifted code between and returns into that
 * frame a second time, where hoist_setjmp_returned puts the guest registers back into State.
 *
 * The guest registers go into the jmp_buf itself, in the part where a mask-saving setjmp keeps
 * the signal mask (the host's `_setjmp` saves none and leaves that part alone): programs that
 * save and restore a jmp_buf by copying it (gawk's nested error recovery) copy them along. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "Runtime.h"

#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>

typedef struct SetjmpRecord {
  uint64_t magic;
  uint64_t rbx, rbp, r12, r13, r14, r15; /* callee-saved: what the C caller may keep there */
  uint64_t guestSp;                      /* hoist_guest_sp */
  uint64_t signalStackTop;               /* hoist_signal_stack_top: longjmp out of handlers */
  uint64_t maskSaved, mask;              /* the signals 1-64 */
} SetjmpRecord;

_Static_assert(sizeof(SetjmpRecord) <= sizeof(((struct __jmp_buf_tag *)0)->__saved_mask),
               "the record fits where the signal mask would be");

/* Tells a jmp_buf a setjmp of the program filled from one it did not. */
static const uint64_t RecordMagic = 0x4a4d50484f495354ull; /* "TSIOHPMJ" */

/* How lib/Translate/NonlocalJumps.cpp asks for the signal mask (its MaskSaving). */
enum { MaskNever = 0, MaskAlways = 1, MaskWhenAsked = 2 };

static SetjmpRecord *recordIn(uint64_t buffer) {
  return (SetjmpRecord *)(buffer + offsetof(struct __jmp_buf_tag, __saved_mask));
}

/* The record of the longjmp on its way, from the buffer longjmp was given (which may be a copy
 * of the one setjmp filled, while that one has been filled again since). */
static _Thread_local SetjmpRecord pendingJump;
static _Thread_local volatile int jumpPending;

void hoist_setjmp_save(const HoistState *state, uint32_t kind) {
  SetjmpRecord *record = recordIn(state->RDI);
  record->magic = RecordMagic;
  record->rbx = state->RBX;
  record->rbp = state->RBP;
  record->r12 = state->R12;
  record->r13 = state->R13;
  record->r14 = state->R14;
  record->r15 = state->R15;
  record->guestSp = hoist_guest_sp;
  record->signalStackTop = hoist_signal_stack_top;
  record->maskSaved = kind == MaskAlways || (kind == MaskWhenAsked && (int)state->RSI != 0);
  record->mask = 0;
  if (record->maskSaved) {
    sigset_t blocked;
    sigprocmask(SIG_BLOCK, 0, &blocked);
    memcpy(&record->mask, &blocked, sizeof record->mask);
  }
}

void hoist_setjmp_returned(HoistState *state, int32_t value, uint64_t buffer) {
  if (value == 0) {
    state->RAX = 0;
    return;
  }
  /* A longjmp by a library (not through hoist_longjmp) finds only the setjmp's own buffer. */
  SetjmpRecord record = jumpPending ? pendingJump : *recordIn(buffer);
  jumpPending = 0;
  if (record.magic != RecordMagic)
    hoist_fatal("%s: a longjmp came back to the setjmp of the jmp_buf at %#lx, which holds no "
                "registers of the program", hoist_program.path, (unsigned long)buffer);
  state->RBX = record.rbx;
  state->RBP = record.rbp;
  state->R12 = record.r12;
  state->R13 = record.r13;
  state->R14 = record.r14;
  state->R15 = record.r15;
  state->RAX = (uint32_t)value;
  hoist_guest_sp = record.guestSp;
  hoist_signal_stack_top = record.signalStackTop;
  if (record.maskSaved) {
    sigset_t blocked;
    sigemptyset(&blocked);
    memcpy(&blocked, &record.mask, sizeof record.mask);
    sigprocmask(SIG_SETMASK, &blocked, 0);
  }
}

/* The program's longjmp, _longjmp, siglongjmp and __longjmp_chk (startup.c fills their GOT
 * slots with it). The signal mask, when the setjmp saved it, is restored on arrival. */
_Noreturn void hoist_longjmp(struct __jmp_buf_tag *buffer, int value) {
  const SetjmpRecord *record = recordIn((uint64_t)buffer);
  if (record->magic != RecordMagic)
    hoist_fatal("%s: longjmp to the jmp_buf at %#lx, which no setjmp of the program filled",
                hoist_program.path, (unsigned long)buffer);
  pendingJump = *record;
  jumpPending = 1;
  _longjmp(buffer, value ? value : 1);
}

/* The body of a setjmp import reached through a pointer (NonlocalJumps.h): a PLT stub's
 * address. A pointer from the GOT reaches one of the functions below instead. */
_Noreturn void hoist_indirect_setjmp(const char *name) {
  hoist_fatal("%s: the program called %s through a pointer, which a translated program does "
              "not support (only direct calls of setjmp are)", hoist_program.path, name);
}

#define SETJMP_THROUGH_POINTER(name)                                                          \
  static _Noreturn void name##ThroughPointer(void) { hoist_indirect_setjmp(#name); }
SETJMP_THROUGH_POINTER(setjmp)
SETJMP_THROUGH_POINTER(_setjmp)
SETJMP_THROUGH_POINTER(__sigsetjmp)

uint64_t hoist_jump_replacement(const char *symbol) {
  static const struct {
    const char *name;
    void (*function)(void);
  } replacements[] = {
      {"longjmp", (void (*)(void))hoist_longjmp},
      {"_longjmp", (void (*)(void))hoist_longjmp},
      {"siglongjmp", (void (*)(void))hoist_longjmp},
      {"__longjmp_chk", (void (*)(void))hoist_longjmp},
      /* Lifted code calls setjmp without the GOT (NonlocalJumps.h): only pointers read it. */
      {"setjmp", setjmpThroughPointer},
      {"_setjmp", _setjmpThroughPointer},
      {"__sigsetjmp", __sigsetjmpThroughPointer},
  };
  for (unsigned i = 0; symbol && i < sizeof replacements / sizeof replacements[0]; ++i)
    if (strcmp(symbol, replacements[i].name) == 0)
      return (uint64_t)replacements[i].function;
  return 0;
}
