#include <stdio.h>
int report(FILE *out, const char *name, int count, double ratio);
void warn_about(const char *name, int code);
int parse_pair(const char *text, int *a, long *b);
int many(FILE *out, int a, int b, int c, int d, int e, int f, double x);
int choose(FILE *out, int v, int hex);
int wide_row(FILE *out, int a);
int dynamic(FILE *out, const char *format, int v);
int disagree(FILE *out, int v, int twice);
int main(void) {
  int n = report(stdout, "name", 7, 0.25);
  warn_about("file", 3);
  int a = 0; long b = 0;
  int m = parse_pair("12,-34", &a, &b);
  int k = many(stdout, 1, 2, 3, 4, 5, 6, 2.5);
  printf("%d %d %d %ld %d\n", n, m, a, b, k);
  choose(stdout, 255, 1);
  choose(stdout, 255, 0);
  char format[32];
  snprintf(format, sizeof format, "%s %%d at %s\n", "built", "run time");
  dynamic(stdout, format, 42);
  disagree(stdout, 9, 1);
  disagree(stdout, 9, 0);
  wide_row(stdout, 10);
  return 0;
}
