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

void dinger_scan_classify(const uint8_t *p, size_t n, uint64_t *newlines, uint64_t *plain,
                          uint64_t *quoted, uint64_t *nonspace) {
  size_t i = 0;
#if defined(__SSE2__)
  for (; i + 64 <= n; i += 64) {
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
