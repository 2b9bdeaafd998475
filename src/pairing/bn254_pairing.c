/* The optimal ate pairing on BN254 (bn254_pairing.h).
 *
 * Miller loop: f_{6x+2,Q}(P) over the signed digits (NAF) of 6x + 2, with
 * T on the twist E': y² = x³ + 3/ξ in homogeneous projective coordinates
 * through the doubling and addition steps shared with BLS12-381
 * (miller_steps_impl.h), then the two lines of the optimal ate pairing for
 * BN curves: through T and π(Q), and through T + π(Q) and −π²(Q)
 * (Vercauteren, "Optimal pairings", IEEE Trans. Inf. Theory 56(1), 2010,
 * §IV; Beuchat et al., "High-speed software implementation of the optimal
 * ate pairing over Barreto-Naehrig curves", Pairing 2010, Algorithm 1).
 * BN254's twist is D-type: ψ(x, y) = (x w², y w³) maps E' to E, so a line
 * has the sparse shape a0 + a1 w + a3 w³ (fp12 coefficients 0, 3, 4:
 * bn254_fp12_mul_by_034). π is the Frobenius on E' carried through ψ:
 * π(x, y) = (conj(x) γ_{1,2}, conj(y) γ_{1,3}), π²(x, y) = (x γ_{2,2}, y γ_{2,3}).
 *
 * Final exponentiation: the easy part as for BLS12-381, then the hard part
 * d = (p^4 − p^2 + 1)/r in one of two forms, each three exponentiations by
 * x and a few products:
 *   bn254_final_exp_exact: d = λ0 + λ1 p + λ2 p² + λ3 p³ with
 *     λ0 = −2 − 18x − 30x² − 36x³, λ1 = 1 − 12x − 18x² − 36x³, λ2 = 1 + 6x²,
 *     λ3 = 1, by the addition chain of Scott, Benger, Charlemagne, Dominguez
 *     Perez, Kachisa, "On the final exponentiation for calculating pairings
 *     on ordinary elliptic curves", Pairing 2009, §5;
 *   bn254_final_exp: the multiple k·d, k = 2x(6x² + 3x + 1) (prime to r), of
 *     Fuentes-Castañeda, Knapp, Rodríguez-Henríquez, "Faster hashing to G2",
 *     SAC 2011, §6: k·d = μ0 + μ1 p + μ2 p² + μ3 p³ with
 *     μ0 = 1 + 6x + 12x² + 12x³, μ1 = 4x + 6x² + 12x³, μ2 = 6x + 6x² + 12x³,
 *     μ3 = −1 + 4x + 6x² + 12x³ (checked with python3: the sum is k·d).
 *     This is the value snarkjs (vk_alphabeta_12) and @noble/curves compute. */

#include "pairing/bn254_pairing.h"

#include "field/tower_names_bn254.h"
#define MS_G2_AFF_T bn254_g2_affine_t

/* 3b' = 9/ξ: three times the b' of the twist. */
static void twist_3b(bn254_fp2_t *r, const bn254_fp2_t *a)
{
    bn254_fp2_t t;
    bn254_fp2_mul(&t, a, &BN254_G2_B);
    bn254_fp2_dbl(r, &t);
    bn254_fp2_add(r, r, &t);
}

#include "pairing/miller_steps_impl.h"

/* 6x + 2 = 0x19d797039be763ba8 in non-adjacent form, most significant digit
 * first (66 digits; computed with python3). */
static const signed char LOOP_NAF[66] = {
    1, 0, -1, 0, 1,  0, 0, 0, -1, 0, -1, 0,  0, 0,  -1, 0, 1, 0, -1, 0, 0, -1,
    0, 0, 0,  0, 0,  1, 0, 0, -1, 0, 1,  0,  0, -1, 0,  0, 0, 0, -1, 0, 1, 0,
    0, 0, -1, 0, -1, 0, 0, 1, 0,  0, 0,  -1, 0, 0,  -1, 0, 1, 0, 1,  0, 0, 0};

/* f = f · line(P) for the D-type placement of the three line values. */
static void mul_by_line(bn254_fp12_t *f, const bn254_fp2_t l[3], const bn254_g1_affine_t *p)
{
    bn254_fp2_t a0, a1;
    bn254_fp2_mul_fp(&a0, &l[2], &p->y);
    bn254_fp2_mul_fp(&a1, &l[1], &p->x);
    bn254_fp12_mul_by_034(f, f, &a0, &a1, &l[0]);
}

