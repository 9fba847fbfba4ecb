/* Calls each corpus function and its brightened recompilation (b_<name>, weak: a declined
 * function is absent) on the same pseudo-random inputs; compares results and the memory the
 * functions write. Prints "<name> brightened|declined agree|DIFFER" per function and exits 1 on
 * any difference. */
#include "corpus.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* With CORPUS_PE, the originals are a mingw build's functions, called through ms_abi pointers
 * into the image pe-loader.c maps (argv[1]), and the brightened ones are win64cc. */
#ifdef CORPUS_PE
#define CORPUS_ABI __attribute__((ms_abi))
#else
#define CORPUS_ABI
#endif

#define DECLARE_BRIGHTENED(ret, name, params) ret b_##name params __attribute__((weak)) CORPUS_ABI;
CORPUS_FUNCTIONS(DECLARE_BRIGHTENED)

#ifdef CORPUS_PE
#include "pe-loader.h"

#include <errno.h>
#include <math.h>

#define DECLARE_ORIGINAL(ret, name, params) static ret(CORPUS_ABI *name) params;
CORPUS_FUNCTIONS(DECLARE_ORIGINAL)

/* pe-symbols.c, written by run-corpus.sh from the image's symbols; ends with a null name. */
extern const struct pe_symbol pe_symbols[];

/* The C library functions the corpus imports, in the Microsoft x64 ABI as a DLL has them: for
 * the image's calls (the loader binds its imports to them) and for the brightened functions',
 * which declare the imports win64cc (run-corpus.sh renames their references strlen ->
 * pe_import_strlen, ...: a convention mismatch would show as a difference). */
CORPUS_ABI size_t pe_import_strlen(const char *s) { return strlen(s); }
CORPUS_ABI int pe_import_strcmp(const char *a, const char *b) { return strcmp(a, b); }
CORPUS_ABI void *pe_import_memset(void *p, int v, size_t n) { return memset(p, v, n); }
CORPUS_ABI int pe_import_abs(int v) { return abs(v); }
CORPUS_ABI double pe_import_sqrt(double x) { return sqrt(x); }
/* mingw links its own sqrt, which sets errno through msvcrt's _errno. */
static CORPUS_ABI int *image_errno(void) { return &errno; }
static const struct pe_binding bindings[] = {
    {"strlen", (void *)pe_import_strlen}, {"strcmp", (void *)pe_import_strcmp},
    {"memset", (void *)pe_import_memset}, {"abs", (void *)pe_import_abs},
    {"sqrt", (void *)pe_import_sqrt},     {"_errno", (void *)image_errno},
    {0, 0}};
static void *image_function(const struct pe_image *image, const char *name) {
  return pe_symbol_address(image, pe_symbols, name);
}
#endif

/* The corpus's globals: the original's, in this program or in the loaded PE image
 * (load_globals), and the brightened functions' copy, b_<name>: run-corpus.sh renames the
 * alias Hoist defines for each data symbol inside its copy of the image's sections. */
#define DECLARE_BRIGHTENED_GLOBAL(name) extern __typeof__(name) b_##name __attribute__((weak));
CORPUS_GLOBALS(DECLARE_BRIGHTENED_GLOBAL)
struct global_pair {
  const char *name;
  void *original;
  void *brightened;
  size_t size;
  unsigned char *initial; /* the original's bytes before any call (remember_initial_globals) */
};
static struct global_pair globals[] = {
#define GLOBAL_PAIR(name) {#name, 0, (void *)&b_##name, sizeof(name)},
    CORPUS_GLOBALS(GLOBAL_PAIR)};
enum { GlobalCount = sizeof globals / sizeof globals[0] };

