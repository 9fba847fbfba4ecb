// Functions that ask the machine (machine-queries.test): cpuid's vendor and feature bits,
// xgetbv's enabled state where the OS enables it, and the time stamp counter going forward.
#include <cpuid.h>
#include <stdint.h>
#include <string.h>
#include <x86intrin.h>

void vendor(char *name) {
  unsigned a, b, c, d;
  __cpuid(0, a, b, c, d);
  memcpy(name, &b, 4);
  memcpy(name + 4, &d, 4);
  memcpy(name + 8, &c, 4);
  name[12] = 0;
}

unsigned features(void) {
  unsigned a, b, c, d;
  __cpuid_count(7, 0, a, b, c, d);
  return b ^ c;
}

unsigned long long enabled_state(void) {
  unsigned a, b, c, d;
  __cpuid(1, a, b, c, d);
  if (!(c & bit_OSXSAVE))
    return 0;
  return _xgetbv(0);
}

int time_goes_forward(void) {
  unsigned long long first = __rdtsc();
  unsigned aux;
  unsigned long long second = __rdtscp(&aux);
  return second >= first;
}
