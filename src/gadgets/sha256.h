#ifndef CUZK_GADGETS_SHA256_H
#define CUZK_GADGETS_SHA256_H

/* SHA-256 (FIPS 180-4), plain and as an R1CS gadget.
 *
 * The plain functions compute witnesses and serve as the reference the
 * gadget is tested against (itself checked with the FIPS 180-4 examples,
 * tests/vectors/sha256.txt).
 *
 * The gadget works at bit level, on 32-bit words of boolean literals
 * (word32.h). One compression (§6.2.2) with all inputs variable costs
 *   message schedule  48 × (σ0 61 + σ1 54 + 4-operand sum 35)   = 7,200
 *   rounds            64 × (Σ1 64 + Ch 32 + Σ0 64 + Maj 64
 *                           + e sum 36 + a sum 36)               = 18,944
 *   final additions    8 × 34                                    =    272
 *                                                        total   26,416
 * and less when inputs are constant: the IV in the first block makes the
 * first rounds cheaper, constant message words (padding) make their part
 * of the schedule free. The message bits themselves are the caller's
 * (allocating them costs one constraint per bit). */

#include <stddef.h>
#include <stdint.h>

#include "gadgets/word32.h"

#define SHA256_BLOCK_BYTES 64
#define SHA256_DIGEST_BYTES 32

extern const uint32_t SHA256_IV[8]; /* FIPS 180-4 §5.3.3 */
extern const uint32_t SHA256_K[64]; /* FIPS 180-4 §4.2.2 */

/* One compression (§6.2.2) of a 64-byte block into state. */
void sha256_compress(uint32_t state[8], const uint8_t block[SHA256_BLOCK_BYTES]);
/* The whole hash with padding (§5.1.1). */
void sha256(uint8_t out[SHA256_DIGEST_BYTES], const void *msg, size_t len);
/* Number of compressions for a len-byte message. */
size_t sha256_num_blocks(size_t len);

/* The gadget: out = compression of the block w[0..16) (message words,
 * §5.2.1) into the chaining value in[8]. out may alias in. */
void sha256_gadget_compress(gadget_cs *cs, gword out[8], const gword in[8], const gword w[16]);
/* The IV as constant words. */
void sha256_gadget_iv(gword iv[8]);
/* SHA-256 of a message of nbytes bytes given as bits: bits[8j + i] is bit i
 * (i = 0 the least significant) of byte j. Padding (§5.1.1) is constant;
 * the digest is out[0..8), FIPS word order (big-endian bytes). */
void sha256_gadget_bytes(gadget_cs *cs, gword out[8], const gbit *bits, size_t nbytes);

#endif
