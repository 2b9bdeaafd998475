/* Fr, the BLS12-381 scalar field, on top of the 256-bit limb primitives. */
#include "field/fr.h"

#include "field/fr_consts.h"
#include "field/limbs.h"
#include "util/wipe.h"

/* CUZK_VERIFY: inputs and outputs of the arithmetic must be reduced (< modulus). */
#ifdef CUZK_VERIFY
#include <assert.h>
#define FR_CHECK(a) assert(limbs_lt((a)->l, FR_MODULUS, FR_LIMBS))
#else
#define FR_CHECK(a) ((void)0)
#endif

const uint64_t FR_MODULUS[FR_LIMBS] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                       0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
const fr_t FR_ZERO = {{0, 0, 0, 0}};
/* R mod r, R = 2^256. */
const fr_t FR_ONE = {
    {0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL, 0x1824b159acc5056fULL}};
/* R² mod r. */
const fr_t FR_R2 = {
    {0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL, 0x05d314967254398fULL, 0x0748d9d99f59ff11ULL}};
/* R³ mod r. */
const fr_t FR_R3 = {
    {0xc62c1807439b73afULL, 0x1b3e0d188cf06990ULL, 0x73d13c71c7b5f418ULL, 0x6e2a5bb9c8db33e9ULL}};
