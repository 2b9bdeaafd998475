/* Fp2 = Fp[u] / (u² + 1) over the BLS12-381 base field: the multiplication by
 * ξ = u + 1 and 1/2, then the shared template fp2_impl.h. */

#include "field/fp2.h"

#include "field/tower_names_bls12_381.h"

/* (c0 + c1 u)(1 + u) = (c0 − c1) + (c0 + c1) u. */
void fp2_mul_nonresidue(fp2_t *r, const fp2_t *a)
{
    fp_t t;
    fp_sub(&t, &a->c0, &a->c1);
    fp_add(&r->c1, &a->c0, &a->c1);
    r->c0 = t;
}

/* 1/2 in Montgomery form. */
static const fp_t FP2_HALF = {{0x1804000000015554ULL, 0x855000053ab00001ULL, 0x633cb57c253c276fULL,
                               0x6e22d1ec31ebb502ULL, 0xd3916126f2d14ca2ULL,
                               0x17fbb8571a006596ULL}};

#define F1_HALF FP2_HALF

#include "field/fp2_impl.h"
