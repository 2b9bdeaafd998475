/* The arithmetic of a prime field in Montgomery form, written once for every
 * field of the library (BLS12-381 Fp and Fr, BN254 Fp and Fr) over the limb
 * primitives of limbs.h, which take the modulus as an argument.
 *
 * A template: each field's .c file (fp.c, fr.c, bn254_fp.c, bn254_fr.c)
 * defines its constants and then includes it once, after "field/limbs.h",
 * "util/wipe.h" and the field's header, and after defining
 *   FE_(name)       field-level names:  FE_(mul) -> fp_mul
 *   FE_T, FE_LIMBS, FE_BYTES       the type, its limb and byte counts
 *   FE_BITS         the bit length of the modulus m (for sampling)
 *   FE_ZERO, FE_ONE, FE_MODULUS, FE_R2, FE_R3, FE_N0
 *                   0, R mod m, m, R² mod m, R³ mod m, -m^-1 mod 2^64
 *   FE_MINUS_2, FE_MINUS_1_HALF    the limbs of m - 2 and (m - 1) / 2
 *   FE_ADD_MOD, FE_SUB_MOD, FE_MONT_MUL, FE_MONT_SQR, FE_FROM_MONT
 *                   the limb primitives of the width (add_mod_384, ...)
 * and, for the square root, either
 *   FE_PLUS_1_QUARTER               (m + 1) / 4, when m = 3 mod 4
 * or the 2-adic structure m - 1 = 2^s · t for Tonelli-Shanks:
 *   FE_TWO_ADICITY, FE_T_MINUS_1_HALF, FE_ROOT_OF_UNITY (g^t, g a non-square).
 * FE_BASE_FIELD adds what the curve layer needs of a base field:
 * mul_small and is_lex_largest. The primitives of limbs.h require
 * 2m < 2^(64n), true of all four moduli (381 bits in 384; 255 and 254 in 256).
 *
 * Every function is a direct call of the primitive with the field's
 * constants (the dispatchers of limbs.h are inline), so each instance
 * compiles to what a hand-written field would. */

/* CUZK_VERIFY: inputs and outputs of the arithmetic must be reduced (< modulus). */
#ifdef CUZK_VERIFY
#include <assert.h>
#define FE_CHECK(a) assert(limbs_lt((a)->l, FE_MODULUS, FE_LIMBS))
#else
#define FE_CHECK(a) ((void)0)
#endif

void FE_(add)(FE_T *r, const FE_T *a, const FE_T *b)
{
    FE_CHECK(a);
    FE_CHECK(b);
    FE_ADD_MOD(r->l, a->l, b->l, FE_MODULUS);
    FE_CHECK(r);
}

void FE_(sub)(FE_T *r, const FE_T *a, const FE_T *b)
{
    FE_CHECK(a);
    FE_CHECK(b);
    FE_SUB_MOD(r->l, a->l, b->l, FE_MODULUS);
    FE_CHECK(r);
}

void FE_(neg)(FE_T *r, const FE_T *a)
{
    FE_CHECK(a);
    FE_SUB_MOD(r->l, FE_ZERO.l, a->l, FE_MODULUS);
    FE_CHECK(r);
}

void FE_(dbl)(FE_T *r, const FE_T *a)
{
    FE_CHECK(a);
    FE_ADD_MOD(r->l, a->l, a->l, FE_MODULUS);
    FE_CHECK(r);
}

void FE_(mul)(FE_T *r, const FE_T *a, const FE_T *b)
{
    FE_CHECK(a);
    FE_CHECK(b);
    FE_MONT_MUL(r->l, a->l, b->l, FE_MODULUS, FE_N0);
    FE_CHECK(r);
}

void FE_(sqr)(FE_T *r, const FE_T *a)
{
    FE_CHECK(a);
    FE_MONT_SQR(r->l, a->l, FE_MODULUS, FE_N0);
    FE_CHECK(r);
}

#ifdef FE_BASE_FIELD
void FE_(mul_small)(FE_T *r, const FE_T *a, unsigned k)
{
    /* Left-to-right double-and-add below the top set bit of the public k. */
    if (k == 0) {
        *r = FE_ZERO;
        return;
    }
    FE_T acc = *a, base = *a;
    for (int bit = (int)(sizeof(k) * 8) - 2 - __builtin_clz(k); bit >= 0; bit--) {
        FE_(dbl)(&acc, &acc);
        if ((k >> bit) & 1)
            FE_(add)(&acc, &acc, &base);
    }
    *r = acc;
}
#endif

/* a^e for a public exponent with a fixed 4-bit window: the sequence of
 * operations depends only on e, never on a (Knuth, TAOCP vol. 2, 4.6.3). */
