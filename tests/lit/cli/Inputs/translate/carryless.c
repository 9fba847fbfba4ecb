/* Carry-less products with each qword selection of pclmulqdq, folded as a CRC loop folds:
 * what translate-pclmul.test checks the translation runs as the instruction itself. */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  unsigned long long a = argc > 1 ? strtoull(argv[1], 0, 0) : 0x8000000000000001ull;
  unsigned long long b = argc > 2 ? strtoull(argv[2], 0, 0) : 0xfedcba9876543210ull;
  __m128i x = _mm_set_epi64x((long long)~a, (long long)a);
  __m128i y = _mm_set_epi64x((long long)(b * 3), (long long)b);
  for (int round = 0; round < 1000; ++round) {
    __m128i low = _mm_clmulepi64_si128(x, y, 0x00);
    __m128i high = _mm_clmulepi64_si128(x, y, 0x11);
    __m128i cross = _mm_xor_si128(_mm_clmulepi64_si128(x, y, 0x01),
                                  _mm_clmulepi64_si128(x, y, 0x10));
    x = _mm_xor_si128(_mm_xor_si128(low, high), _mm_slli_si128(cross, 8));
  }
  printf("%016llx %016llx\n", (unsigned long long)_mm_extract_epi64(x, 1),
         (unsigned long long)_mm_cvtsi128_si64(x));
  return 0;
}
