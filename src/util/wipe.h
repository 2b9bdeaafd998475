#ifndef CUZK_UTIL_WIPE_H
#define CUZK_UTIL_WIPE_H

#include <stddef.h>

/* Zeroes n bytes at p in a way the compiler may not remove. A plain memset
 * of a secret (toxic waste, the blinding factors r and s, a key) that is
 * never read again is a dead store the optimizer is free to drop, leaving
 * the secret in memory. Every secret the library or the CLI is done with is
 * wiped through this one function. */
void cuzk_wipe(void *p, size_t n);

#endif
