#define _DEFAULT_SOURCE
#include "util/rng.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "util/chacha20.h"
#include "util/wipe.h"

static uint64_t rotl64(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* splitmix64 expands the 64-bit seed into xoshiro's 256-bit state
 * (Vigna, "Further scramblings of Marsaglia's xorshift generators"). */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_seed(rng_t *rng, uint64_t seed)
{
    memset(rng, 0, sizeof(*rng));
    for (int i = 0; i < 4; i++)
        rng->s[i] = splitmix64(&seed);
}

/* xoshiro256** 1.0 (Blackman and Vigna, 2018). */
static uint64_t xoshiro_next(uint64_t s[4])
{
    uint64_t result = rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return result;
}

cuzk_status rng_seed_secure(rng_t *rng)
{
    memset(rng, 0, sizeof(*rng));
    uint8_t *p = (uint8_t *)rng->key;
    size_t got = 0;
    while (got < sizeof(rng->key)) {
        ssize_t n = getrandom(p + got, sizeof(rng->key) - got, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            cuzk_wipe(rng, sizeof(*rng)); /* the part of the key already read */
            return CUZK_ERR_RANDOM;
        }
        got += (size_t)n;
    }
    rng->secure = 1;
    rng->used = 16;
    return CUZK_OK;
}

void rng_seed_chacha(rng_t *rng, uint64_t seed)
{
    memset(rng, 0, sizeof(*rng));
    /* The key: the seed's eight bytes (little-endian), then a fixed label,
     * so these streams differ from any other use of a seeded ChaCha20. */
    static const char label[24] = "cuzk development setup";
    rng->key[0] = (uint32_t)seed;
    rng->key[1] = (uint32_t)(seed >> 32);
    memcpy(&rng->key[2], label, sizeof(label));
    rng->secure = 1;
    rng->used = 16;
}

static uint32_t chacha_next32(rng_t *rng)
{
    if (rng->used == 16) {
        /* A 64-bit block counter and a zero nonce (the original ChaCha's
         * layout): the RFC's 32-bit counter word takes the low half, its
         * first nonce word the high half. */
        uint32_t nonce[3] = {(uint32_t)(rng->counter >> 32), 0, 0};
        chacha20_block(rng->block, rng->key, (uint32_t)rng->counter, nonce);
        rng->counter++;
        rng->used = 0;
    }
    return rng->block[rng->used++];
}

uint64_t rng_u64(rng_t *rng)
{
    if (!rng->secure)
        return xoshiro_next(rng->s);
    uint64_t lo = chacha_next32(rng);
    return lo | ((uint64_t)chacha_next32(rng) << 32);
}

void rng_bytes(rng_t *rng, void *out, size_t len)
{
    uint8_t *p = out;
    while (len > 0) {
        uint64_t v = rng_u64(rng);
        size_t n = len < 8 ? len : 8;
        memcpy(p, &v, n);
        p += n;
        len -= n;
    }
}

void rng_wipe(rng_t *rng)
{
    cuzk_wipe(rng, sizeof(*rng));
}