/* -r^-1 mod 2^64. */
const uint64_t FR_N0 = 0xfffffffeffffffffULL;
const uint64_t FR_R_MINUS_2[FR_LIMBS] = {0xfffffffeffffffffULL, 0x53bda402fffe5bfeULL,
                                         0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
const uint64_t FR_R_MINUS_1_HALF[FR_LIMBS] = {0x7fffffff80000000ULL, 0xa9ded2017fff2dffULL,
                                              0x199cec0404d0ec02ULL, 0x39f6d3a994cebea4ULL};
const uint64_t FR_T[FR_LIMBS] = {0xfffe5bfeffffffffULL, 0x09a1d80553bda402ULL,
                                 0x299d7d483339d808ULL, 0x0000000073eda753ULL};
const uint64_t FR_T_MINUS_1_HALF[FR_LIMBS] = {0x7fff2dff7fffffffULL, 0x04d0ec02a9ded201ULL,
                                              0x94cebea4199cec04ULL, 0x0000000039f6d3a9ULL};
/* 7^t mod r in Montgomery form: a primitive 2^32-th root of unity. */
const fr_t FR_ROOT_OF_UNITY = {
    {0xb9b58d8c5f0e466aULL, 0x5b1b4c801819d7ecULL, 0x0af53ae352a31e64ULL, 0x5bf3adda19e9b27bULL}};

void fr_add(fr_t *r, const fr_t *a, const fr_t *b)
{
    FR_CHECK(a);
    FR_CHECK(b);
    add_mod_256(r->l, a->l, b->l, FR_MODULUS);
    FR_CHECK(r);
}

void fr_sub(fr_t *r, const fr_t *a, const fr_t *b)
{
    FR_CHECK(a);
    FR_CHECK(b);
    sub_mod_256(r->l, a->l, b->l, FR_MODULUS);
    FR_CHECK(r);
}

void fr_neg(fr_t *r, const fr_t *a)
{
    FR_CHECK(a);
    sub_mod_256(r->l, FR_ZERO.l, a->l, FR_MODULUS);
    FR_CHECK(r);
}

void fr_dbl(fr_t *r, const fr_t *a)
{
    FR_CHECK(a);
    add_mod_256(r->l, a->l, a->l, FR_MODULUS);
    FR_CHECK(r);
}

void fr_mul(fr_t *r, const fr_t *a, const fr_t *b)
{
    FR_CHECK(a);
    FR_CHECK(b);
    mont_mul_256(r->l, a->l, b->l, FR_MODULUS, FR_N0);
    FR_CHECK(r);
}

void fr_sqr(fr_t *r, const fr_t *a)
{
    FR_CHECK(a);
    mont_sqr_256(r->l, a->l, FR_MODULUS, FR_N0);
    FR_CHECK(r);
}

/* a^e for a public exponent with a fixed 4-bit window: the sequence of
 * operations depends only on e, never on a (Knuth, TAOCP vol. 2, 4.6.3). */
static void fr_pow_public(fr_t *r, const fr_t *a, const uint64_t *e, size_t e_limbs)
{
    fr_t table[16];
    table[0] = FR_ONE;
    table[1] = *a;
    for (int i = 2; i < 16; i++)
        fr_mul(&table[i], &table[i - 1], a);
    fr_t acc = FR_ONE;
    bool started = false;
    for (size_t i = e_limbs; i-- > 0;) {
        for (int shift = 60; shift >= 0; shift -= 4) {
            unsigned w = (unsigned)(e[i] >> shift) & 15;
            if (started) {
                fr_sqr(&acc, &acc);
                fr_sqr(&acc, &acc);
                fr_sqr(&acc, &acc);
                fr_sqr(&acc, &acc);
            }
            if (w && started) {
                fr_mul(&acc, &acc, &table[w]);
            } else if (w) {
                acc = table[w];
                started = true;
            }
        }
    }
    *r = acc;
}

void fr_pow_var(fr_t *r, const fr_t *a, const uint64_t *e, size_t e_limbs)
{
    fr_pow_public(r, a, e, e_limbs);
}

void fr_inv(fr_t *r, const fr_t *a)
{
    /* Fermat: a^(r-2) = a^-1, and 0^(r-2) = 0. */
    fr_pow_public(r, a, FR_R_MINUS_2, FR_LIMBS);
}

void fr_inv_var(fr_t *r, const fr_t *a)
{
    /* The limbs of a hold a·R; their inverse is a^-1·R^-1, and one Montgomery
     * product with R³ turns that into a^-1·R. */
    uint64_t t[FR_LIMBS];
    limbs_inv_var(t, a->l, FR_MODULUS, FR_LIMBS);
    mont_mul_256(r->l, t, FR_R3.l, FR_MODULUS, FR_N0);
    FR_CHECK(r);
}

/* Montgomery's trick (Montgomery 1987, "Speeding the Pollard and elliptic
 * curve methods of factorization", section 10.3.1). prefix[] may not alias in[]. */
static void batch_inv_chunk(fr_t *out, const fr_t *in, fr_t *prefix, size_t n)
{
    fr_t acc = FR_ONE;
    for (size_t i = 0; i < n; i++) {
        prefix[i] = acc;
        if (!fr_is_zero(&in[i]))
            fr_mul(&acc, &acc, &in[i]);
    }
    fr_t inv;
    fr_inv_var(&inv, &acc);
    for (size_t i = n; i-- > 0;) {
        if (fr_is_zero(&in[i])) {
            out[i] = FR_ZERO;
            continue;
        }
        fr_t x = in[i];
        fr_mul(&out[i], &inv, &prefix[i]);
        fr_mul(&inv, &inv, &x);
    }
}

void fr_batch_inv_var(fr_t *out, const fr_t *in, size_t n)
{
    if (out != in) {
        batch_inv_chunk(out, in, out, n);
        return;
    }
    enum { CHUNK = 256 };
    fr_t prefix[CHUNK];
    for (size_t start = 0; start < n; start += CHUNK) {
        size_t len = n - start < CHUNK ? n - start : CHUNK;
        batch_inv_chunk(out + start, in + start, prefix, len);
    }
}

/* Constant-time Tonelli-Shanks, RFC 9380 appendix I.4, with c1 = 32,
 * c3 = (t-1)/2 and c5 = 7^t: a fixed 31 rounds of fixed length. */
bool fr_sqrt(fr_t *r, const fr_t *a)
{
    fr_t z, t, b, c, zt, tt;
    fr_pow_public(&z, a, FR_T_MINUS_1_HALF, FR_LIMBS); /* a^((t-1)/2) */
    fr_sqr(&t, &z);
    fr_mul(&t, &t, a); /* a^t */
    fr_mul(&z, &z, a); /* a^((t+1)/2) */
    b = t;
    c = FR_ROOT_OF_UNITY;
    for (int i = FR_TWO_ADICITY; i >= 2; i--) {
        for (int j = 1; j <= i - 2; j++)
            fr_sqr(&b, &b);
        bool e = fr_is_one(&b);
        fr_mul(&zt, &z, &c);
        fr_cmov(&z, &zt, !e);
        fr_sqr(&c, &c);
        fr_mul(&tt, &t, &c);
        fr_cmov(&t, &tt, !e);
        b = t;
    }
    fr_t z2;
    fr_sqr(&z2, &z);
    *r = z;
    return fr_eq(&z2, a);
}

bool fr_is_square(const fr_t *a)
{
    /* Euler's criterion: a^((r-1)/2) is 1 for nonzero squares, 0 for 0. */
    fr_t l;
    fr_pow_public(&l, a, FR_R_MINUS_1_HALF, FR_LIMBS);
    return (fr_is_one(&l) | fr_is_zero(a)) != 0;
}

bool fr_eq(const fr_t *a, const fr_t *b)
{
    uint64_t acc = 0;
    for (int i = 0; i < FR_LIMBS; i++)
        acc |= a->l[i] ^ b->l[i];
    return (((acc | (0 - acc)) >> 63) ^ 1) != 0;
}

bool fr_is_zero(const fr_t *a)
{
    return limbs_is_zero(a->l, FR_LIMBS) != 0;
}

bool fr_is_one(const fr_t *a)
{
    return fr_eq(a, &FR_ONE);
}

void fr_cmov(fr_t *r, const fr_t *a, bool flag)
{
    uint64_t mask = 0 - (uint64_t)flag;
    /* Hide the mask's origin so the compiler keeps the select branch-free. */
    __asm__("" : "+r"(mask));
    for (int i = 0; i < FR_LIMBS; i++)
        r->l[i] = (r->l[i] & ~mask) | (a->l[i] & mask);
}

void fr_from_u64(fr_t *r, uint64_t v)
{
    uint64_t raw[FR_LIMBS] = {v, 0, 0, 0};
    fr_from_raw(r, raw);
}

void fr_from_raw(fr_t *r, const uint64_t raw[FR_LIMBS])
{
    /* raw · R² · R^-1 = raw · R. */
    mont_mul_256(r->l, raw, FR_R2.l, FR_MODULUS, FR_N0);
    FR_CHECK(r);
}

void fr_to_raw(uint64_t raw[FR_LIMBS], const fr_t *a)
{
    from_mont_256(raw, a->l, FR_MODULUS, FR_N0);
}

void fr_to_bytes_be(uint8_t out[FR_BYTES], const fr_t *a)
{
    uint64_t raw[FR_LIMBS];
    fr_to_raw(raw, a);
    limbs_to_be(out, raw, FR_LIMBS);
}

void fr_to_bytes_le(uint8_t out[FR_BYTES], const fr_t *a)
{
    uint64_t raw[FR_LIMBS];
    fr_to_raw(raw, a);
    limbs_to_le(out, raw, FR_LIMBS);
}

static bool fr_from_canonical(fr_t *r, const uint64_t raw[FR_LIMBS])
{
    if (!limbs_lt(raw, FR_MODULUS, FR_LIMBS))
        return false;
    fr_from_raw(r, raw);
    return true;
}

bool fr_from_bytes_be(fr_t *r, const uint8_t in[FR_BYTES])
{
    uint64_t raw[FR_LIMBS];
    limbs_from_be(raw, in, FR_LIMBS);
    return fr_from_canonical(r, raw);
}

bool fr_from_bytes_le(fr_t *r, const uint8_t in[FR_BYTES])
{
    uint64_t raw[FR_LIMBS];
    limbs_from_le(raw, in, FR_LIMBS);
    return fr_from_canonical(r, raw);
}

void fr_random(fr_t *r, rng_t *rng)
{
    /* Rejection sampling on 255-bit integers: accepts with probability r/2^255 > 0.9. */
    uint64_t raw[FR_LIMBS];
    do {
        for (int i = 0; i < FR_LIMBS; i++)
            raw[i] = rng_u64(rng);
        raw[FR_LIMBS - 1] &= (UINT64_C(1) << (255 - 192)) - 1;
    } while (!limbs_lt(raw, FR_MODULUS, FR_LIMBS));
    fr_from_raw(r, raw);
    /* The value may be a secret (the prover's r and s, toxic waste). */
    cuzk_wipe(raw, sizeof(raw));
}