/* π(q) and −π²(q). */
static void frobenius_points(bn254_g2_affine_t *q1, bn254_g2_affine_t *q2,
                             const bn254_g2_affine_t *q)
{
    bn254_fp2_conj(&q1->x, &q->x);
    bn254_fp2_mul(&q1->x, &q1->x, &BN254_FP12_FROB[0][1]);
    bn254_fp2_conj(&q1->y, &q->y);
    bn254_fp2_mul(&q1->y, &q1->y, &BN254_FP12_FROB[0][2]);
    q1->infinity = false;
    bn254_fp2_mul(&q2->x, &q->x, &BN254_FP12_FROB[1][1]);
    bn254_fp2_mul(&q2->y, &q->y, &BN254_FP12_FROB[1][2]);
    bn254_fp2_neg(&q2->y, &q2->y);
    q2->infinity = false;
}

/* Pairs per pass: their running points live on the stack. */
#define MILLER_CHUNK 16

/* f = Π over one chunk (n <= MILLER_CHUNK) of the Miller loops with their
 * Frobenius lines. */
static void miller_chunk(bn254_fp12_t *f, const bn254_g1_affine_t *p, const bn254_g2_affine_t *q,
                         size_t n)
{
    g2_proj_t t[MILLER_CHUNK];
    bn254_g2_affine_t qq[MILLER_CHUNK], nq[MILLER_CHUNK];
    const bn254_g1_affine_t *pp[MILLER_CHUNK];
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i].infinity || q[i].infinity)
            continue;
        pp[m] = &p[i];
        qq[m] = q[i];
        bn254_g2_affine_neg(&nq[m], &q[i]);
        proj_from_affine(&t[m], &q[i]);
        m++;
    }
    *f = BN254_FP12_ONE;
    bn254_fp2_t l[3];
    for (size_t k = 1; k < sizeof(LOOP_NAF); k++) {
        if (k != 1)
            bn254_fp12_sqr(f, f);
        for (size_t i = 0; i < m; i++) {
            dbl_step(l, &t[i]);
            mul_by_line(f, l, pp[i]);
            if (LOOP_NAF[k] != 0) {
                add_step(l, &t[i], LOOP_NAF[k] > 0 ? &qq[i] : &nq[i]);
                mul_by_line(f, l, pp[i]);
            }
        }
    }
    for (size_t i = 0; i < m; i++) {
        bn254_g2_affine_t q1, q2;
        frobenius_points(&q1, &q2, &qq[i]);
        add_step(l, &t[i], &q1);
        mul_by_line(f, l, pp[i]);
        add_step(l, &t[i], &q2);
        mul_by_line(f, l, pp[i]);
    }
}

void bn254_multi_miller_loop(bn254_fp12_t *f, const bn254_g1_affine_t *p,
                             const bn254_g2_affine_t *q, size_t n)
{
    bn254_fp12_t acc = BN254_FP12_ONE, part;
    for (size_t start = 0; start < n; start += MILLER_CHUNK) {
        size_t len = n - start < MILLER_CHUNK ? n - start : MILLER_CHUNK;
        miller_chunk(&part, p + start, q + start, len);
        bn254_fp12_mul(&acc, &acc, &part);
    }
    *f = acc;
}

