#ifndef CUZK_FIELD_FP_H
#define CUZK_FIELD_FP_H

/* Fp: the base field of BLS12-381,
 *   p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
 * Elements are kept in Montgomery form (a·R mod p, R = 2^384), fully reduced
 * (< p), as six little-endian 64-bit limbs. All functions are constant time
 * unless their name ends in _var. Outputs come first and may alias inputs. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/rng.h"

#define FP_LIMBS 6
#define FP_BYTES 48

typedef struct fp {
    uint64_t l[FP_LIMBS];
} fp_t;

extern const fp_t FP_ZERO;
extern const fp_t FP_ONE;            /* 1 in Montgomery form (R mod p) */
extern const uint64_t FP_MODULUS[FP_LIMBS]; /* p, plain little-endian limbs */

void fp_add(fp_t *r, const fp_t *a, const fp_t *b);
void fp_sub(fp_t *r, const fp_t *a, const fp_t *b);
void fp_neg(fp_t *r, const fp_t *a);
void fp_dbl(fp_t *r, const fp_t *a);
void fp_mul(fp_t *r, const fp_t *a, const fp_t *b);
void fp_sqr(fp_t *r, const fp_t *a);
/* r = a * small integer (small additions chain; for curve formulas). */
void fp_mul_small(fp_t *r, const fp_t *a, unsigned k);

/* Inversion: constant time (Fermat); the inverse of 0 is 0. */
void fp_inv(fp_t *r, const fp_t *a);
/* Variable-time inversion (binary extended Euclid), for public data only. */
void fp_inv_var(fp_t *r, const fp_t *a);
/* Montgomery's trick: out[i] = 1/in[i] (zeros stay zero); out may equal in.
 * Variable time in which inputs are zero; public data only. */
void fp_batch_inv_var(fp_t *out, const fp_t *in, size_t n);

/* Square root: returns true and r with r² = a, or false (r unspecified)
 * when a is not a square. */
bool fp_sqrt(fp_t *r, const fp_t *a);
bool fp_is_square(const fp_t *a);

/* r = a^e, e given as little-endian 64-bit limbs; variable time in e. */
void fp_pow_var(fp_t *r, const fp_t *a, const uint64_t *e, size_t e_limbs);

bool fp_eq(const fp_t *a, const fp_t *b);
bool fp_is_zero(const fp_t *a);
bool fp_is_one(const fp_t *a);
/* The ZCash "lexicographically largest" rule: a > (p-1)/2 as an integer. */
bool fp_is_lex_largest(const fp_t *a);
/* r = flag ? a : r, constant time. */
void fp_cmov(fp_t *r, const fp_t *a, bool flag);

void fp_from_u64(fp_t *r, uint64_t v);
/* Canonical integer limbs <-> Montgomery form. fp_from_raw requires raw < p. */
void fp_from_raw(fp_t *r, const uint64_t raw[FP_LIMBS]);
void fp_to_raw(uint64_t raw[FP_LIMBS], const fp_t *a);

/* 48-byte canonical encodings. The decoders reject values >= p (return false). */
void fp_to_bytes_be(uint8_t out[FP_BYTES], const fp_t *a);
bool fp_from_bytes_be(fp_t *r, const uint8_t in[FP_BYTES]);
void fp_to_bytes_le(uint8_t out[FP_BYTES], const fp_t *a);
bool fp_from_bytes_le(fp_t *r, const uint8_t in[FP_BYTES]);

/* Uniform in [0, p), by rejection sampling. */
void fp_random(fp_t *r, rng_t *rng);

#endif
