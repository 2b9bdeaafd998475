#ifndef CUZK_FUZZ_FUZZ_H
#define CUZK_FUZZ_FUZZ_H

/* What the libFuzzer harnesses share (fuzz/README.md): each harness feeds
 * libFuzzer's bytes to one real parser through a memory buffer and, when
 * the parser accepts them, exercises what follows (re-encoding, decoding
 * the rest) and checks what must hold. A broken invariant aborts, which
 * libFuzzer reports as a crash with the input that caused it. */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* An invariant of an accepted input. */
#define FUZZ_CHECK(cond)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "fuzz: %s:%d: broken: %s\n", __FILE__, __LINE__, #cond);      \
            abort();                                                                      \
        }                                                                                 \
    } while (0)

/* A NUL-terminated copy of data (free()); aborts when out of memory. */
static inline char *fuzz_cstring(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    FUZZ_CHECK(s != NULL);
    if (size)
        memcpy(s, data, size);
    s[size] = 0;
    return s;
}

/* Decoding a whole section in an accepted file: at most this many points
 * or values per call, so a harness's time per input stays small. */
#define FUZZ_MAX_ITEMS 64

static inline uint64_t fuzz_min(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

#endif
