/* Points outside the subgroups (off_subgroup.h). */
#include "off_subgroup.h"

#include "field/fp2.h"

/* y² = x³ + 4 over Fp. */
void g1_off_subgroup(g1_affine_t *out, rng_t *rng)
{
    fp_t b, rhs, t;
    fp_from_u64(&b, 4);
    do {
        fp_random(&out->x, rng);
        fp_sqr(&t, &out->x);
        fp_mul(&rhs, &t, &out->x);
        fp_add(&rhs, &rhs, &b);
    } while (!fp_sqrt(&out->y, &rhs));
    out->infinity = false;
}

/* y² = x³ + 4(u + 1) over Fp2. */
void g2_off_subgroup(g2_affine_t *out, rng_t *rng)
{
    fp2_t b, rhs, t;
    fp_from_u64(&b.c0, 4);
    fp_from_u64(&b.c1, 4);
    do {
        fp2_random(&out->x, rng);
        fp2_sqr(&t, &out->x);
        fp2_mul(&rhs, &t, &out->x);
        fp2_add(&rhs, &rhs, &b);
    } while (!fp2_sqrt(&out->y, &rhs));
    out->infinity = false;
}
