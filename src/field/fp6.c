/* The middle of the BLS12-381 tower:
 *
 *   Fp2  = Fp[u]  / (u² + 1)
 *   Fp6  = Fp2[v] / (v³ − ξ),  ξ = u + 1      <- this file
 *   Fp12 = Fp6[w] / (w² − v)
 *
 * An element is c0 + c1·v + c2·v², so a product's v³ terms fold back as ξ.
 * The Frobenius map lives in fp12_frobenius.c with its constants. */

#include "field/fp6.h"

const fp6_t FP6_ZERO = {{{{0}}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}};
const fp6_t FP6_ONE = {{{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                          0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
                        {{0}}},
                       {{{0}}, {{0}}},
                       {{{0}}, {{0}}}};

void fp6_add(fp6_t *r, const fp6_t *a, const fp6_t *b)
{
    fp2_add(&r->c0, &a->c0, &b->c0);
    fp2_add(&r->c1, &a->c1, &b->c1);
    fp2_add(&r->c2, &a->c2, &b->c2);
}

void fp6_sub(fp6_t *r, const fp6_t *a, const fp6_t *b)
{
    fp2_sub(&r->c0, &a->c0, &b->c0);
    fp2_sub(&r->c1, &a->c1, &b->c1);
    fp2_sub(&r->c2, &a->c2, &b->c2);
}

void fp6_neg(fp6_t *r, const fp6_t *a)
{
    fp2_neg(&r->c0, &a->c0);
    fp2_neg(&r->c1, &a->c1);
    fp2_neg(&r->c2, &a->c2);
}

void fp6_dbl(fp6_t *r, const fp6_t *a)
{
    fp2_dbl(&r->c0, &a->c0);
    fp2_dbl(&r->c1, &a->c1);
    fp2_dbl(&r->c2, &a->c2);
}

/* Karatsuba over three coefficients: six Fp2 products instead of nine
 * (Devegili, Ó hÉigeartaigh, Scott, Dahab, "Multiplication and squaring on
 * pairing-friendly fields", 2006, §4). */
void fp6_mul(fp6_t *r, const fp6_t *a, const fp6_t *b)
{
    fp2_t t0, t1, t2, s, u, c0, c1, c2;
    fp2_mul(&t0, &a->c0, &b->c0);
    fp2_mul(&t1, &a->c1, &b->c1);
    fp2_mul(&t2, &a->c2, &b->c2);

    /* c0 = t0 + ξ((a1 + a2)(b1 + b2) − t1 − t2) */
    fp2_add(&s, &a->c1, &a->c2);
    fp2_add(&u, &b->c1, &b->c2);
    fp2_mul(&s, &s, &u);
    fp2_sub(&s, &s, &t1);
    fp2_sub(&s, &s, &t2);
    fp2_mul_nonresidue(&s, &s);
    fp2_add(&c0, &s, &t0);

    /* c1 = (a0 + a1)(b0 + b1) − t0 − t1 + ξ t2 */
    fp2_add(&s, &a->c0, &a->c1);
    fp2_add(&u, &b->c0, &b->c1);
    fp2_mul(&s, &s, &u);
    fp2_sub(&s, &s, &t0);
    fp2_sub(&s, &s, &t1);
    fp2_mul_nonresidue(&u, &t2);
    fp2_add(&c1, &s, &u);

    /* c2 = (a0 + a2)(b0 + b2) − t0 − t2 + t1 */
    fp2_add(&s, &a->c0, &a->c2);
    fp2_add(&u, &b->c0, &b->c2);
    fp2_mul(&s, &s, &u);
    fp2_sub(&s, &s, &t0);
    fp2_sub(&s, &s, &t2);
    fp2_add(&c2, &s, &t1);

    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

/* Chung–Hasan SQR2 ("Asymmetric squaring formulae", 2007, §3.2): two
 * products and three squarings. */
void fp6_sqr(fp6_t *r, const fp6_t *a)
{
    fp2_t s0, s1, s2, s3, s4, t;
    fp2_sqr(&s0, &a->c0);
    fp2_mul(&s1, &a->c0, &a->c1);
    fp2_dbl(&s1, &s1);
    fp2_sub(&t, &a->c0, &a->c1);
    fp2_add(&t, &t, &a->c2);
    fp2_sqr(&s2, &t);
    fp2_mul(&s3, &a->c1, &a->c2);
    fp2_dbl(&s3, &s3);
    fp2_sqr(&s4, &a->c2);

    /* c2 = s1 + s2 + s3 − s0 − s4 */
    fp2_add(&t, &s1, &s2);
    fp2_add(&t, &t, &s3);
    fp2_sub(&t, &t, &s0);
    fp2_sub(&r->c2, &t, &s4);
    /* c0 = s0 + ξ s3, c1 = s1 + ξ s4 */
    fp2_mul_nonresidue(&s3, &s3);
    fp2_add(&r->c0, &s0, &s3);
    fp2_mul_nonresidue(&s4, &s4);
    fp2_add(&r->c1, &s1, &s4);
}

/* Inversion through the adjugate: with
 *   t0 = a0² − ξ a1 a2,  t1 = ξ a2² − a0 a1,  t2 = a1² − a0 a2,
 * a · (t0 + t1 v + t2 v²) = a0 t0 + ξ (a2 t1 + a1 t2) ∈ Fp2
 * (Guide to Pairing-Based Cryptography, Algorithm 5.23). */
void fp6_inv(fp6_t *r, const fp6_t *a)
{
    fp2_t t0, t1, t2, s, d;
    fp2_sqr(&t0, &a->c0);
    fp2_mul(&s, &a->c1, &a->c2);
    fp2_mul_nonresidue(&s, &s);
    fp2_sub(&t0, &t0, &s);

    fp2_sqr(&t1, &a->c2);
    fp2_mul_nonresidue(&t1, &t1);
    fp2_mul(&s, &a->c0, &a->c1);
    fp2_sub(&t1, &t1, &s);

    fp2_sqr(&t2, &a->c1);
    fp2_mul(&s, &a->c0, &a->c2);
    fp2_sub(&t2, &t2, &s);

    fp2_mul(&d, &a->c2, &t1);
    fp2_mul(&s, &a->c1, &t2);
    fp2_add(&d, &d, &s);
    fp2_mul_nonresidue(&d, &d);
    fp2_mul(&s, &a->c0, &t0);
    fp2_add(&d, &d, &s);
    fp2_inv(&d, &d);

    fp2_mul(&r->c0, &t0, &d);
    fp2_mul(&r->c1, &t1, &d);
    fp2_mul(&r->c2, &t2, &d);
}

/* (a0 + a1 v + a2 v²) v = ξ a2 + a0 v + a1 v². */
void fp6_mul_by_v(fp6_t *r, const fp6_t *a)
{
    fp2_t t;
    fp2_mul_nonresidue(&t, &a->c2);
    r->c2 = a->c1;
    r->c1 = a->c0;
    r->c0 = t;
}

/* a · (b0 + b1 v): five Fp2 products by Karatsuba on the two nonzero terms. */
void fp6_mul_by_01(fp6_t *r, const fp6_t *a, const fp2_t *b0, const fp2_t *b1)
{
    fp2_t t0, t1, s, u, c0, c1, c2;
    fp2_mul(&t0, &a->c0, b0);
    fp2_mul(&t1, &a->c1, b1);

    /* c0 = t0 + ξ a2 b1 */
    fp2_mul(&s, &a->c2, b1);
    fp2_mul_nonresidue(&s, &s);
    fp2_add(&c0, &s, &t0);

    /* c1 = (a0 + a1)(b0 + b1) − t0 − t1 */
    fp2_add(&s, &a->c0, &a->c1);
    fp2_add(&u, b0, b1);
    fp2_mul(&s, &s, &u);
    fp2_sub(&s, &s, &t0);
    fp2_sub(&c1, &s, &t1);

    /* c2 = t1 + a2 b0 */
    fp2_mul(&s, &a->c2, b0);
    fp2_add(&c2, &s, &t1);

    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

/* a · b1 v = ξ a2 b1 + a0 b1 v + a1 b1 v². */
void fp6_mul_by_1(fp6_t *r, const fp6_t *a, const fp2_t *b1)
{
    fp2_t c0, c1, c2;
    fp2_mul(&c0, &a->c2, b1);
    fp2_mul_nonresidue(&c0, &c0);
    fp2_mul(&c1, &a->c0, b1);
    fp2_mul(&c2, &a->c1, b1);
    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

void fp6_mul_fp2(fp6_t *r, const fp6_t *a, const fp2_t *b)
{
    fp2_mul(&r->c0, &a->c0, b);
    fp2_mul(&r->c1, &a->c1, b);
    fp2_mul(&r->c2, &a->c2, b);
}

bool fp6_eq(const fp6_t *a, const fp6_t *b)
{
    return fp2_eq(&a->c0, &b->c0) & fp2_eq(&a->c1, &b->c1) & fp2_eq(&a->c2, &b->c2);
}

bool fp6_is_zero(const fp6_t *a)
{
    return fp2_is_zero(&a->c0) & fp2_is_zero(&a->c1) & fp2_is_zero(&a->c2);
}

bool fp6_is_one(const fp6_t *a)
{
    return fp2_is_one(&a->c0) & fp2_is_zero(&a->c1) & fp2_is_zero(&a->c2);
}

void fp6_cmov(fp6_t *r, const fp6_t *a, bool flag)
{
    fp2_cmov(&r->c0, &a->c0, flag);
    fp2_cmov(&r->c1, &a->c1, flag);
    fp2_cmov(&r->c2, &a->c2, flag);
}

void fp6_random(fp6_t *r, rng_t *rng)
{
    fp2_random(&r->c0, rng);
    fp2_random(&r->c1, rng);
    fp2_random(&r->c2, rng);
}
