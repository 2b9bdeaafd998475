#ifndef CUZK_UTIL_CHACHA20_H
#define CUZK_UTIL_CHACHA20_H

#include <stdint.h>

/* The ChaCha20 block function (RFC 8439, section 2.3), the core of the
 * secure generator in rng.c; a header of its own so that the tests check
 * this very code against the RFC's vectors.
 *
 * key and nonce are the little-endian 32-bit words of the RFC's key and
 * nonce bytes (section 2.3: "read in little-endian order, in 4-byte
 * chunks"). out gets the 16 words of the block; their little-endian bytes
 * are the RFC's serialized block, the keystream. */
void chacha20_block(uint32_t out[16], const uint32_t key[8], uint32_t counter,
                    const uint32_t nonce[3]);

#endif
