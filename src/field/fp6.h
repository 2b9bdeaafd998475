#ifndef CUZK_FIELD_FP6_H
#define CUZK_FIELD_FP6_H

/* Fp6 = Fp2[v] / (v³ − ξ), ξ = u + 1; an element is c0 + c1·v + c2·v².
 * Constant time; outputs first, and outputs may alias inputs. */

#include "field/fp2.h"

typedef struct fp6 {
    fp2_t c0, c1, c2;
} fp6_t;

extern const fp6_t FP6_ZERO;
extern const fp6_t FP6_ONE;

void fp6_add(fp6_t *r, const fp6_t *a, const fp6_t *b);
void fp6_sub(fp6_t *r, const fp6_t *a, const fp6_t *b);
void fp6_neg(fp6_t *r, const fp6_t *a);
void fp6_dbl(fp6_t *r, const fp6_t *a);
void fp6_mul(fp6_t *r, const fp6_t *a, const fp6_t *b);
void fp6_sqr(fp6_t *r, const fp6_t *a);
void fp6_inv(fp6_t *r, const fp6_t *a);
/* r = a · v (the non-residue that defines Fp12). */
void fp6_mul_by_v(fp6_t *r, const fp6_t *a);
/* Sparse products for the Miller loop's lines:
 *   fp6_mul_by_01: b = b0 + b1·v;   fp6_mul_by_1: b = b1·v. */
void fp6_mul_by_01(fp6_t *r, const fp6_t *a, const fp2_t *b0, const fp2_t *b1);
void fp6_mul_by_1(fp6_t *r, const fp6_t *a, const fp2_t *b1);
void fp6_mul_fp2(fp6_t *r, const fp6_t *a, const fp2_t *b);
/* r = a^(p^k); k = 1, 2, 3 directly, larger k by composition
 * (fp12_frobenius.c). */
void fp6_frobenius(fp6_t *r, const fp6_t *a, unsigned k);

bool fp6_eq(const fp6_t *a, const fp6_t *b);
bool fp6_is_zero(const fp6_t *a);
bool fp6_is_one(const fp6_t *a);
void fp6_cmov(fp6_t *r, const fp6_t *a, bool flag);
void fp6_random(fp6_t *r, rng_t *rng);

#endif
