#ifndef CUZK_UTIL_BYTE_SIZE_H
#define CUZK_UTIL_BYTE_SIZE_H

#include <stdbool.h>
#include <stdint.h>

/* "4G", "512MiB", "1048576": bytes (K, M, G, T are powers of 1024; an
 * optional "iB" or "B"). false when not a size or past 2^64. */
bool parse_byte_size(const char *text, uint64_t *out);

#endif
