#ifndef CUZK_FIELD_FR_H
#define CUZK_FIELD_FR_H

/* Fr: the scalar field of BLS12-381 (the order of G1, G2 and GT),
 *   r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
 * Montgomery form (a·2^256 mod r), fully reduced, four little-endian 64-bit
 * limbs. Same conventions as fp.h. r - 1 = 2^32 · t with t odd: the
 * 2-adicity the NTT domains use. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/rng.h"

#define FR_LIMBS 4
#define FR_BYTES 32

typedef struct fr {
    uint64_t l[FR_LIMBS];
} fr_t;

extern const fr_t FR_ZERO;
extern const fr_t FR_ONE;
extern const uint64_t FR_MODULUS[FR_LIMBS];

/* r - 1 = 2^FR_TWO_ADICITY · t, t odd. FR_GENERATOR (7) generates the
 * multiplicative group; FR_ROOT_OF_UNITY = 7^t has order exactly 2^32. */
#define FR_TWO_ADICITY 32
#define FR_GENERATOR 7
extern const fr_t FR_ROOT_OF_UNITY;

void fr_add(fr_t *r, const fr_t *a, const fr_t *b);
void fr_sub(fr_t *r, const fr_t *a, const fr_t *b);
void fr_neg(fr_t *r, const fr_t *a);
void fr_dbl(fr_t *r, const fr_t *a);
void fr_mul(fr_t *r, const fr_t *a, const fr_t *b);
void fr_sqr(fr_t *r, const fr_t *a);

void fr_inv(fr_t *r, const fr_t *a);
void fr_inv_var(fr_t *r, const fr_t *a);
void fr_batch_inv_var(fr_t *out, const fr_t *in, size_t n);

bool fr_sqrt(fr_t *r, const fr_t *a);
bool fr_is_square(const fr_t *a);
void fr_pow_var(fr_t *r, const fr_t *a, const uint64_t *e, size_t e_limbs);

bool fr_eq(const fr_t *a, const fr_t *b);
bool fr_is_zero(const fr_t *a);
bool fr_is_one(const fr_t *a);
void fr_cmov(fr_t *r, const fr_t *a, bool flag);

void fr_from_u64(fr_t *r, uint64_t v);
void fr_from_raw(fr_t *r, const uint64_t raw[FR_LIMBS]);
void fr_to_raw(uint64_t raw[FR_LIMBS], const fr_t *a);

void fr_to_bytes_be(uint8_t out[FR_BYTES], const fr_t *a);
bool fr_from_bytes_be(fr_t *r, const uint8_t in[FR_BYTES]);
void fr_to_bytes_le(uint8_t out[FR_BYTES], const fr_t *a);
bool fr_from_bytes_le(fr_t *r, const uint8_t in[FR_BYTES]);

void fr_random(fr_t *r, rng_t *rng);

#endif