static void FE_(pow_public)(FE_T *r, const FE_T *a, const uint64_t *e, size_t e_limbs)
{
    FE_T table[16];
    table[0] = FE_ONE;
    table[1] = *a;
    for (int i = 2; i < 16; i++)
        FE_(mul)(&table[i], &table[i - 1], a);
    FE_T acc = FE_ONE;
    bool started = false;
    for (size_t i = e_limbs; i-- > 0;) {
        for (int shift = 60; shift >= 0; shift -= 4) {
            unsigned w = (unsigned)(e[i] >> shift) & 15;
            if (started) {
                FE_(sqr)(&acc, &acc);
                FE_(sqr)(&acc, &acc);
                FE_(sqr)(&acc, &acc);
                FE_(sqr)(&acc, &acc);
            }
            if (w && started) {
                FE_(mul)(&acc, &acc, &table[w]);
            } else if (w) {
                acc = table[w];
                started = true;
            }
        }
    }
    *r = acc;
}

void FE_(pow_var)(FE_T *r, const FE_T *a, const uint64_t *e, size_t e_limbs)
{
    FE_(pow_public)(r, a, e, e_limbs);
}

void FE_(inv)(FE_T *r, const FE_T *a)
{
    /* Fermat: a^(m-2) = a^-1, and 0^(m-2) = 0. */
    FE_(pow_public)(r, a, FE_MINUS_2, FE_LIMBS);
}

void FE_(inv_var)(FE_T *r, const FE_T *a)
{
    /* The limbs of a hold a·R; their inverse is a^-1·R^-1, and one Montgomery
     * product with R³ turns that into a^-1·R. */
    uint64_t t[FE_LIMBS];
    limbs_inv_var(t, a->l, FE_MODULUS, FE_LIMBS);
    FE_MONT_MUL(r->l, t, FE_R3.l, FE_MODULUS, FE_N0);
    FE_CHECK(r);
}

/* Montgomery's trick (Montgomery 1987, "Speeding the Pollard and elliptic
 * curve methods of factorization", section 10.3.1): one inversion and three
 * multiplications per element. prefix[] may not alias in[]. */
static void batch_inv_chunk(FE_T *out, const FE_T *in, FE_T *prefix, size_t n)
{
    FE_T acc = FE_ONE;
    for (size_t i = 0; i < n; i++) {
        prefix[i] = acc;
        if (!FE_(is_zero)(&in[i]))
            FE_(mul)(&acc, &acc, &in[i]);
    }
    FE_T inv;
    FE_(inv_var)(&inv, &acc);
    for (size_t i = n; i-- > 0;) {
        if (FE_(is_zero)(&in[i])) {
            out[i] = FE_ZERO;
            continue;
        }
        FE_T x = in[i];
        FE_(mul)(&out[i], &inv, &prefix[i]);
        FE_(mul)(&inv, &inv, &x);
    }
}

void FE_(batch_inv_var)(FE_T *out, const FE_T *in, size_t n)
{
    if (out != in) {
        /* out holds the prefix products, then is overwritten from the top. */
        batch_inv_chunk(out, in, out, n);
        return;
    }
    /* In place: prefix products go to a stack buffer, one inversion per chunk. */
    enum { CHUNK = 256 };
    FE_T prefix[CHUNK];
    for (size_t start = 0; start < n; start += CHUNK) {
        size_t len = n - start < CHUNK ? n - start : CHUNK;
        batch_inv_chunk(out + start, in + start, prefix, len);
    }
}

#ifdef FE_PLUS_1_QUARTER
bool FE_(sqrt)(FE_T *r, const FE_T *a)
{
    /* m = 3 mod 4: a^((m+1)/4) is a root when a is a square. */
    FE_T c, c2;
    FE_(pow_public)(&c, a, FE_PLUS_1_QUARTER, FE_LIMBS);
    FE_(sqr)(&c2, &c);
    *r = c;
    return FE_(eq)(&c2, a);
}
#else
/* Constant-time Tonelli-Shanks, RFC 9380 appendix I.4, with c1 = the
 * 2-adicity s, c3 = (t-1)/2 and c5 = g^t (g the generator): a fixed s - 1
 * rounds of fixed length. */
bool FE_(sqrt)(FE_T *r, const FE_T *a)
{
    FE_T z, t, b, c, zt, tt;
    FE_(pow_public)(&z, a, FE_T_MINUS_1_HALF, FE_LIMBS); /* a^((t-1)/2) */
    FE_(sqr)(&t, &z);
    FE_(mul)(&t, &t, a); /* a^t */
    FE_(mul)(&z, &z, a); /* a^((t+1)/2) */
    b = t;
    c = FE_ROOT_OF_UNITY;
    for (int i = FE_TWO_ADICITY; i >= 2; i--) {
        for (int j = 1; j <= i - 2; j++)
            FE_(sqr)(&b, &b);
        bool e = FE_(is_one)(&b);
        FE_(mul)(&zt, &z, &c);
        FE_(cmov)(&z, &zt, !e);
        FE_(sqr)(&c, &c);
        FE_(mul)(&tt, &t, &c);
        FE_(cmov)(&t, &tt, !e);
        b = t;
    }
    FE_T z2;
    FE_(sqr)(&z2, &z);
    *r = z;
    return FE_(eq)(&z2, a);
}
#endif

