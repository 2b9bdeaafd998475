/* Fp, the BLS12-381 base field, on top of the 384-bit limb primitives. */
#include "field/fp.h"

#include "field/fp_consts.h"
#include "field/limbs.h"

/* CUZK_VERIFY: inputs and outputs of the arithmetic must be reduced (< modulus). */
#ifdef CUZK_VERIFY
#include <assert.h>
#define FP_CHECK(a) assert(limbs_lt((a)->l, FP_MODULUS, FP_LIMBS))
#else
#define FP_CHECK(a) ((void)0)
#endif

const uint64_t FP_MODULUS[FP_LIMBS] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                       0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                       0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
const fp_t FP_ZERO = {{0, 0, 0, 0, 0, 0}};
/* R mod p, R = 2^384. */
const fp_t FP_ONE = {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                      0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}};
/* R² mod p. */
const fp_t FP_R2 = {{0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL, 0x8de5476c4c95b6d5ULL,
                     0x67eb88a9939d83c0ULL, 0x9a793e85b519952dULL, 0x11988fe592cae3aaULL}};
/* R³ mod p. */
const fp_t FP_R3 = {{0xed48ac6bd94ca1e0ULL, 0x315f831e03a7adf8ULL, 0x9a53352a615e29ddULL,
                     0x34c04e5e921e1761ULL, 0x2512d43565724728ULL, 0x0aa6346091755d4dULL}};
