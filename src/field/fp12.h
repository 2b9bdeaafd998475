#ifndef CUZK_FIELD_FP12_H
#define CUZK_FIELD_FP12_H

/* Fp12 = Fp6[w] / (w² − v); an element is c0 + c1·w, and GT (the pairing's
 * target group, order r) lives in its cyclotomic subgroup. Constant time
 * unless the name ends in _var; outputs first, and outputs may alias inputs. */

#include "field/fp6.h"

/* 12 Fp coefficients of 48 bytes: c0.c0.c0 c0.c0.c1 c0.c1.c0 … c1.c2.c1. */
#define FP12_BYTES (12 * FP_BYTES)

typedef struct fp12 {
    fp6_t c0, c1;
} fp12_t;

extern const fp12_t FP12_ONE;

void fp12_add(fp12_t *r, const fp12_t *a, const fp12_t *b);
void fp12_sub(fp12_t *r, const fp12_t *a, const fp12_t *b);
void fp12_neg(fp12_t *r, const fp12_t *a);
void fp12_mul(fp12_t *r, const fp12_t *a, const fp12_t *b);
void fp12_sqr(fp12_t *r, const fp12_t *a);
void fp12_inv(fp12_t *r, const fp12_t *a);
/* r = c0 − c1·w = a^(p^6); the inverse for elements of the cyclotomic subgroup. */
void fp12_conj(fp12_t *r, const fp12_t *a);
void fp12_pow_var(fp12_t *r, const fp12_t *a, const uint64_t *e, size_t e_limbs);

/* Sparse product by a Miller-loop line l0 + l1·v + l4·v·w, the shape of a
 * line of the M-type twist evaluated at a G1 point (fp12 coefficients 0, 1
 * and 4 in the order c0.c0, c0.c1, c0.c2, c1.c0, c1.c1, c1.c2). */
void fp12_mul_by_014(fp12_t *r, const fp12_t *a, const fp2_t *l0, const fp2_t *l1, const fp2_t *l4);

/* Frobenius maps: r = a^(p^k); k = 1, 2, 3 directly, larger k by
 * composition (fp12_frobenius.c). */
void fp12_frobenius(fp12_t *r, const fp12_t *a, unsigned k);

/* Cyclotomic subgroup (elements with a^(p^6 + 1) = 1 and a^(p^4 − p^2 + 1)
 * = 1, e.g. after the easy part of the final exponentiation;
 * fp12_cyclotomic.c). Results are unspecified for other inputs. */
void fp12_cyclotomic_sqr(fp12_t *r, const fp12_t *a);
/* r = a^x for the BLS parameter x = −0xd201000000010000. */
void fp12_cyclotomic_exp_x(fp12_t *r, const fp12_t *a);
/* r = a^e, e given as little-endian limbs; variable time in e. */
void fp12_cyclotomic_pow_var(fp12_t *r, const fp12_t *a, const uint64_t *e, size_t e_limbs);

bool fp12_eq(const fp12_t *a, const fp12_t *b);
bool fp12_is_one(const fp12_t *a);
bool fp12_is_zero(const fp12_t *a);
void fp12_cmov(fp12_t *r, const fp12_t *a, bool flag);

/* 576-byte big-endian encoding (the GT format of the key files). The decoder
 * rejects coefficients >= p; it does not check membership in GT. */
void fp12_to_bytes_be(uint8_t out[FP12_BYTES], const fp12_t *a);
bool fp12_from_bytes_be(fp12_t *r, const uint8_t in[FP12_BYTES]);

void fp12_random(fp12_t *r, rng_t *rng);

#endif
