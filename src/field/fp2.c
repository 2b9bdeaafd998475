/* Fp2 = Fp[u] / (u² + 1): elements c0 + c1·u over the BLS12-381 base field.
 * Every function works on the Montgomery-form coefficients through fp.h. */

#include "field/fp2.h"

const fp2_t FP2_ZERO = {{{0}}, {{0}}};
/* 1 in Montgomery form: R mod p (R = 2^384). */
const fp2_t FP2_ONE = {{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                         0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
                       {{0}}};

void fp2_add(fp2_t *r, const fp2_t *a, const fp2_t *b)
{
    fp_add(&r->c0, &a->c0, &b->c0);
    fp_add(&r->c1, &a->c1, &b->c1);
}

void fp2_sub(fp2_t *r, const fp2_t *a, const fp2_t *b)
{
    fp_sub(&r->c0, &a->c0, &b->c0);
    fp_sub(&r->c1, &a->c1, &b->c1);
}

void fp2_neg(fp2_t *r, const fp2_t *a)
{
    fp_neg(&r->c0, &a->c0);
    fp_neg(&r->c1, &a->c1);
}

void fp2_dbl(fp2_t *r, const fp2_t *a)
{
    fp_dbl(&r->c0, &a->c0);
    fp_dbl(&r->c1, &a->c1);
}

/* Karatsuba: (a0 + a1 u)(b0 + b1 u) = a0b0 − a1b1 + ((a0 + a1)(b0 + b1) − a0b0 − a1b1) u,
 * three multiplications instead of four (Guide to Pairing-Based Cryptography, §5.2.1). */
void fp2_mul(fp2_t *r, const fp2_t *a, const fp2_t *b)
{
    fp_t t0, t1, sa, sb;
    fp_add(&sa, &a->c0, &a->c1);
    fp_add(&sb, &b->c0, &b->c1);
    fp_mul(&t0, &a->c0, &b->c0);
    fp_mul(&t1, &a->c1, &b->c1);
    fp_mul(&sa, &sa, &sb);
    fp_sub(&r->c0, &t0, &t1);
    fp_sub(&sa, &sa, &t0);
    fp_sub(&r->c1, &sa, &t1);
}

/* Complex squaring: (a0 + a1 u)² = (a0 + a1)(a0 − a1) + 2 a0 a1 u
 * (Guide to Pairing-Based Cryptography, §5.2.1). */
void fp2_sqr(fp2_t *r, const fp2_t *a)
{
    fp_t s, d, m;
    fp_add(&s, &a->c0, &a->c1);
    fp_sub(&d, &a->c0, &a->c1);
    fp_mul(&m, &a->c0, &a->c1);
    fp_mul(&r->c0, &s, &d);
    fp_dbl(&r->c1, &m);
}

void fp2_mul_fp(fp2_t *r, const fp2_t *a, const fp_t *b)
{
    fp_mul(&r->c0, &a->c0, b);
    fp_mul(&r->c1, &a->c1, b);
}

void fp2_mul_small(fp2_t *r, const fp2_t *a, unsigned k)
{
    fp_mul_small(&r->c0, &a->c0, k);
    fp_mul_small(&r->c1, &a->c1, k);
}

/* (c0 + c1 u)(1 + u) = (c0 − c1) + (c0 + c1) u. */
void fp2_mul_nonresidue(fp2_t *r, const fp2_t *a)
{
    fp_t t;
    fp_sub(&t, &a->c0, &a->c1);
    fp_add(&r->c1, &a->c0, &a->c1);
    r->c0 = t;
}

void fp2_conj(fp2_t *r, const fp2_t *a)
{
    r->c0 = a->c0;
    fp_neg(&r->c1, &a->c1);
}

/* 1/(a0 + a1 u) = (a0 − a1 u) / (a0² + a1²): one inversion in Fp of the norm. */
void fp2_inv(fp2_t *r, const fp2_t *a)
{
    fp_t n, t;
    fp_sqr(&n, &a->c0);
    fp_sqr(&t, &a->c1);
    fp_add(&n, &n, &t);
    fp_inv(&n, &n);
    fp_mul(&r->c0, &a->c0, &n);
    fp_mul(&t, &a->c1, &n);
    fp_neg(&r->c1, &t);
}

void fp2_inv_var(fp2_t *r, const fp2_t *a)
{
    fp_t n, t;
    fp_sqr(&n, &a->c0);
    fp_sqr(&t, &a->c1);
    fp_add(&n, &n, &t);
    fp_inv_var(&n, &n);
    fp_mul(&r->c0, &a->c0, &n);
    fp_mul(&t, &a->c1, &n);
    fp_neg(&r->c1, &t);
}

/* The inverse of an Fp2 element needs only the inverse of its norm, so the
 * norms of a block share one Fp inversion (Montgomery's trick, inside
 * fp_batch_inv_var). Blocks keep the scratch on the stack; out may equal in. */
#define FP2_BATCH_BLOCK 128

void fp2_batch_inv_var(fp2_t *out, const fp2_t *in, size_t n)
{
    fp_t norms[FP2_BATCH_BLOCK];
    while (n > 0) {
        size_t k = n < FP2_BATCH_BLOCK ? n : FP2_BATCH_BLOCK;
        for (size_t i = 0; i < k; i++) {
            fp_t t;
            fp_sqr(&norms[i], &in[i].c0);
            fp_sqr(&t, &in[i].c1);
            fp_add(&norms[i], &norms[i], &t);
        }
        fp_batch_inv_var(norms, norms, k);
        for (size_t i = 0; i < k; i++) {
            fp_t t;
            fp_mul(&out[i].c0, &in[i].c0, &norms[i]);
            fp_mul(&t, &in[i].c1, &norms[i]);
            fp_neg(&out[i].c1, &t);
        }
        in += k;
        out += k;
        n -= k;
    }
}

void fp2_pow_var(fp2_t *r, const fp2_t *a, const uint64_t *e, size_t e_limbs)
{
    fp2_t acc = FP2_ONE, base = *a;
    size_t bits = 64 * e_limbs;
    while (bits > 0 && !((e[(bits - 1) / 64] >> ((bits - 1) % 64)) & 1))
        bits--;
    for (size_t i = bits; i-- > 0;) {
        fp2_sqr(&acc, &acc);
        if ((e[i / 64] >> (i % 64)) & 1)
            fp2_mul(&acc, &acc, &base);
    }
    *r = acc;
}

/* p >> k as limbs: (p − 3)/4 for k = 2 (p ≡ 3 mod 4). */
static void modulus_shr(uint64_t out[FP_LIMBS], unsigned k)
{
    for (size_t i = 0; i < FP_LIMBS; i++) {
        uint64_t hi = i + 1 < FP_LIMBS ? FP_MODULUS[i + 1] : 0;
        out[i] = (FP_MODULUS[i] >> k) | (hi << (64 - k));
    }
}

/* a is a square in Fp2 iff its norm a0² + a1² is a square in Fp
 * (the norm map Fp2* → Fp* is onto and sends squares to squares). */
bool fp2_is_square(const fp2_t *a)
{
    fp_t n, t;
    fp_sqr(&n, &a->c0);
    fp_sqr(&t, &a->c1);
    fp_add(&n, &n, &t);
    return fp_is_square(&n);
}

/* 1/2 in Montgomery form. */
static const fp_t FP_HALF = {{0x1804000000015554ULL, 0x855000053ab00001ULL, 0x633cb57c253c276fULL,
                              0x6e22d1ec31ebb502ULL, 0xd3916126f2d14ca2ULL, 0x17fbb8571a006596ULL}};

/* Square root by the complex method for p ≡ 3 (mod 4) (Scott, "Implementing
 * cryptographic pairings", Pairing 2007; compared with Algorithm 9 in Adj and
 * Rodríguez-Henríquez, "Square root computation over even extension fields",
 * 2012): with α = √(a0² + a1²) and δ = (a0 + α)/2,
 *   √a = √δ + (a1 / 2√δ) u        when δ is a square in Fp,
 *   √a = (a1 / 2s) + s u, s² = −δ  otherwise (−1 is not a square).
 * One exponentiation u = δ^((p−3)/4) gives both cases: s = uδ satisfies
 * s² = χ(δ)·δ, and s·u = χ(δ) = ±1, so 1/s = χ(δ)·u without an inversion.
 * δ = 0 only when a1 = 0 and α = −a0; then δ = a0 serves (roots s or s·u).
 * Two Fp exponentiations in all, the same operations for every input; the
 * result is checked by squaring. */
bool fp2_sqrt(fp2_t *r, const fp2_t *a)
{
    uint64_t e[FP_LIMBS];
    modulus_shr(e, 2); /* (p − 3)/4 */

    fp_t n, t, alpha, delta, u, s, chi, half_t;
    fp_sqr(&n, &a->c0);
    fp_sqr(&t, &a->c1);
    fp_add(&n, &n, &t);
    (void)fp_sqrt(&alpha, &n); /* a non-square norm fails the final check */

    fp_add(&delta, &a->c0, &alpha);
    fp_mul(&delta, &delta, &FP_HALF);
    fp_cmov(&delta, &a->c0, fp_is_zero(&delta));

    fp_pow_var(&u, &delta, e, FP_LIMBS); /* public exponent */
    fp_mul(&s, &u, &delta);
    fp_mul(&chi, &s, &u);
    fp_mul(&t, &chi, &u); /* 1/s */
    fp_mul(&t, &t, &a->c1);
    fp_mul(&half_t, &t, &FP_HALF); /* a1 / 2s */

    bool delta_is_square = fp_is_one(&chi);
    fp2_t x = {half_t, s}, y = {s, half_t}, check;
    fp2_cmov(&x, &y, delta_is_square);
    fp2_sqr(&check, &x);
    *r = x;
    return fp2_eq(&check, a);
}

bool fp2_eq(const fp2_t *a, const fp2_t *b)
{
    return fp_eq(&a->c0, &b->c0) & fp_eq(&a->c1, &b->c1);
}

bool fp2_is_zero(const fp2_t *a)
{
    return fp_is_zero(&a->c0) & fp_is_zero(&a->c1);
}

bool fp2_is_one(const fp2_t *a)
{
    return fp_is_one(&a->c0) & fp_is_zero(&a->c1);
}

bool fp2_is_lex_largest(const fp2_t *a)
{
    bool c1_zero = fp_is_zero(&a->c1);
    return (c1_zero & fp_is_lex_largest(&a->c0)) | (!c1_zero & fp_is_lex_largest(&a->c1));
}

void fp2_cmov(fp2_t *r, const fp2_t *a, bool flag)
{
    fp_cmov(&r->c0, &a->c0, flag);
    fp_cmov(&r->c1, &a->c1, flag);
}

void fp2_to_bytes_be(uint8_t out[2 * FP_BYTES], const fp2_t *a)
{
    fp_to_bytes_be(out, &a->c1);
    fp_to_bytes_be(out + FP_BYTES, &a->c0);
}

bool fp2_from_bytes_be(fp2_t *r, const uint8_t in[2 * FP_BYTES])
{
    fp2_t t;
    bool ok = fp_from_bytes_be(&t.c1, in);
    ok &= fp_from_bytes_be(&t.c0, in + FP_BYTES);
    if (ok)
        *r = t;
    return ok;
}

void fp2_random(fp2_t *r, rng_t *rng)
{
    fp_random(&r->c0, rng);
    fp_random(&r->c1, rng);
}
