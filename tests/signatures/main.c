// A static program whose library code the signature tests name (docs/SIGNATURES.md).
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int text_demo(int argc, char **argv);
int files_demo(const char *path);

static jmp_buf again;
static volatile sig_atomic_t signals;

static void on_signal(int number) { signals += number; }
static void at_end(void) { fputs("bye\n", stdout); }

int main(int argc, char **argv) {
  atexit(at_end);
  signal(SIGUSR1, on_signal);
  raise(SIGUSR1);
  int total = text_demo(argc, argv) + files_demo(argv[0]);
  if (setjmp(again) == 0)
    longjmp(again, 1);
  time_t now = time(NULL);
  struct tm broken;
  gmtime_r(&now, &broken);
  char when[64];
  strftime(when, sizeof when, "%Y-%m-%d", &broken);
  srand((unsigned)getpid());
  double root = sqrt((double)(rand() % 100)) + floor(2.5) + pow(2.0, 3.0);
  const char *home = getenv("HOME");
  void *block = calloc(16, 32);
  block = realloc(block, 4096);
  free(block);
  printf("%d %s %.3f %s %d\n", total, when, root, home ? home : "-", (int)signals);
  puts(strlen(when) > 4 ? "ok" : "short");
  return 0;
}
