#include <stdio.h>
long run_total(long a);
double run_average(double x);
void run_note(const char *s, int k, double d);
void relay(int unused, const char *s);
void run_die(int code);
extern int quiet;
int main(void) {
  printf("%ld %.2f\n", run_total(5), run_average(10.0));
  run_note("x", 2, 3.5);
  relay(0, "through");
  quiet = 1;
  run_note("silent", 0, 0);
  fflush(stdout);
  run_die(1);
}
