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

#endif
