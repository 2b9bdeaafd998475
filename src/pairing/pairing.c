/* The pairing entry points: single pairings and products of pairings with
 * one shared final exponentiation (miller.c, final_exp.c). */

#include "pairing/pairing.h"

void pairing(fp12_t *r, const g1_affine_t *p, const g2_affine_t *q)
{
    fp12_t f;
    miller_loop(&f, p, q);
    final_exp(r, &f);
}

bool pairing_product_is_one(const g1_affine_t *p, const g2_affine_t *q, size_t n)
{
    fp12_t f;
    multi_miller_loop(&f, p, q, n);
    final_exp(&f, &f);
    return fp12_is_one(&f);
}

bool pairing_product_is_one_prepared(const g1_affine_t *p, const g2_prepared_t *const *q, size_t n)
{
    fp12_t f;
    multi_miller_loop_prepared(&f, p, q, n);
    final_exp(&f, &f);
    return fp12_is_one(&f);
}
