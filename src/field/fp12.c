/* The top of the BLS12-381 tower:
 *
 *   Fp2  = Fp[u]  / (u² + 1)
 *   Fp6  = Fp2[v] / (v³ − ξ),  ξ = u + 1
 *   Fp12 = Fp6[w] / (w² − v)                  <- this file
 *
 * An element is c0 + c1·w with c0, c1 in Fp6; w⁶ = ξ. As a vector over Fp2
 * in powers of w: c0.c0 + c1.c0 w + c0.c1 w² + c1.c1 w³ + c0.c2 w⁴ + c1.c2 w⁵.
 * Frobenius maps: fp12_frobenius.c. Cyclotomic subgroup: fp12_cyclotomic.c. */

#include "field/fp12.h"

const fp12_t FP12_ONE = {{{{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                             0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
                           {{0}}},
                          {{{0}}, {{0}}},
                          {{{0}}, {{0}}}},
                         {{{{0}}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}}};

void fp12_add(fp12_t *r, const fp12_t *a, const fp12_t *b)
{
    fp6_add(&r->c0, &a->c0, &b->c0);
    fp6_add(&r->c1, &a->c1, &b->c1);
}

void fp12_sub(fp12_t *r, const fp12_t *a, const fp12_t *b)
{
    fp6_sub(&r->c0, &a->c0, &b->c0);
    fp6_sub(&r->c1, &a->c1, &b->c1);
}

void fp12_neg(fp12_t *r, const fp12_t *a)
{
    fp6_neg(&r->c0, &a->c0);
    fp6_neg(&r->c1, &a->c1);
}

/* Karatsuba: c0 = a0 b0 + v a1 b1, c1 = (a0 + a1)(b0 + b1) − a0 b0 − a1 b1
 * (Devegili et al., "Multiplication and squaring on pairing-friendly fields", 2006). */
void fp12_mul(fp12_t *r, const fp12_t *a, const fp12_t *b)
{
    fp6_t t0, t1, s, u;
    fp6_mul(&t0, &a->c0, &b->c0);
    fp6_mul(&t1, &a->c1, &b->c1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_add(&u, &b->c0, &b->c1);
    fp6_mul(&s, &s, &u);
    fp6_sub(&s, &s, &t0);
    fp6_sub(&r->c1, &s, &t1);
    fp6_mul_by_v(&t1, &t1);
    fp6_add(&r->c0, &t0, &t1);
}

/* Complex squaring: with t = a0 a1,
 * c0 = (a0 + a1)(a0 + v a1) − t − v t, c1 = 2t (Devegili et al. 2006, §3). */
void fp12_sqr(fp12_t *r, const fp12_t *a)
{
    fp6_t t, s, u;
    fp6_mul(&t, &a->c0, &a->c1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_mul_by_v(&u, &a->c1);
    fp6_add(&u, &u, &a->c0);
    fp6_mul(&s, &s, &u);
    fp6_sub(&s, &s, &t);
    fp6_mul_by_v(&u, &t);
    fp6_sub(&r->c0, &s, &u);
    fp6_dbl(&r->c1, &t);
}

/* (a0 + a1 w)⁻¹ = (a0 − a1 w) / (a0² − v a1²). */
void fp12_inv(fp12_t *r, const fp12_t *a)
{
    fp6_t t0, t1;
    fp6_sqr(&t0, &a->c0);
    fp6_sqr(&t1, &a->c1);
    fp6_mul_by_v(&t1, &t1);
    fp6_sub(&t0, &t0, &t1);
    fp6_inv(&t0, &t0);
    fp6_mul(&r->c0, &a->c0, &t0);
    fp6_mul(&t1, &a->c1, &t0);
    fp6_neg(&r->c1, &t1);
}

void fp12_conj(fp12_t *r, const fp12_t *a)
{
    r->c0 = a->c0;
    fp6_neg(&r->c1, &a->c1);
}

void fp12_pow_var(fp12_t *r, const fp12_t *a, const uint64_t *e, size_t e_limbs)
{
    fp12_t acc = FP12_ONE, base = *a;
    size_t bits = 64 * e_limbs;
    while (bits > 0 && !((e[(bits - 1) / 64] >> ((bits - 1) % 64)) & 1))
        bits--;
    for (size_t i = bits; i-- > 0;) {
        fp12_sqr(&acc, &acc);
        if ((e[i / 64] >> (i % 64)) & 1)
            fp12_mul(&acc, &acc, &base);
    }
    *r = acc;
}

/* a · (L0 + L1 w) with L0 = l0 + l1 v and L1 = l4 v: Karatsuba over w with
 * the sparse Fp6 products, 13 Fp2 products instead of 18
 * (Aranha et al., "Faster explicit formulas for computing pairings over
 * ordinary curves", 2011, §4, adapted to the M-type line). */
void fp12_mul_by_014(fp12_t *r, const fp12_t *a, const fp2_t *l0, const fp2_t *l1, const fp2_t *l4)
{
    fp6_t t0, t1, s;
    fp2_t l14;
    fp6_mul_by_01(&t0, &a->c0, l0, l1);
    fp6_mul_by_1(&t1, &a->c1, l4);
    fp2_add(&l14, l1, l4);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_mul_by_01(&s, &s, l0, &l14);
    fp6_sub(&s, &s, &t0);
    fp6_sub(&r->c1, &s, &t1);
    fp6_mul_by_v(&t1, &t1);
    fp6_add(&r->c0, &t0, &t1);
}

bool fp12_eq(const fp12_t *a, const fp12_t *b)
{
    return fp6_eq(&a->c0, &b->c0) & fp6_eq(&a->c1, &b->c1);
}

bool fp12_is_one(const fp12_t *a)
{
    return fp6_is_one(&a->c0) & fp6_is_zero(&a->c1);
}

bool fp12_is_zero(const fp12_t *a)
{
    return fp6_is_zero(&a->c0) & fp6_is_zero(&a->c1);
}

void fp12_cmov(fp12_t *r, const fp12_t *a, bool flag)
{
    fp6_cmov(&r->c0, &a->c0, flag);
    fp6_cmov(&r->c1, &a->c1, flag);
}

/* The 12 Fp coefficients in encoding order: c0.c0.c0, c0.c0.c1, ... c1.c2.c1. */
static fp_t *coeff(fp12_t *a, unsigned i)
{
    fp6_t *h = i < 6 ? &a->c0 : &a->c1;
    fp2_t *c = (i % 6) < 2 ? &h->c0 : (i % 6) < 4 ? &h->c1 : &h->c2;
    return (i & 1) ? &c->c1 : &c->c0;
}

void fp12_to_bytes_be(uint8_t out[FP12_BYTES], const fp12_t *a)
{
    fp12_t t = *a;
    for (unsigned i = 0; i < 12; i++)
        fp_to_bytes_be(out + i * FP_BYTES, coeff(&t, i));
}

bool fp12_from_bytes_be(fp12_t *r, const uint8_t in[FP12_BYTES])
{
    fp12_t t;
    bool ok = true;
    for (unsigned i = 0; i < 12; i++)
        ok &= fp_from_bytes_be(coeff(&t, i), in + i * FP_BYTES);
    if (ok)
        *r = t;
    return ok;
}

void fp12_random(fp12_t *r, rng_t *rng)
{
    fp6_random(&r->c0, rng);
    fp6_random(&r->c1, rng);
}
