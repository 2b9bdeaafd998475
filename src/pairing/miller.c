/* The Miller loop of the optimal ate pairing on BLS12-381.
 *
 * f_{|x|,Q}(P) by double-and-add over the bits of |x| = 0xd201000000010000,
 * with T kept on the twist E'(Fp2): y² = x³ + 4ξ in homogeneous projective
 * coordinates (x = X/Z, y = Y/Z), so no inversions are needed.
 *
 * BLS12-381 uses an M-type sextic twist: ψ(x, y) = (x/w², y/w³) maps E' to
 * E. A line through points of E' with slope λ', evaluated at P = (xP, yP)
 * and multiplied by w³ (which lies in Fp4 and dies in the final
 * exponentiation), is
 *   (λ' x_T − y_T) − λ' xP · v + yP · v w,
 * so every line has the sparse shape l0 + l1 v + l4 v w (fp12_mul_by_014);
 * factors in Fp2 are dropped for the same reason. Since x < 0, the loop ends
 * with a conjugation: f_{x,Q} = 1/f_{|x|,Q} up to factors the final
 * exponentiation removes, and 1/f equals conj(f) after it. */

#include "pairing/pairing.h"

/* |x| for x = −0xd201000000010000; its top bit is bit 63. */
#define BLS_X_ABS 0xd201000000010000ULL
#define BLS_X_TOP 63

#include "field/tower_names_bls12_381.h"
#define MS_G2_AFF_T g2_affine_t

/* 3b' = 12ξ for b' = 4ξ. */
static void twist_3b(fp2_t *r, const fp2_t *a)
{
    fp2_t t;
    fp2_mul_nonresidue(&t, a);
    fp2_dbl(&t, &t);
    fp2_dbl(&t, &t);
    fp2_dbl(r, &t);
    fp2_add(r, r, &t);
}

#include "pairing/miller_steps_impl.h"

/* f = f · line(P). */
static void mul_by_line(fp12_t *f, const fp2_t l[3], const g1_affine_t *p)
{
    fp2_t l1, l4;
    fp2_mul_fp(&l1, &l[1], &p->x);
    fp2_mul_fp(&l4, &l[2], &p->y);
    fp12_mul_by_014(f, f, &l[0], &l1, &l4);
}

/* Pairs per pass of the unprepared multi-loop: their running points T live
 * on the stack, and each pass shares the squarings of f among its pairs. */
#define MILLER_CHUNK 16

/* f = Π f_{|x|,Q_i}(P_i) over the pairs of one chunk (n <= MILLER_CHUNK). */
static void miller_chunk(fp12_t *f, const g1_affine_t *p, const g2_affine_t *q, size_t n)
{
    g2_proj_t t[MILLER_CHUNK];
    const g1_affine_t *pp[MILLER_CHUNK];
    const g2_affine_t *qq[MILLER_CHUNK];
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i].infinity || q[i].infinity)
            continue;
        pp[m] = &p[i];
        qq[m] = &q[i];
        proj_from_affine(&t[m], &q[i]);
        m++;
    }
    *f = FP12_ONE;
    fp2_t l[3];
    for (int bit = BLS_X_TOP - 1; bit >= 0; bit--) {
        if (bit != BLS_X_TOP - 1)
            fp12_sqr(f, f);
        for (size_t i = 0; i < m; i++) {
            dbl_step(l, &t[i]);
            mul_by_line(f, l, pp[i]);
        }
        if ((BLS_X_ABS >> bit) & 1) {
            for (size_t i = 0; i < m; i++) {
                add_step(l, &t[i], qq[i]);
                mul_by_line(f, l, pp[i]);
            }
        }
    }
}

void multi_miller_loop(fp12_t *f, const g1_affine_t *p, const g2_affine_t *q, size_t n)
{
    fp12_t acc = FP12_ONE, part;
    for (size_t start = 0; start < n; start += MILLER_CHUNK) {
        size_t len = n - start < MILLER_CHUNK ? n - start : MILLER_CHUNK;
        miller_chunk(&part, p + start, q + start, len);
        if (start == 0)
            acc = part;
        else
            fp12_mul(&acc, &acc, &part);
    }
    fp12_conj(f, &acc);
}

void miller_loop(fp12_t *f, const g1_affine_t *p, const g2_affine_t *q)
{
    multi_miller_loop(f, p, q, 1);
}

void g2_prepare(g2_prepared_t *r, const g2_affine_t *q)
{
    r->infinity = q->infinity;
    if (q->infinity)
        return;
    g2_proj_t t;
    size_t k = 0;
    proj_from_affine(&t, q);
    for (int bit = BLS_X_TOP - 1; bit >= 0; bit--) {
        dbl_step(r->l[k++], &t);
        if ((BLS_X_ABS >> bit) & 1)
            add_step(r->l[k++], &t, q);
    }
}

void multi_miller_loop_prepared(fp12_t *f, const g1_affine_t *p, const g2_prepared_t *const *q,
                                size_t n)
{
    fp12_t acc = FP12_ONE;
    size_t k = 0;
    for (int bit = BLS_X_TOP - 1; bit >= 0; bit--) {
        if (bit != BLS_X_TOP - 1)
            fp12_sqr(&acc, &acc);
        int steps = ((BLS_X_ABS >> bit) & 1) ? 2 : 1;
        for (int s = 0; s < steps; s++, k++) {
            for (size_t i = 0; i < n; i++) {
                if (p[i].infinity || q[i]->infinity)
                    continue;
                mul_by_line(&acc, q[i]->l[k], &p[i]);
            }
        }
    }
    fp12_conj(f, &acc);
}