/* -p^-1 mod 2^64. */
const uint64_t FP_N0 = 0x89f3fffcfffcfffdULL;
/* p - 2 (Fermat inversion). */
const uint64_t FP_P_MINUS_2[FP_LIMBS] = {0xb9feffffffffaaa9ULL, 0x1eabfffeb153ffffULL,
                                         0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                         0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
/* (p - 1) / 2 (Legendre symbol, lexicographic sign). */
const uint64_t FP_P_MINUS_1_HALF[FP_LIMBS] = {0xdcff7fffffffd555ULL, 0x0f55ffff58a9ffffULL,
                                              0xb39869507b587b12ULL, 0xb23ba5c279c2895fULL,
                                              0x258dd3db21a5d66bULL, 0x0d0088f51cbff34dULL};
/* (p + 1) / 4 (square root, p = 3 mod 4). */
const uint64_t FP_P_PLUS_1_QUARTER[FP_LIMBS] = {0xee7fbfffffffeaabULL, 0x07aaffffac54ffffULL,
                                                0xd9cc34a83dac3d89ULL, 0xd91dd2e13ce144afULL,
                                                0x92c6e9ed90d2eb35ULL, 0x0680447a8e5ff9a6ULL};

void fp_add(fp_t *r, const fp_t *a, const fp_t *b)
{
    FP_CHECK(a);
    FP_CHECK(b);
    add_mod_384(r->l, a->l, b->l, FP_MODULUS);
    FP_CHECK(r);
}

void fp_sub(fp_t *r, const fp_t *a, const fp_t *b)
{
    FP_CHECK(a);
    FP_CHECK(b);
    sub_mod_384(r->l, a->l, b->l, FP_MODULUS);
    FP_CHECK(r);
}

void fp_neg(fp_t *r, const fp_t *a)
{
    FP_CHECK(a);
    sub_mod_384(r->l, FP_ZERO.l, a->l, FP_MODULUS);
    FP_CHECK(r);
}

void fp_dbl(fp_t *r, const fp_t *a)
{
    FP_CHECK(a);
    add_mod_384(r->l, a->l, a->l, FP_MODULUS);
    FP_CHECK(r);
}

void fp_mul(fp_t *r, const fp_t *a, const fp_t *b)
{
    FP_CHECK(a);
    FP_CHECK(b);
    mont_mul_384(r->l, a->l, b->l, FP_MODULUS, FP_N0);
    FP_CHECK(r);
}

void fp_sqr(fp_t *r, const fp_t *a)
{
    FP_CHECK(a);
    mont_sqr_384(r->l, a->l, FP_MODULUS, FP_N0);
    FP_CHECK(r);
}

void fp_mul_small(fp_t *r, const fp_t *a, unsigned k)
{
    /* Left-to-right double-and-add below the top set bit of the public k. */
    if (k == 0) {
        *r = FP_ZERO;
        return;
    }
    fp_t acc = *a, base = *a;
    for (int bit = (int)(sizeof(k) * 8) - 2 - __builtin_clz(k); bit >= 0; bit--) {
        fp_dbl(&acc, &acc);
        if ((k >> bit) & 1)
            fp_add(&acc, &acc, &base);
    }
    *r = acc;
}

/* a^e for a public exponent with a fixed 4-bit window: the sequence of
 * operations depends only on e, never on a (Knuth, TAOCP vol. 2, 4.6.3). */
static void fp_pow_public(fp_t *r, const fp_t *a, const uint64_t *e, size_t e_limbs)
{
    fp_t table[16];
    table[0] = FP_ONE;
    table[1] = *a;
    for (int i = 2; i < 16; i++)
        fp_mul(&table[i], &table[i - 1], a);
    fp_t acc = FP_ONE;
    bool started = false;
    for (size_t i = e_limbs; i-- > 0;) {
        for (int shift = 60; shift >= 0; shift -= 4) {
            unsigned w = (unsigned)(e[i] >> shift) & 15;
            if (started) {
                fp_sqr(&acc, &acc);
                fp_sqr(&acc, &acc);
                fp_sqr(&acc, &acc);
                fp_sqr(&acc, &acc);
            }
            if (w && started) {
                fp_mul(&acc, &acc, &table[w]);
            } else if (w) {
                acc = table[w];
                started = true;
            }
        }
    }
    *r = acc;
}

void fp_pow_var(fp_t *r, const fp_t *a, const uint64_t *e, size_t e_limbs)
{
    fp_pow_public(r, a, e, e_limbs);
}

void fp_inv(fp_t *r, const fp_t *a)
{
    /* Fermat: a^(p-2) = a^-1, and 0^(p-2) = 0. */
    fp_pow_public(r, a, FP_P_MINUS_2, FP_LIMBS);
}

void fp_inv_var(fp_t *r, const fp_t *a)
{
    /* The limbs of a hold a·R; their inverse is a^-1·R^-1, and one Montgomery
     * product with R³ turns that into a^-1·R. */
    uint64_t t[FP_LIMBS];
    limbs_inv_var(t, a->l, FP_MODULUS, FP_LIMBS);
    mont_mul_384(r->l, t, FP_R3.l, FP_MODULUS, FP_N0);
    FP_CHECK(r);
}

/* Montgomery's trick (Montgomery 1987, "Speeding the Pollard and elliptic
 * curve methods of factorization", section 10.3.1): one inversion and three
 * multiplications per element. prefix[] may not alias in[]. */
static void batch_inv_chunk(fp_t *out, const fp_t *in, fp_t *prefix, size_t n)
{
    fp_t acc = FP_ONE;
    for (size_t i = 0; i < n; i++) {
        prefix[i] = acc;
        if (!fp_is_zero(&in[i]))
            fp_mul(&acc, &acc, &in[i]);
    }
    fp_t inv;
    fp_inv_var(&inv, &acc);
    for (size_t i = n; i-- > 0;) {
        if (fp_is_zero(&in[i])) {
            out[i] = FP_ZERO;
            continue;
        }
        fp_t x = in[i];
        fp_mul(&out[i], &inv, &prefix[i]);
        fp_mul(&inv, &inv, &x);
    }
}

void fp_batch_inv_var(fp_t *out, const fp_t *in, size_t n)
{
    if (out != in) {
        /* out holds the prefix products, then is overwritten from the top. */
        batch_inv_chunk(out, in, out, n);
        return;
    }
    /* In place: prefix products go to a stack buffer, one inversion per chunk. */
    enum { CHUNK = 256 };
    fp_t prefix[CHUNK];
    for (size_t start = 0; start < n; start += CHUNK) {
        size_t len = n - start < CHUNK ? n - start : CHUNK;
        batch_inv_chunk(out + start, in + start, prefix, len);
    }
}

bool fp_sqrt(fp_t *r, const fp_t *a)
{
    /* p = 3 mod 4: a^((p+1)/4) is a root when a is a square. */
    fp_t c, c2;
    fp_pow_public(&c, a, FP_P_PLUS_1_QUARTER, FP_LIMBS);
    fp_sqr(&c2, &c);
    *r = c;
    return fp_eq(&c2, a);
}

bool fp_is_square(const fp_t *a)
{
    /* Euler's criterion: a^((p-1)/2) is 1 for nonzero squares, 0 for 0. */
    fp_t l;
    fp_pow_public(&l, a, FP_P_MINUS_1_HALF, FP_LIMBS);
    return (fp_is_one(&l) | fp_is_zero(a)) != 0;
}

bool fp_eq(const fp_t *a, const fp_t *b)
{
    uint64_t acc = 0;
    for (int i = 0; i < FP_LIMBS; i++)
        acc |= a->l[i] ^ b->l[i];
    return (((acc | (0 - acc)) >> 63) ^ 1) != 0;
}

bool fp_is_zero(const fp_t *a)
{
    return limbs_is_zero(a->l, FP_LIMBS) != 0;
}

bool fp_is_one(const fp_t *a)
{
    return fp_eq(a, &FP_ONE);
}

bool fp_is_lex_largest(const fp_t *a)
{
    uint64_t raw[FP_LIMBS];
    fp_to_raw(raw, a);
    return limbs_lt(FP_P_MINUS_1_HALF, raw, FP_LIMBS) != 0;
}

void fp_cmov(fp_t *r, const fp_t *a, bool flag)
{
    uint64_t mask = 0 - (uint64_t)flag;
    /* Hide the mask's origin so the compiler keeps the select branch-free. */
    __asm__("" : "+r"(mask));
    for (int i = 0; i < FP_LIMBS; i++)
        r->l[i] = (r->l[i] & ~mask) | (a->l[i] & mask);
}

void fp_from_u64(fp_t *r, uint64_t v)
{
    uint64_t raw[FP_LIMBS] = {v, 0, 0, 0, 0, 0};
    fp_from_raw(r, raw);
}

void fp_from_raw(fp_t *r, const uint64_t raw[FP_LIMBS])
{
    /* raw · R² · R^-1 = raw · R. */
    mont_mul_384(r->l, raw, FP_R2.l, FP_MODULUS, FP_N0);
    FP_CHECK(r);
}

void fp_to_raw(uint64_t raw[FP_LIMBS], const fp_t *a)
{
    from_mont_384(raw, a->l, FP_MODULUS, FP_N0);
}

void fp_to_bytes_be(uint8_t out[FP_BYTES], const fp_t *a)
{
    uint64_t raw[FP_LIMBS];
    fp_to_raw(raw, a);
    limbs_to_be(out, raw, FP_LIMBS);
}

void fp_to_bytes_le(uint8_t out[FP_BYTES], const fp_t *a)
{
    uint64_t raw[FP_LIMBS];
    fp_to_raw(raw, a);
    limbs_to_le(out, raw, FP_LIMBS);
}

static bool fp_from_canonical(fp_t *r, const uint64_t raw[FP_LIMBS])
{
    if (!limbs_lt(raw, FP_MODULUS, FP_LIMBS))
        return false;
    fp_from_raw(r, raw);
    return true;
}

bool fp_from_bytes_be(fp_t *r, const uint8_t in[FP_BYTES])
{
    uint64_t raw[FP_LIMBS];
    limbs_from_be(raw, in, FP_LIMBS);
    return fp_from_canonical(r, raw);
}

bool fp_from_bytes_le(fp_t *r, const uint8_t in[FP_BYTES])
{
    uint64_t raw[FP_LIMBS];
    limbs_from_le(raw, in, FP_LIMBS);
    return fp_from_canonical(r, raw);
}

void fp_random(fp_t *r, rng_t *rng)
{
    /* Rejection sampling on 381-bit integers: accepts with probability p/2^381 > 0.8. */
    uint64_t raw[FP_LIMBS];
    do {
        for (int i = 0; i < FP_LIMBS; i++)
            raw[i] = rng_u64(rng);
        raw[FP_LIMBS - 1] &= (UINT64_C(1) << (381 - 320)) - 1;
    } while (!limbs_lt(raw, FP_MODULUS, FP_LIMBS));
    fp_from_raw(r, raw);
}