void bn254_final_exp_exact(bn254_fp12_t *r, const bn254_fp12_t *f)
{
    bn254_fp12_t m, t, fx, fx2, fx3, y0, y1, y2, y3, y4, y5, y6, t0, t1;
    bn254_fp12_final_exp_easy(&m, f);

    /* hard part: y0 = m^(p + p² + p³), y1 = 1/m, y2 = (m^(x²))^(p²),
     * y3 = 1/(m^x)^p, y4 = 1/(m^x · (m^(x²))^p), y5 = 1/m^(x²),
     * y6 = 1/(m^(x³) · (m^(x³))^p); m^d = y0 y1² y2⁶ y3¹² y4¹⁸ y5³⁰ y6³⁶. */
    bn254_fp12_cyclotomic_exp_x(&fx, &m);
    bn254_fp12_cyclotomic_exp_x(&fx2, &fx);
    bn254_fp12_cyclotomic_exp_x(&fx3, &fx2);
    bn254_fp12_frobenius(&y0, &m, 1);
    bn254_fp12_frobenius(&t, &m, 2);
    bn254_fp12_mul(&y0, &y0, &t);
    bn254_fp12_frobenius(&t, &m, 3);
    bn254_fp12_mul(&y0, &y0, &t);
    bn254_fp12_conj(&y1, &m);
    bn254_fp12_frobenius(&y2, &fx2, 2);
    bn254_fp12_frobenius(&y3, &fx, 1);
    bn254_fp12_conj(&y3, &y3);
    bn254_fp12_frobenius(&y4, &fx2, 1);
    bn254_fp12_mul(&y4, &y4, &fx);
    bn254_fp12_conj(&y4, &y4);
    bn254_fp12_conj(&y5, &fx2);
    bn254_fp12_frobenius(&y6, &fx3, 1);
    bn254_fp12_mul(&y6, &y6, &fx3);
    bn254_fp12_conj(&y6, &y6);

    /* the addition chain */
    bn254_fp12_cyclotomic_sqr(&t0, &y6);
    bn254_fp12_mul(&t0, &t0, &y4);
    bn254_fp12_mul(&t0, &t0, &y5);
    bn254_fp12_mul(&t1, &y3, &y5);
    bn254_fp12_mul(&t1, &t1, &t0);
    bn254_fp12_mul(&t0, &t0, &y2);
    bn254_fp12_cyclotomic_sqr(&t1, &t1);
    bn254_fp12_mul(&t1, &t1, &t0);
    bn254_fp12_cyclotomic_sqr(&t1, &t1);
    bn254_fp12_mul(&t0, &t1, &y1);
    bn254_fp12_mul(&t1, &t1, &y0);
    bn254_fp12_cyclotomic_sqr(&t0, &t0);
    bn254_fp12_mul(r, &t1, &t0);
}

void bn254_final_exp(bn254_fp12_t *r, const bn254_fp12_t *f)
{
    bn254_fp12_t m, m2x, m4x, a, b, c, s0, s1, t;
    bn254_fp12_final_exp_easy(&m, f);
    /* a = m^(6x), b = a^x = m^(6x²), c = (b²)^x = m^(12x³) */
    bn254_fp12_cyclotomic_exp_x(&m2x, &m);
    bn254_fp12_cyclotomic_sqr(&m2x, &m2x);
    bn254_fp12_cyclotomic_sqr(&m4x, &m2x);
    bn254_fp12_mul(&a, &m2x, &m4x);
    bn254_fp12_cyclotomic_exp_x(&b, &a);
    bn254_fp12_cyclotomic_sqr(&c, &b);
    bn254_fp12_cyclotomic_exp_x(&c, &c);
    /* s0 = m^(6x² + 12x³), shared by μ1, μ2, μ3 */
    bn254_fp12_mul(&s0, &b, &c);
    /* μ0: m · a · b² · c */
    bn254_fp12_cyclotomic_sqr(&t, &b);
    bn254_fp12_mul(&t, &t, &c);
    bn254_fp12_mul(&t, &t, &a);
    bn254_fp12_mul(r, &t, &m);
    /* μ1: m^(4x) · s0, then ^p */
    bn254_fp12_mul(&s1, &m4x, &s0);
    bn254_fp12_frobenius(&t, &s1, 1);
    bn254_fp12_mul(r, r, &t);
    /* μ2: a · s0, then ^(p²) */
    bn254_fp12_mul(&t, &a, &s0);
    bn254_fp12_frobenius(&t, &t, 2);
    bn254_fp12_mul(r, r, &t);
    /* μ3: m⁻¹ · m^(4x) · s0 = conj(m) · s1, then ^(p³) */
    bn254_fp12_conj(&t, &m);
    bn254_fp12_mul(&t, &t, &s1);
    bn254_fp12_frobenius(&t, &t, 3);
    bn254_fp12_mul(r, r, &t);
}

void bn254_pairing(bn254_fp12_t *r, const bn254_g1_affine_t *p, const bn254_g2_affine_t *q)
{
    bn254_fp12_t f;
    bn254_multi_miller_loop(&f, p, q, 1);
    bn254_final_exp(r, &f);
}

bool bn254_pairing_product_is_one(const bn254_g1_affine_t *p, const bn254_g2_affine_t *q, size_t n)
{
    bn254_fp12_t f;
    bn254_multi_miller_loop(&f, p, q, n);
    bn254_final_exp(&f, &f);
    return bn254_fp12_is_one(&f);
}
