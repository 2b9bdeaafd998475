#include "util/chacha20.h"

#include <string.h>

#include "util/wipe.h"

static uint32_t rotl32(uint32_t x, int k)
{
    return (x << k) | (x >> (32 - k));
}

/* The quarter round, RFC 8439 section 2.1, one line per line of the RFC. */
/* clang-format off */
#define CHACHA_QR(a, b, c, d)                                                                      \
    do {                                                                                           \
        a += b; d ^= a; d = rotl32(d, 16);                                                         \
        c += d; b ^= c; b = rotl32(b, 12);                                                         \
        a += b; d ^= a; d = rotl32(d, 8);                                                          \
        c += d; b ^= c; b = rotl32(b, 7);                                                          \
    } while (0)
/* clang-format on */

void chacha20_block(uint32_t out[16], const uint32_t key[8], uint32_t counter,
                    const uint32_t nonce[3])
{
    /* The state of section 2.3: constants, key, counter, nonce. */
    uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    memcpy(&in[4], key, 32);
    in[12] = counter;
    memcpy(&in[13], nonce, 12);
    uint32_t x[16];
    memcpy(x, in, sizeof(x));
    for (int i = 0; i < 10; i++) {
        CHACHA_QR(x[0], x[4], x[8], x[12]);
        CHACHA_QR(x[1], x[5], x[9], x[13]);
        CHACHA_QR(x[2], x[6], x[10], x[14]);
        CHACHA_QR(x[3], x[7], x[11], x[15]);
        CHACHA_QR(x[0], x[5], x[10], x[15]);
        CHACHA_QR(x[1], x[6], x[11], x[12]);
        CHACHA_QR(x[2], x[7], x[8], x[13]);
        CHACHA_QR(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; i++)
        out[i] = x[i] + in[i];
    /* in holds a copy of the key, x the state derived from it. */
    cuzk_wipe(in, sizeof(in));
    cuzk_wipe(x, sizeof(x));
}
