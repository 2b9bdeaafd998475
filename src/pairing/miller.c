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

typedef struct g2_proj {
    fp2_t x, y, z;
} g2_proj_t;

/* A line is l[0] + l[1]·xP v + l[2]·yP v w: l[1] and l[2] still await P. */

/* r = 3a and r = 12a with additions (fp_mul_small walks every bit of k). */
static void fp2_mul3(fp2_t *r, const fp2_t *a)
{
    fp2_t t;
    fp2_dbl(&t, a);
    fp2_add(r, &t, a);
}

static void fp2_mul12(fp2_t *r, const fp2_t *a)
{
    fp2_mul3(r, a);
    fp2_dbl(r, r);
    fp2_dbl(r, r);
}

/* T = 2T and the tangent line at T. Costello, Lange, Naehrig, "Faster
 * pairing computations on curves with high-degree twists", PKC 2010, §5
 * (homogeneous, y² = x³ + b'), with the result scaled by 4 to avoid the
 * halvings: with B = Y², C = Z², E = 3b'C, F = 3E, H = 2YZ,
 *   X3 = 2XY(B − F),  Y3 = (B + F)² − 12E²,  Z3 = 4BH,
 *   line = (E − B) + 3X²·xP v − H·yP v w. */
static void dbl_step(fp2_t l[3], g2_proj_t *t)
{
    fp2_t b, c, e, f, h, j, s;
    fp2_sqr(&j, &t->x);
    fp2_sqr(&b, &t->y);
    fp2_sqr(&c, &t->z);
    /* E = 3b'C = 12ξC */
    fp2_mul_nonresidue(&e, &c);
    fp2_mul12(&e, &e);
    fp2_mul3(&f, &e);
    /* H = (Y + Z)² − B − C */
    fp2_add(&h, &t->y, &t->z);
    fp2_sqr(&h, &h);
    fp2_sub(&h, &h, &b);
    fp2_sub(&h, &h, &c);

    /* line */
    fp2_sub(&l[0], &e, &b);
    fp2_mul3(&l[1], &j);
    fp2_neg(&l[2], &h);

    /* X3 = 2XY(B − F) */
    fp2_mul(&s, &t->x, &t->y);
    fp2_sub(&c, &b, &f);
    fp2_mul(&s, &s, &c);
    fp2_dbl(&t->x, &s);
    /* Z3 = 4BH */
    fp2_mul(&s, &b, &h);
    fp2_dbl(&s, &s);
    fp2_dbl(&t->z, &s);
    /* Y3 = (B + F)² − 12E² */
    fp2_add(&s, &b, &f);
    fp2_sqr(&s, &s);
    fp2_sqr(&e, &e);
    fp2_mul12(&e, &e);
    fp2_sub(&t->y, &s, &e);
}

/* T = T + Q (Q affine) and the line through them. Costello, Lange, Naehrig
 * 2010, §5 (mixed addition): θ = Y − yQ Z, λ = X − xQ Z, D = λ², E = λ³,
 * F = Zθ², G = XD, H = E + F − 2G,
 *   X3 = λH,  Y3 = θ(G − H) − YE,  Z3 = ZE,
 *   line = (θ xQ − λ yQ) − θ·xP v + λ·yP v w. */
static void add_step(fp2_t l[3], g2_proj_t *t, const g2_affine_t *q)
{
    fp2_t theta, lambda, d, e, f, g, h, s;
    fp2_mul(&theta, &q->y, &t->z);
    fp2_sub(&theta, &t->y, &theta);
    fp2_mul(&lambda, &q->x, &t->z);
    fp2_sub(&lambda, &t->x, &lambda);

    fp2_sqr(&d, &lambda);
    fp2_mul(&e, &lambda, &d);
    fp2_sqr(&f, &theta);
    fp2_mul(&f, &f, &t->z);
    fp2_mul(&g, &t->x, &d);
    fp2_add(&h, &e, &f);
    fp2_sub(&h, &h, &g);
    fp2_sub(&h, &h, &g);

    fp2_mul(&t->x, &lambda, &h);
    fp2_sub(&s, &g, &h);
    fp2_mul(&s, &s, &theta);
    fp2_mul(&g, &t->y, &e);
    fp2_sub(&t->y, &s, &g);
    fp2_mul(&t->z, &t->z, &e);

    fp2_mul(&s, &theta, &q->x);
    fp2_mul(&g, &lambda, &q->y);
    fp2_sub(&l[0], &s, &g);
    fp2_neg(&l[1], &theta);
    l[2] = lambda;
}

/* f = f · line(P). */
static void mul_by_line(fp12_t *f, const fp2_t l[3], const g1_affine_t *p)
{
    fp2_t l1, l4;
    fp2_mul_fp(&l1, &l[1], &p->x);
    fp2_mul_fp(&l4, &l[2], &p->y);
    fp12_mul_by_014(f, f, &l[0], &l1, &l4);
}

static void proj_from_affine(g2_proj_t *t, const g2_affine_t *q)
{
    t->x = q->x;
    t->y = q->y;
    t->z = FP2_ONE;
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
