#include <stdio.h>
#include <error.h>
#include <libintl.h>
#define _(s) dcgettext(NULL, s, 5)
int report(FILE *out, const char *name, int count, double ratio) {
  return fprintf(out, "%s: %d items, %5.2f%% (%ld)\n", name, count, ratio * 100, (long)count * 3);
}
void warn_about(const char *name, int code) { error(0, 0, _("cannot open %s (code %d)"), name, code); }
int parse_pair(const char *text, int *a, long *b) { return sscanf(text, "%d,%ld", a, b); }
int many(FILE *out, int a, int b, int c, int d, int e, int f, double x) {
  return fprintf(out, "%d %d %d %d %d %d %d %g %s\n", a, b, c, d, e, f, a + f, x, "end");
}
/* Ten of its fourteen ints on the stack, past the eight slots a call through a pointer passes
   (xz prints a table row with eleven). */
int wide_row(FILE *out, int a) {
  return fprintf(out, "%d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", a, a + 1, a + 2, a + 3,
                 a + 4, a + 5, a + 6, a + 7, a + 8, a + 9, a + 10, a + 11, a + 12, a + 13);
}
int dynamic(FILE *out, const char *format, int v) { return fprintf(out, format, v); }
/* A format chosen among constants that convert the same arguments, and among ones that do not. */
int choose(FILE *out, int v, int hex) { return fprintf(out, hex ? "%#x\n" : "%d\n", v); }
int disagree(FILE *out, int v, int twice) {
  return fprintf(out, twice ? "%d %d\n" : "%d\n", v, v);
}

#include <ulimit.h>
#include <unistd.h>
/* Variadic without a format or a rule (ulimit's argument depends on its command): which
   registers a call passes is the caller's to know. */
long limit_files(long blocks) { return ulimit(UL_SETFSIZE, blocks); }
