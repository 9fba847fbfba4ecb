/* vfork in a recompiled program (docs/TRANSLATE.md, "Recompiled programs"): a brightened
 * caller runs the child on its own native frames, as the original did; a State-form caller
 * (here one that also calls setjmp, with argument "state") would share lifted frames with
 * the child, and recompile refuses the program. */
#include <setjmp.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) int run(const char *text) {
  pid_t child = vfork();
  if (child == 0) {
    execl("/bin/echo", "echo", text, (char *)0);
    _exit(127);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return WEXITSTATUS(status);
}

#ifdef STATE_FORM_VFORK
static jmp_buf again;
__attribute__((noinline)) int run_guarded(const char *text) {
  if (setjmp(again))
    return 1;
  pid_t child = vfork();
  if (child == 0)
    _exit(3);
  int status = 0;
  waitpid(child, &status, 0);
  return WEXITSTATUS(status) + (text[0] == 'x');
}
#endif

int main(int argc, char **argv) {
  int status = run("from the child");
  printf("child exited %d\n", status);
#ifdef STATE_FORM_VFORK
  printf("guarded %d\n", run_guarded(argv[0]));
#endif
  return argc > 1 ? 2 : 0;
}
