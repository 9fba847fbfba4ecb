#include <stdio.h>
long run_total(long a);
double run_average(double x);
void run_note(const char *s, int k, double d);
void relay(int unused, const char *s);
void run_die(int code);
void shout(const char *format, ...);
extern int quiet;
int main(void) {
  printf("%ld %.2f\n", run_total(5), run_average(10.0));
  run_note("x", 2, 3.5);
  relay(0, "through");
  shout("shout %d %d %d %d %d %d %d %d %d %.1f %.1f %s\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 2.5, 10.5,
        "z");
  quiet = 1;
  run_note("silent", 0, 0);
  fflush(stdout);
  run_die(1);
}
