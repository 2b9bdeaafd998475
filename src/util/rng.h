#ifndef CUZK_UTIL_RNG_H
#define CUZK_UTIL_RNG_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

/* A random source with two modes behind one interface:
 *  - deterministic (xoshiro256**, seeded by a 64-bit seed): tests and
 *    benchmarks, so a failing run can be replayed from its printed seed;
 *  - secure (ChaCha20 keyed from getrandom()): secret values such as the
 *    prover's r, s and the development setup's toxic waste.
 * Not thread-safe: one rng_t per thread. */
typedef struct rng {
    int secure;
    uint64_t s[4];      /* xoshiro256** state */
    uint32_t key[8];    /* ChaCha20 key */
    uint64_t counter;   /* ChaCha20 block counter */
    uint32_t block[16]; /* current keystream block */
    unsigned used;      /* 32-bit words of block already handed out */
} rng_t;

/* Deterministic generator from a seed. */
void rng_seed(rng_t *rng, uint64_t seed);

/* ChaCha20 keyed from a 64-bit seed: the stream of the secure generator,
 * reproducible. For development parameters made from a seed (`dev:SEED`):
 * anyone who knows the seed knows their toxic waste. */
void rng_seed_chacha(rng_t *rng, uint64_t seed);

/* Secure generator keyed from the operating system. */
cuzk_status rng_seed_secure(rng_t *rng);

uint64_t rng_u64(rng_t *rng);
void rng_bytes(rng_t *rng, void *out, size_t len);

/* Wipes the state (for secure generators holding secret keys). */
void rng_wipe(rng_t *rng);

#endif
