#ifndef DINGER_SCAN_H
#define DINGER_SCAN_H

#include <stddef.h>
#include <stdint.h>

/// The bytes of `p[0..<n]` a reader of YAML lines must look at, a vector at a time: one bit per
/// byte (byte i is bit i % 64 of word i / 64; bits past `n` are 0). Each array holds
/// (n + 63) / 64 words.
/// - `newlines`: the line feeds.
/// - `plain`: the bytes a plain scalar can't hold unexamined: a control (the line feed too),
///   DEL, a byte of 0x80 or more, ':', '#', '\''.
/// - `quoted`: the same for the inside of a single-quoted scalar: a control, DEL, a byte of
///   0x80 or more, '\''.
/// - `nonspace`: every byte but a space (a line's indentation ends at the first).
void dinger_scan_classify(const uint8_t *p, size_t n, uint64_t *newlines, uint64_t *plain,
                          uint64_t *quoted, uint64_t *nonspace);

/// The same by a chosen method (tests hold each to the same marks): 0 a byte at a time, 1 SSE2,
/// 2 AVX2; a method the processor lacks falls back to the best it has.
void dinger_scan_classify_using(int method, const uint8_t *p, size_t n, uint64_t *newlines,
                                uint64_t *plain, uint64_t *quoted, uint64_t *nonspace);

/// The method `dinger_scan_classify` uses here: 2 with AVX2, 1 with SSE2, else 0.
int dinger_scan_best_method(void);

#endif
