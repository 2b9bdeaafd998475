#ifndef CUZK_FIELD_FP2_H
#define CUZK_FIELD_FP2_H

/* Fp2 = Fp[u] / (u² + 1); an element is c0 + c1·u. The higher tower
 * (fp6.h, fp12.h) is Fp6 = Fp2[v] / (v³ − (u + 1)), Fp12 = Fp6[w] / (w² − v). */

#include "field/fp.h"

typedef struct fp2 {
    fp_t c0, c1;
} fp2_t;

extern const fp2_t FP2_ZERO;
extern const fp2_t FP2_ONE;

void fp2_add(fp2_t *r, const fp2_t *a, const fp2_t *b);
void fp2_sub(fp2_t *r, const fp2_t *a, const fp2_t *b);
void fp2_neg(fp2_t *r, const fp2_t *a);
void fp2_dbl(fp2_t *r, const fp2_t *a);
void fp2_mul(fp2_t *r, const fp2_t *a, const fp2_t *b);
void fp2_sqr(fp2_t *r, const fp2_t *a);
void fp2_mul_fp(fp2_t *r, const fp2_t *a, const fp_t *b);
void fp2_mul_small(fp2_t *r, const fp2_t *a, unsigned k);
/* r = a · (u + 1), the non-residue that defines Fp6. */
void fp2_mul_nonresidue(fp2_t *r, const fp2_t *a);
/* r = c0 − c1·u, which is also the Frobenius map a^p. */
void fp2_conj(fp2_t *r, const fp2_t *a);
void fp2_inv(fp2_t *r, const fp2_t *a);
void fp2_inv_var(fp2_t *r, const fp2_t *a);
void fp2_batch_inv_var(fp2_t *out, const fp2_t *in, size_t n);
bool fp2_sqrt(fp2_t *r, const fp2_t *a);
bool fp2_is_square(const fp2_t *a);
void fp2_pow_var(fp2_t *r, const fp2_t *a, const uint64_t *e, size_t e_limbs);

bool fp2_eq(const fp2_t *a, const fp2_t *b);
bool fp2_is_zero(const fp2_t *a);
bool fp2_is_one(const fp2_t *a);
/* ZCash rule for Fp2: compare c1 first; when c1 = 0 compare c0. */
bool fp2_is_lex_largest(const fp2_t *a);
void fp2_cmov(fp2_t *r, const fp2_t *a, bool flag);

/* 96-byte big-endian encoding in ZCash order: c1 then c0. */
void fp2_to_bytes_be(uint8_t out[2 * FP_BYTES], const fp2_t *a);
bool fp2_from_bytes_be(fp2_t *r, const uint8_t in[2 * FP_BYTES]);

void fp2_random(fp2_t *r, rng_t *rng);

#endif
