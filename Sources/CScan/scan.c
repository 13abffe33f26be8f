#include "scan.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/// The four marks of 64 bytes, as they are gathered.
typedef struct {
  uint64_t newlines, plain, quoted, nonspace;
} marks64;

/// Marks of some bytes (one bit each, the first lowest), put at bit `shift`.
static inline void add(marks64 *m, uint64_t nl, uint64_t pl, uint64_t qu, uint64_t ns,
                       unsigned shift) {
  m->newlines |= nl << shift;
  m->plain |= pl << shift;
  m->quoted |= qu << shift;
  m->nonspace |= ns << shift;
}

/// Word `w` of each array.
static inline void put(marks64 m, size_t w, uint64_t *newlines, uint64_t *plain, uint64_t *quoted,
                       uint64_t *nonspace) {
  newlines[w] = m.newlines;
  plain[w] = m.plain;
  quoted[w] = m.quoted;
  nonspace[w] = m.nonspace;
}

/// One byte's marks (the reference the tail and the tests use).
static inline void classify_byte(marks64 *m, uint8_t c, unsigned shift) {
  int unexamined = c < 0x20 || c >= 0x7F;
  int quoted = unexamined || c == '\'';
  add(m, c == '\n', quoted || c == ':' || c == '#', quoted, c != ' ', shift);
}

#if defined(__SSE2__)
/// The four marks of 16 bytes.
static inline void classify16(marks64 *m, const uint8_t *p, unsigned shift) {
  __m128i v = _mm_loadu_si128((const __m128i *)p);
  // NB: signed, a byte of 0x80 or more is below 0x20 too.
  __m128i low = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
  __m128i del = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F));
  __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('\''));
  __m128i colon = _mm_cmpeq_epi8(v, _mm_set1_epi8(':'));
  __m128i hash = _mm_cmpeq_epi8(v, _mm_set1_epi8('#'));
  __m128i q = _mm_or_si128(_mm_or_si128(low, del), quote);
  add(m, (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
      (uint32_t)_mm_movemask_epi8(_mm_or_si128(q, _mm_or_si128(colon, hash))),
      (uint32_t)_mm_movemask_epi8(q),
      ~(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(' '))) & 0xFFFF, shift);
}
#endif

#if defined(__x86_64__)
/// The four marks of 32 bytes (AVX2, where the processor has it: half the instructions).
__attribute__((target("avx2"))) static inline void classify32(marks64 *m, const uint8_t *p,
                                                               unsigned shift) {
  __m256i v = _mm256_loadu_si256((const __m256i *)p);
  // NB: signed, a byte of 0x80 or more is below 0x20 too.
  __m256i low = _mm256_cmpgt_epi8(_mm256_set1_epi8(0x20), v);
  __m256i del = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x7F));
  __m256i quote = _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\''));
  __m256i colon = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(':'));
  __m256i hash = _mm256_cmpeq_epi8(v, _mm256_set1_epi8('#'));
  __m256i q = _mm256_or_si256(_mm256_or_si256(low, del), quote);
  add(m, (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\n'))),
      (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(q, _mm256_or_si256(colon, hash))),
      (uint32_t)_mm256_movemask_epi8(q),
      (uint32_t)~_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(' '))), shift);
}

/// Every whole 64 bytes with AVX2; returns how many bytes that was.
__attribute__((target("avx2"))) static size_t classify_avx2(const uint8_t *p, size_t n,
                                                             uint64_t *newlines, uint64_t *plain,
                                                             uint64_t *quoted, uint64_t *nonspace) {
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    marks64 m = {0, 0, 0, 0};
    classify32(&m, p + i, 0);
    classify32(&m, p + i + 32, 32);
    put(m, i / 64, newlines, plain, quoted, nonspace);
  }
  return i;
}
#endif

int dinger_scan_best_method(void) {
#if defined(__x86_64__)
  // NB: reads what the C runtime learnt from cpuid at start; nothing to cache.
  return __builtin_cpu_supports("avx2") ? 2 : 1;
#elif defined(__SSE2__)
  return 1;
#else
  return 0;
#endif
}

void dinger_scan_classify(const uint8_t *p, size_t n, uint64_t *newlines, uint64_t *plain,
                          uint64_t *quoted, uint64_t *nonspace) {
  dinger_scan_classify_using(dinger_scan_best_method(), p, n, newlines, plain, quoted, nonspace);
}

void dinger_scan_classify_using(int method, const uint8_t *p, size_t n, uint64_t *newlines,
                                uint64_t *plain, uint64_t *quoted, uint64_t *nonspace) {
  size_t i = 0;
  if (method > dinger_scan_best_method()) method = dinger_scan_best_method();
#if defined(__x86_64__)
  if (method == 2) i = classify_avx2(p, n, newlines, plain, quoted, nonspace);
#endif
#if defined(__SSE2__)
  for (; method >= 1 && i + 64 <= n; i += 64) {
    marks64 m = {0, 0, 0, 0};
    for (unsigned k = 0; k < 4; k++) classify16(&m, p + i + 16 * k, 16 * k);
    put(m, i / 64, newlines, plain, quoted, nonspace);
  }
#endif
  // The rest (all of it without SSE2), a byte at a time.
  for (; i < n; i += 64) {
    marks64 m = {0, 0, 0, 0};
    for (size_t k = 0; k < 64 && i + k < n; k++) classify_byte(&m, p[i + k], (unsigned)k);
    put(m, i / 64, newlines, plain, quoted, nonspace);
  }
}
