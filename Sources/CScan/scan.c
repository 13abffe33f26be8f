#include "scan.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// One byte's bits, as the vector code gives them (the reference the tail and the tests use).
static inline void classify_byte(uint8_t c, int *newline, int *plain, int *quoted, int *nonspace) {
  int unexamined = c < 0x20 || c >= 0x7F;
  *newline = c == '\n';
  *quoted = unexamined || c == '\'';
  *plain = *quoted || c == ':' || c == '#';
  *nonspace = c != ' ';
}

#if defined(__SSE2__)
/// The three masks of 16 bytes.
static inline void classify16(const uint8_t *p, uint32_t *nl, uint32_t *pl, uint32_t *qu,
                              uint32_t *ns) {
  __m128i v = _mm_loadu_si128((const __m128i *)p);
  // NB: signed, a byte of 0x80 or more is below 0x20 too.
  __m128i low = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
  __m128i del = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F));
  __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('\''));
  __m128i colon = _mm_cmpeq_epi8(v, _mm_set1_epi8(':'));
  __m128i hash = _mm_cmpeq_epi8(v, _mm_set1_epi8('#'));
  __m128i q = _mm_or_si128(_mm_or_si128(low, del), quote);
  *nl = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
  *qu = (uint32_t)_mm_movemask_epi8(q);
  *pl = (uint32_t)_mm_movemask_epi8(_mm_or_si128(q, _mm_or_si128(colon, hash)));
  *ns = ~(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(' '))) & 0xFFFF;
}
#endif

#if defined(__x86_64__)
#include <immintrin.h>

/// 64 bytes as two vectors of 32 (AVX2, where the processor has it: half the instructions).
__attribute__((target("avx2"))) static size_t classify_avx2(const uint8_t *p, size_t n,
                                                             uint64_t *newlines, uint64_t *plain,
                                                             uint64_t *quoted, uint64_t *nonspace) {
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    uint64_t nl = 0, pl = 0, qu = 0, ns = 0;
    for (int k = 0; k < 2; k++) {
      __m256i v = _mm256_loadu_si256((const __m256i *)(p + i + 32 * k));
      // NB: signed, a byte of 0x80 or more is below 0x20 too.
      __m256i low = _mm256_cmpgt_epi8(_mm256_set1_epi8(0x20), v);
      __m256i del = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(0x7F));
      __m256i quote = _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\''));
      __m256i colon = _mm256_cmpeq_epi8(v, _mm256_set1_epi8(':'));
      __m256i hash = _mm256_cmpeq_epi8(v, _mm256_set1_epi8('#'));
      __m256i q = _mm256_or_si256(_mm256_or_si256(low, del), quote);
      uint32_t a = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\n')));
      uint32_t b = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(q, _mm256_or_si256(colon, hash)));
      uint32_t c = (uint32_t)_mm256_movemask_epi8(q);
      uint32_t d = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(' ')));
      nl |= (uint64_t)a << (32 * k);
      pl |= (uint64_t)b << (32 * k);
      qu |= (uint64_t)c << (32 * k);
      ns |= (uint64_t)d << (32 * k);
    }
    newlines[i / 64] = nl;
    plain[i / 64] = pl;
    quoted[i / 64] = qu;
    nonspace[i / 64] = ns;
  }
  return i;
}
#endif

int dinger_scan_best_method(void) {
#if defined(__x86_64__)
  static int best = -1;
  if (best < 0) best = __builtin_cpu_supports("avx2") ? 2 : 1;
  return best;
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
    uint64_t nl = 0, pl = 0, qu = 0, ns = 0;
    for (int k = 0; k < 4; k++) {
      uint32_t a, b, c, d;
      classify16(p + i + 16 * k, &a, &b, &c, &d);
      nl |= (uint64_t)a << (16 * k);
      pl |= (uint64_t)b << (16 * k);
      qu |= (uint64_t)c << (16 * k);
      ns |= (uint64_t)d << (16 * k);
    }
    newlines[i / 64] = nl;
    plain[i / 64] = pl;
    quoted[i / 64] = qu;
    nonspace[i / 64] = ns;
  }
#endif
  // The rest (all of it without SSE2), a byte at a time.
  for (; i < n; i += 64) {
    uint64_t nl = 0, pl = 0, qu = 0, ns = 0;
    for (size_t k = 0; k < 64 && i + k < n; k++) {
      int a, b, c, d;
      classify_byte(p[i + k], &a, &b, &c, &d);
      nl |= (uint64_t)a << k;
      pl |= (uint64_t)b << k;
      qu |= (uint64_t)c << k;
      ns |= (uint64_t)d << k;
    }
    newlines[i / 64] = nl;
    plain[i / 64] = pl;
    quoted[i / 64] = qu;
    nonspace[i / 64] = ns;
  }
}
