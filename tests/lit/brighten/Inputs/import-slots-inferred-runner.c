// Calls the brightened functions of import-slots-inferred.S and compares them with the
// library functions they call: prints "equal" or "DIFFER".
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <strings.h>

long compare_versions(const char *a, const char *b);
long first_set(int x);

int main(void) {
  const char *versions[] = {"1.2", "1.10", "1.2a", "2", "1.02", ""};
  int differ = 0;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j)
      differ += (int)compare_versions(versions[i], versions[j]) != strverscmp(versions[j], versions[i]);
  for (int x = -70; x < 70; ++x)
    differ += (int)first_set(x) != ffs(x + 1);
  puts(differ ? "DIFFER" : "equal");
  return differ != 0;
}