#ifdef CORPUS_PE
static int load_originals(const char *path) {
  struct pe_image image;
  if (pe_load(path, bindings, (void *)pe_unbound_import, &image))
    return -1;
#define RESOLVE_ORIGINAL(ret, name, params)                                                    \
  if (!(name = (ret(CORPUS_ABI *) params)image_function(&image, #name)))                       \
    return -1;
  CORPUS_FUNCTIONS(RESOLVE_ORIGINAL)
  for (int i = 0; i < GlobalCount; i++)
    if (!(globals[i].original = image_function(&image, globals[i].name)))
      return -1;
  return 0;
}
#else
static void load_globals(void) {
  int i = 0;
#define ORIGINAL_GLOBAL(name) globals[i++].original = (void *)&name;
  CORPUS_GLOBALS(ORIGINAL_GLOBAL)
}
#endif

/* Hoist copies only the data sections the lifted functions refer to: a function lifted alone
 * (CORPUS_FUNCTIONS) that reads .data comes without a copy of .bss. A global without a copy
 * is therefore a difference only once the original's bytes have changed, i.e. a function that
 * writes it ran: it must come with its copy. */
static void remember_initial_globals(void) {
  for (int i = 0; i < GlobalCount; i++) {
    globals[i].initial = malloc(globals[i].size);
    memcpy(globals[i].initial, globals[i].original, globals[i].size);
  }
}

/* Whether a global the brightened functions keep differs from the original's (or is missing
 * though the original's changed); names it. */
static int globals_differ(void) {
  int differ = 0;
  for (int i = 0; i < GlobalCount; i++)
    if (!globals[i].brightened) {
      if (memcmp(globals[i].original, globals[i].initial, globals[i].size) != 0) {
        printf("  global %s changed but has no brightened copy\n", globals[i].name);
        differ = 1;
      }
    } else if (memcmp(globals[i].original, globals[i].brightened, globals[i].size) != 0) {
      printf("  global %s differs\n", globals[i].name);
      differ = 1;
    }
  return differ;
}

/* The object also holds the declined functions, still lifted: they reference Hoist's runtime,
 * which this driver never enters (it calls only brightened functions). */
#define RUNTIME_STUB(name)                                                                     \
  void name(void *state, void *mem, uint64_t address) {                                        \
    (void)state, (void)mem;                                                                    \
    fprintf(stderr, #name " reached at %#llx\n", (unsigned long long)address);                 \
    abort();                                                                                   \
  }
RUNTIME_STUB(__hoist_call)
RUNTIME_STUB(__hoist_ret)
RUNTIME_STUB(__hoist_jmp)
RUNTIME_STUB(__hoist_unsupported)
RUNTIME_STUB(__hoist_trap)

enum { Trials = 2000, ArrayLength = 16 };

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) {   /* xorshift64* */
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return rng * 0x2545f4914f6cdd1dull;
}
/* Mostly small values (loop counts, switch cases), sometimes any. */
static int64_t pick(void) {
  uint64_t r = next();
  switch (r & 3) {
  case 0: return (int64_t)(r >> 2) % 40 - 8;
  case 1: return (int64_t)(r >> 2) % 20;
  default: return (int64_t)next();
  }
}

static int failures = 0, brightened = 0, declined = 0;

static void verdict(const char *name, int present, int differ) {
  if (!present) {
    printf("%-18s declined\n", name);
    declined++;
    return;
  }
  brightened++;
  printf("%-18s brightened %s\n", name, differ ? "DIFFER" : "agree");
  failures += differ != 0;
}

/* f(args) and b_f(args) on Trials random argument tuples. */
#define SCALAR_TEST(name, call)                                                                \
  static void test_##name(void) {                                                              \
    int differ = 0;                                                                            \
    if (b_##name)                                                                              \
      for (int t = 0; t < Trials && !differ; t++) {                                            \
        int64_t a = pick(), b = pick(), c = pick(), d = pick(), e = pick(), f = pick();        \
        (void)a, (void)b, (void)c, (void)d, (void)e, (void)f;                                  \
        differ = name call != b_##name call;                                                   \
        if (differ)                                                                            \
          printf("  %s(%lld, %lld, %lld, ...) differs\n", #name, (long long)a, (long long)b,  \
                 (long long)c);                                                                \
      }                                                                                        \
    verdict(#name, b_##name != 0, differ);                                                     \
  }

SCALAR_TEST(add3, ((int)a, (int)b, (int)c))
SCALAR_TEST(mul_add, (a, b, c))
SCALAR_TEST(six, (a, b, c, d, e, f))
SCALAR_TEST(udiv_mod, ((unsigned)a, (unsigned)b))
SCALAR_TEST(sdiv, ((int)a, (int)b))
SCALAR_TEST(max3, ((int)a, (int)b, (int)c))
SCALAR_TEST(narrow_compare, ((unsigned char)a, (unsigned char)b))
SCALAR_TEST(mul16, ((short)a, (short)b))
SCALAR_TEST(rotl64, ((unsigned long long)a, (int)b))
SCALAR_TEST(popcount_loop, ((unsigned)a))
SCALAR_TEST(factorial, ((int)(a & 15)))
SCALAR_TEST(fib_iter, ((int)(a & 63)))
SCALAR_TEST(classify, ((int)a))
SCALAR_TEST(lookup_local, ((int)a))
SCALAR_TEST(square, ((int)a))
SCALAR_TEST(sum_squares, ((int)a, (int)b))
SCALAR_TEST(fact_rec, ((int)(a & 15)))
SCALAR_TEST(fib_rec, ((int)(a & 15)))
SCALAR_TEST(is_even_rec, ((unsigned)(a & 1023)))
SCALAR_TEST(is_odd_rec, ((unsigned)(a & 1023)))
SCALAR_TEST(gcd_rec, ((unsigned long long)a, (unsigned long long)b))
SCALAR_TEST(seven_sum, (a, b, c, d, e, f, a ^ b))
SCALAR_TEST(call_seven, (a, b))
SCALAR_TEST(fill_sum, ((int)a, (int)b))
/* Floating-point results compare bit for bit; inputs include signed zeros, infinities, NaNs
 * and subnormals besides ordinary values. */
static double pickDouble(void) {
  static const double special[] = {0.0, -0.0, 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0, 1e308, 4.9e-324};
  uint64_t r = next();
  return r % 4 == 0 ? special[(r >> 2) % 7] : (double)pick() / 7;
}
#define FLOAT_TEST(name, type)                                                                 \
  static void test_##name(void) {                                                              \
    int differ = 0;                                                                            \
    for (int t = 0; b_##name && t < Trials && !differ; t++) {                                  \
      type a = (type)pickDouble(), b = (type)pickDouble();                                     \
      type expected = name(a, b), actual = b_##name(a, b);                                     \
      differ = memcmp(&expected, &actual, sizeof expected) != 0;                               \
      if (differ)                                                                              \
        printf("  %s(%g, %g) = %g, brightened %g\n", #name, (double)a, (double)b,              \
               (double)expected, (double)actual);                                              \
    }                                                                                          \
    verdict(#name, b_##name != 0, differ);                                                     \
  }
FLOAT_TEST(dadd, double)
FLOAT_TEST(fmul, float)
FLOAT_TEST(hypotenuse, double)
FLOAT_TEST(scratch_int_result_double, double)
/* One double argument; the result compares bit for bit whatever its type. */
#define UNARY_DOUBLE_TEST(name, type)                                                          \
  static void test_##name(void) {                                                              \
    int differ = 0;                                                                            \
    for (int t = 0; b_##name && t < Trials && !differ; t++) {                                  \
      double a = pickDouble();                                                                 \
      type expected = name(a), actual = b_##name(a);                                           \
      differ = memcmp(&expected, &actual, sizeof expected) != 0;                               \
      if (differ)                                                                              \
        printf("  %s(%g) = %g, brightened %g\n", #name, a, (double)expected, (double)actual); \
    }                                                                                          \
    verdict(#name, b_##name != 0, differ);                                                     \
  }
UNARY_DOUBLE_TEST(truncate_doubled, int)
UNARY_DOUBLE_TEST(negate, double)

static void test_mix(void) {   /* integer and floating-point arguments interleaved */
  int differ = 0;
  for (int t = 0; b_mix && t < Trials && !differ; t++) {
    double x = pickDouble(), expected, actual;
    float y = (float)pickDouble();
    int n = (int)pick();
    expected = mix(x, y, n);
    actual = b_mix(x, y, n);
    differ = memcmp(&expected, &actual, sizeof expected) != 0;
  }
  verdict("mix", b_mix != 0, differ);
}

static void test_sum_array(void) {
  int differ = 0;
  long long values[ArrayLength];
  for (int t = 0; b_sum_array && t < Trials && !differ; t++) {
    for (int i = 0; i < ArrayLength; i++)
      values[i] = (long long)next();
    int n = (int)(next() % (ArrayLength + 1));
    differ = sum_array(values, n) != b_sum_array(values, n);
  }
  verdict("sum_array", b_sum_array != 0, differ);
}

static void test_scale(void) {
  int differ = 0;
  int expected[ArrayLength], actual[ArrayLength];
  for (int t = 0; b_scale && t < Trials && !differ; t++) {
    for (int i = 0; i < ArrayLength; i++)
      expected[i] = actual[i] = (int)next();
    int n = (int)(next() % (ArrayLength + 1)), k = (int)pick();
    scale(expected, n, k);
    b_scale(actual, n, k);
    differ = memcmp(expected, actual, sizeof expected) != 0;
  }
  verdict("scale", b_scale != 0, differ);
}

static void test_points(void) {
  int differDot = 0, differSwap = 0;
  for (int t = 0; t < Trials; t++) {
    struct point p = {(int)pick(), (int)pick()}, q = {(int)pick(), (int)pick()};
    if (b_dot)
      differDot |= dot(&p, &q) != b_dot(&p, &q);
    struct point expected = p, actual = p;
    swap_point(&expected);
    if (b_swap_point) {
      b_swap_point(&actual);
      differSwap |= memcmp(&expected, &actual, sizeof expected) != 0;
    }
  }
  verdict("dot", b_dot != 0, differDot);
  verdict("swap_point", b_swap_point != 0, differSwap);
}

static void test_point_calls(void) {
  int differNorm = 0, differScale = 0;
  for (int t = 0; t < Trials; t++) {
    struct point p = {(int)pick(), (int)pick()};
    int k = (int)pick();
    if (b_point_norm2)
      differNorm |= point_norm2(&p) != b_point_norm2(&p);
    struct point expected = p, actual = p;
    scale_point(&expected, k);
    if (b_scale_point) {
      b_scale_point(&actual, k);
      differScale |= memcmp(&expected, &actual, sizeof expected) != 0;
    }
  }
  verdict("point_norm2", b_point_norm2 != 0, differNorm);
  verdict("scale_point", b_scale_point != 0, differScale);
}

/* A random string of lowercase letters, sometimes ended early. */
static void pickString(char *text) {
  for (int i = 0; i < ArrayLength; i++)
    text[i] = (char)(next() % 8 ? 'a' + next() % 3 : 0);
  text[ArrayLength] = 0;
}

static void test_strings(void) {
  int differLength = 0, differCompare = 0;
  char a[ArrayLength + 1], b[ArrayLength + 1];
  for (int t = 0; t < Trials; t++) {
    pickString(a);
    pickString(b);
    long long k = (long long)pick();
    if (b_length_plus)
      differLength |= length_plus(a, k) != b_length_plus(a, k);
    if (b_compare_sign)
      differCompare |= compare_sign(a, b) != b_compare_sign(a, b);
  }
  verdict("length_plus", b_length_plus != 0, differLength);
  verdict("compare_sign", b_compare_sign != 0, differCompare);
}

static void test_fdot(void) {
  int differ = 0;
  float a[ArrayLength], b[ArrayLength];
  for (int t = 0; b_fdot && t < Trials && !differ; t++) {
    for (int i = 0; i < ArrayLength; i++) {
      a[i] = (float)pickDouble();
      b[i] = (float)pickDouble();
    }
    int n = (int)(next() % (ArrayLength + 1));
    float expected = fdot(a, b, n), actual = b_fdot(a, b, n);
    differ = memcmp(&expected, &actual, sizeof expected) != 0;
  }
  verdict("fdot", b_fdot != 0, differ);
}

static void test_bytes_until_zero(void) {
  int differ = 0;
  char text[ArrayLength + 1];
  for (int t = 0; b_bytes_until_zero && t < Trials && !differ; t++) {
    for (int i = 0; i < ArrayLength; i++)
      text[i] = (char)(next() % 8 ? 'a' + next() % 26 : 0);
    text[ArrayLength] = 0;
    differ = bytes_until_zero(text) != b_bytes_until_zero(text);
  }
  verdict("bytes_until_zero", b_bytes_until_zero != 0, differ);
}

/* Functions that keep state in the image's data: results, and the globals' bytes after every
 * call (both copies start with the original bytes and see the same calls). */
static void test_globals(void) {
  int differCount = 0, differTwice = 0, differAccumulate = 0, differWeigh = 0, differTotal = 0;
  for (int t = 0; t < Trials; t++) {
    int64_t a = pick(), b = pick();
    if (b_count_calls)
      differCount |= (count_calls((int)a) != b_count_calls((int)a)) | globals_differ();
    if (b_count_twice)
      differTwice |= (count_twice((int)b) != b_count_twice((int)b)) | globals_differ();
    if (b_accumulate) {
      accumulate((int)a, (int)b);
      b_accumulate((int)a, (int)b);
      differAccumulate |= globals_differ();
    }
    if (b_weigh)
      differWeigh |= (weigh((int)a) != b_weigh((int)a)) | globals_differ();
    if (b_add_total)
      differTotal |= (add_total(b) != b_add_total(b)) | globals_differ();
  }
  verdict("count_calls", b_count_calls != 0, differCount);
  verdict("count_twice", b_count_twice != 0, differTwice);
  verdict("accumulate", b_accumulate != 0, differAccumulate);
  verdict("weigh", b_weigh != 0, differWeigh);
  verdict("add_total", b_add_total != 0, differTotal);
}

/* Pointers into the image that escape: each version must hand out its own copy's address,
 * the same one every time, and find it again. */
static void test_escaping_pointers(void) {
  int differFill = 0, differIs = 0, differAddress = 0;
  char *original = 0, *brightened = 0, local[4];
  for (int t = 0; t < Trials; t++) {
    int c = (int)pick(), n = (int)pick();
    if (b_fill_scratch) {
      char *p = fill_scratch(c, n), *q = b_fill_scratch(c, n);
      if (!original)
        original = p, brightened = q;
      differFill |= p != original || q != brightened || memcmp(p, q, 32) != 0;
    }
    if (b_is_scratch) {
      int offset = t & 1;
      differIs |= is_scratch(local) != b_is_scratch(local);
      if (original)
        differIs |= is_scratch(original + offset) != b_is_scratch(brightened + offset);
    }
    if (b_counter_address) {
      int *slot = 0, *brightenedSlot = 0;
      counter_address(&slot);
      b_counter_address(&brightenedSlot);
      differAddress |= slot != globals[0].original || (void *)brightenedSlot != globals[0].brightened;
    }
  }
  differFill |= b_fill_scratch && brightened == original;
  int differYesNo = 0;
  for (int t = 0; b_yes_no && t < Trials; t++) {
    int i = (int)pick();
    /* The same text, from the brightened copy of the read-only data, not the original's. */
    const char *expected = yes_no(i), *actual = b_yes_no(i);
    differYesNo |= actual == expected || strcmp(expected, actual) != 0;
  }
  verdict("yes_no", b_yes_no != 0, differYesNo);
  verdict("fill_scratch", b_fill_scratch != 0, differFill);
  verdict("is_scratch", b_is_scratch != 0, differIs);
  verdict("counter_address", b_counter_address != 0, differAddress);
}

/* SSE vectors: lanes of ordinary and special values, results compared bit for bit. */
static __m128 pickFloats(void) {
  return _mm_setr_ps((float)pickDouble(), (float)pickDouble(), (float)pickDouble(),
                     (float)pickDouble());
}
static __m128d pickDoubles(void) { return _mm_setr_pd(pickDouble(), pickDouble()); }
static __m128i pickIntegers(void) {
  return _mm_set_epi64x((long long)next(), (long long)pick());
}
#define VECTOR_TEST(name, type, call)                                                          \
  static void test_##name(void) {                                                              \
    int differ = 0;                                                                            \
    for (int t = 0; b_##name && t < Trials && !differ; t++) {                                  \
      __m128 fa = pickFloats(), fb = pickFloats();                                             \
      __m128d da = pickDoubles(), db = pickDoubles();                                          \
      __m128i ia = pickIntegers(), ib = pickIntegers();                                        \
      float k = (float)pickDouble();                                                           \
      int values[4] = {(int)pick(), (int)pick(), (int)next(), (int)next()};                    \
      (void)fa, (void)fb, (void)da, (void)db, (void)ia, (void)ib, (void)k, (void)values;       \
      type expected = name call, actual = b_##name call;                                       \
      differ = memcmp(&expected, &actual, sizeof expected) != 0;                               \
      if (differ)                                                                              \
        printf("  %s differs in trial %d\n", #name, t);                                        \
    }                                                                                          \
    verdict(#name, b_##name != 0, differ);                                                     \
  }
VECTOR_TEST(vadd_ps, __m128, (fa, fb))
VECTOR_TEST(vmul_pd, __m128d, (da, db))
VECTOR_TEST(vadd_epi32, __m128i, (ia, ib))
VECTOR_TEST(vscale_ps, __m128, (fa, k))
VECTOR_TEST(vsum_ps, float, (fa))
VECTOR_TEST(vload_add, __m128i, (values, ib))

int main(int argc, char **argv) {
  (void)argc, (void)argv;
#ifdef CORPUS_PE
  if (argc < 2 || load_originals(argv[1]))
    return 2;
#else
  load_globals();
#endif
  remember_initial_globals();
  test_add3();
  test_mul_add();
  test_six();
  test_udiv_mod();
  test_sdiv();
  test_max3();
  test_narrow_compare();
  test_mul16();
  test_rotl64();
  test_popcount_loop();
  test_factorial();
  test_fib_iter();
  test_sum_array();
  test_scale();
  test_classify();
  test_lookup_local();
  test_points();
  test_bytes_until_zero();
  test_dadd();
  test_fmul();
  test_mix();
  test_square();
  test_sum_squares();
  test_fact_rec();
  test_fib_rec();
  test_is_even_rec();
  test_is_odd_rec();
  test_gcd_rec();
  test_seven_sum();
  test_call_seven();
  test_point_calls();
  test_strings();
  test_fill_sum();
  test_hypotenuse();
  test_scratch_int_result_double();
  test_truncate_doubled();
  test_negate();
  test_fdot();
  test_globals();
  test_escaping_pointers();
  test_vadd_ps();
  test_vmul_pd();
  test_vadd_epi32();
  test_vscale_ps();
  test_vsum_ps();
  test_vload_add();
  printf("brightened %d, declined %d, differ %d\n", brightened, declined, failures);
  return failures != 0;
}