bool FE_(is_square)(const FE_T *a)
{
    /* Euler's criterion: a^((m-1)/2) is 1 for nonzero squares, 0 for 0. */
    FE_T l;
    FE_(pow_public)(&l, a, FE_MINUS_1_HALF, FE_LIMBS);
    return (FE_(is_one)(&l) | FE_(is_zero)(a)) != 0;
}

bool FE_(eq)(const FE_T *a, const FE_T *b)
{
    uint64_t acc = 0;
    for (int i = 0; i < FE_LIMBS; i++)
        acc |= a->l[i] ^ b->l[i];
    return (((acc | (0 - acc)) >> 63) ^ 1) != 0;
}

bool FE_(is_zero)(const FE_T *a)
{
    return limbs_is_zero(a->l, FE_LIMBS) != 0;
}

bool FE_(is_one)(const FE_T *a)
{
    return FE_(eq)(a, &FE_ONE);
}

#ifdef FE_BASE_FIELD
bool FE_(is_lex_largest)(const FE_T *a)
{
    uint64_t raw[FE_LIMBS];
    FE_(to_raw)(raw, a);
    return limbs_lt(FE_MINUS_1_HALF, raw, FE_LIMBS) != 0;
}
#endif

void FE_(cmov)(FE_T *r, const FE_T *a, bool flag)
{
    uint64_t mask = 0 - (uint64_t)flag;
    /* Hide the mask's origin so the compiler keeps the select branch-free. */
    __asm__("" : "+r"(mask));
    for (int i = 0; i < FE_LIMBS; i++)
        r->l[i] = (r->l[i] & ~mask) | (a->l[i] & mask);
}

void FE_(from_u64)(FE_T *r, uint64_t v)
{
    uint64_t raw[FE_LIMBS] = {v};
    FE_(from_raw)(r, raw);
}

void FE_(from_raw)(FE_T *r, const uint64_t raw[FE_LIMBS])
{
    /* raw · R² · R^-1 = raw · R. */
    FE_MONT_MUL(r->l, raw, FE_R2.l, FE_MODULUS, FE_N0);
    FE_CHECK(r);
}

void FE_(to_raw)(uint64_t raw[FE_LIMBS], const FE_T *a)
{
    FE_FROM_MONT(raw, a->l, FE_MODULUS, FE_N0);
}

void FE_(to_bytes_be)(uint8_t out[FE_BYTES], const FE_T *a)
{
    uint64_t raw[FE_LIMBS];
    FE_(to_raw)(raw, a);
    limbs_to_be(out, raw, FE_LIMBS);
}

void FE_(to_bytes_le)(uint8_t out[FE_BYTES], const FE_T *a)
{
    uint64_t raw[FE_LIMBS];
    FE_(to_raw)(raw, a);
    limbs_to_le(out, raw, FE_LIMBS);
}

static bool FE_(from_canonical)(FE_T *r, const uint64_t raw[FE_LIMBS])
{
    if (!limbs_lt(raw, FE_MODULUS, FE_LIMBS))
        return false;
    FE_(from_raw)(r, raw);
    return true;
}

bool FE_(from_bytes_be)(FE_T *r, const uint8_t in[FE_BYTES])
{
    uint64_t raw[FE_LIMBS];
    limbs_from_be(raw, in, FE_LIMBS);
    return FE_(from_canonical)(r, raw);
}

bool FE_(from_bytes_le)(FE_T *r, const uint8_t in[FE_BYTES])
{
    uint64_t raw[FE_LIMBS];
    limbs_from_le(raw, in, FE_LIMBS);
    return FE_(from_canonical)(r, raw);
}

void FE_(to_mont_bytes_le)(uint8_t out[FE_BYTES], const FE_T *a)
{
    limbs_to_le(out, a->l, FE_LIMBS);
}

bool FE_(from_mont_bytes_le)(FE_T *r, const uint8_t in[FE_BYTES])
{
    uint64_t l[FE_LIMBS];
    limbs_from_le(l, in, FE_LIMBS);
    if (!limbs_lt(l, FE_MODULUS, FE_LIMBS))
        return false;
    for (int i = 0; i < FE_LIMBS; i++)
        r->l[i] = l[i];
    return true;
}

void FE_(random)(FE_T *r, rng_t *rng)
{
    /* Rejection sampling on FE_BITS-bit integers: accepts with probability
     * m/2^FE_BITS > 1/2. */
    uint64_t raw[FE_LIMBS];
    do {
        for (int i = 0; i < FE_LIMBS; i++)
            raw[i] = rng_u64(rng);
        raw[FE_LIMBS - 1] &= (UINT64_C(1) << (FE_BITS - 64 * (FE_LIMBS - 1))) - 1;
    } while (!limbs_lt(raw, FE_MODULUS, FE_LIMBS));
    FE_(from_raw)(r, raw);
    /* The value may be a secret (the prover's r and s, toxic waste). */
    cuzk_wipe(raw, sizeof(raw));
}
