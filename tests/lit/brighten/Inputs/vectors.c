#include <emmintrin.h>
__m128 vadd_ps(__m128 a, __m128 b) { return _mm_add_ps(a, b); }
__m128d vmul_pd(__m128d a, __m128d b) { return _mm_mul_pd(a, b); }
__m128i vadd_epi32(__m128i a, __m128i b) { return _mm_add_epi32(a, b); }
__m128 vscale_ps(__m128 a, float k) { return _mm_mul_ps(a, _mm_set1_ps(k)); }
float vsum_ps(__m128 a) {
  __m128 pairs = _mm_add_ps(a, _mm_movehl_ps(a, a));
  return _mm_cvtss_f32(_mm_add_ss(pairs, _mm_shuffle_ps(pairs, pairs, 1)));
}
int main(void) { return 0; }
