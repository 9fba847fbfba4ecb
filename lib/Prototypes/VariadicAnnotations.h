/* What the variadic functions without a format read after their fixed parameters, as their
   manual pages define it; the generator turns each annotation into a flag of the table
   (docs/PROTOTYPES.md), and brightening types each call from the fixed argument it names
   (lib/Brighten/VariadicCalls.h). Before <fcntl.h> and <sys/ioctl.h>: an attribute cannot
   follow a fortified inline definition. */

/* open(2): the mode, one int, is read only when the flags (the last fixed parameter) ask to
   create a file: O_CREAT or O_TMPFILE. */
#define HOIST_MODE_IF_CREATING __attribute__((annotate("hoist-variadic:mode-if-creating")))
/* fcntl(2): one argument, an int or a pointer, unless the command (the last fixed parameter)
   is one of those that take none. */
#define HOIST_ARGUMENT_BY_COMMAND __attribute__((annotate("hoist-variadic:argument-by-command")))
/* ioctl(2): one argument, an int or a pointer. */
#define HOIST_ONE_ARGUMENT __attribute__((annotate("hoist-variadic:one-argument")))
/* syscall(2): six longs after the number, as many as a system call takes; glibc's syscall
   reads all six (the last from the stack), and the kernel those the call it names takes. */
#define HOIST_SIX_LONGS __attribute__((annotate("hoist-variadic:six-longs")))
/* prctl(2): four unsigned longs after the option; glibc's prctl reads all four, and the
   kernel those the option takes (some options ask that the others be 0). */
#define HOIST_FOUR_LONGS __attribute__((annotate("hoist-variadic:four-longs")))
/* execl(3), execlp(3): pointers up to and including the first null one. */
#define HOIST_NULL_TERMINATED __attribute__((annotate("hoist-variadic:null-terminated")))
/* execle(3): the same, then one more pointer, the environment. */
#define HOIST_NULL_TERMINATED_THEN_ONE \
  __attribute__((annotate("hoist-variadic:null-terminated-then-one")))

extern int open(const char *path, int flags, ...) HOIST_MODE_IF_CREATING;
extern int open64(const char *path, int flags, ...) HOIST_MODE_IF_CREATING;
extern int openat(int directory, const char *path, int flags, ...) HOIST_MODE_IF_CREATING;
extern int openat64(int directory, const char *path, int flags, ...) HOIST_MODE_IF_CREATING;
extern int fcntl(int fd, int command, ...) HOIST_ARGUMENT_BY_COMMAND;
extern int fcntl64(int fd, int command, ...) HOIST_ARGUMENT_BY_COMMAND;
extern int ioctl(int fd, unsigned long request, ...) HOIST_ONE_ARGUMENT;
extern long syscall(long number, ...) HOIST_SIX_LONGS;
extern int prctl(int option, ...) HOIST_FOUR_LONGS;
extern int execl(const char *path, const char *argument, ...) HOIST_NULL_TERMINATED;
extern int execlp(const char *file, const char *argument, ...) HOIST_NULL_TERMINATED;
extern int execle(const char *path, const char *argument, ...) HOIST_NULL_TERMINATED_THEN_ONE;

/* GMP's mpz_inits, mpz_clears and their mpq and mpf forms (the manual's "Initializing
   Integers"): pointers up to and including the first null one, as factor passes them. */
#if __has_include(<gmp.h>)
#include <gmp.h>
extern void __gmpz_inits(mpz_ptr, ...) HOIST_NULL_TERMINATED;
extern void __gmpz_clears(mpz_ptr, ...) HOIST_NULL_TERMINATED;
extern void __gmpq_inits(mpq_ptr, ...) HOIST_NULL_TERMINATED;
extern void __gmpq_clears(mpq_ptr, ...) HOIST_NULL_TERMINATED;
extern void __gmpf_inits(mpf_ptr, ...) HOIST_NULL_TERMINATED;
extern void __gmpf_clears(mpf_ptr, ...) HOIST_NULL_TERMINATED;
#endif

#undef HOIST_MODE_IF_CREATING
#undef HOIST_ARGUMENT_BY_COMMAND
#undef HOIST_ONE_ARGUMENT
#undef HOIST_SIX_LONGS
#undef HOIST_FOUR_LONGS
#undef HOIST_NULL_TERMINATED
#undef HOIST_NULL_TERMINATED_THEN_ONE
