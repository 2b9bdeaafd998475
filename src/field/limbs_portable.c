/* Portable C bodies of the limb primitives (see limbs.h). unsigned __int128
 * carries the double-width products; every loop has a compile-time bound so
 * the compiler unrolls it, and no branch or index depends on limb values. */
#include "field/limbs.h"

typedef unsigned __int128 u128;

/* Returns the final borrow of (hi:t) - p into d, over n limbs of t plus the
 * extra top word hi; used by the conditional subtractions below. */
static inline uint64_t sub_borrow_n(uint64_t *d, const uint64_t *t, uint64_t hi, const uint64_t *p,
                                    unsigned n)
{
    uint64_t borrow = 0;
    for (unsigned i = 0; i < n; i++) {
        u128 x = (u128)t[i] - p[i] - borrow;
        d[i] = (uint64_t)x;
        borrow = (uint64_t)(x >> 64) & 1;
    }
    return (uint64_t)(((u128)hi - borrow) >> 64) & 1;
}

/* r = (hi:t) mod p for (hi:t) < 2p: subtract p, keep t when that borrows. */
static inline void reduce_once_n(uint64_t *r, const uint64_t *t, uint64_t hi, const uint64_t *p,
                                 unsigned n)
{
    uint64_t d[6];
    uint64_t keep = 0 - sub_borrow_n(d, t, hi, p, n);
    for (unsigned i = 0; i < n; i++)
        r[i] = (t[i] & keep) | (d[i] & ~keep);
}

static inline void add_mod_n(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                             unsigned n)
{
    uint64_t t[6], carry = 0;
    for (unsigned i = 0; i < n; i++) {
        u128 x = (u128)a[i] + b[i] + carry;
        t[i] = (uint64_t)x;
        carry = (uint64_t)(x >> 64);
    }
    reduce_once_n(r, t, carry, p, n);
}

static inline void sub_mod_n(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                             unsigned n)
{
    uint64_t t[6], borrow = 0;
    for (unsigned i = 0; i < n; i++) {
        u128 x = (u128)a[i] - b[i] - borrow;
        t[i] = (uint64_t)x;
        borrow = (uint64_t)(x >> 64) & 1;
    }
    uint64_t mask = 0 - borrow, carry = 0;
    for (unsigned i = 0; i < n; i++) {
        u128 x = (u128)t[i] + (p[i] & mask) + carry;
        r[i] = (uint64_t)x;
        carry = (uint64_t)(x >> 64);
    }
}

/* CIOS Montgomery multiplication: Koç, Acar, Kaliski, "Analyzing and
 * comparing Montgomery multiplication algorithms", IEEE Micro 1996. */
static inline void mont_mul_n(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *p,
                              uint64_t n0, unsigned n)
{
    uint64_t t[8] = {0};
    for (unsigned i = 0; i < n; i++) {
        u128 c = 0;
        for (unsigned j = 0; j < n; j++) {
            c += (u128)a[j] * b[i] + t[j];
            t[j] = (uint64_t)c;
            c >>= 64;
        }
        c += t[n];
        t[n] = (uint64_t)c;
        t[n + 1] = (uint64_t)(c >> 64);

        uint64_t m = t[0] * n0;
        c = ((u128)m * p[0] + t[0]) >> 64;
        for (unsigned j = 1; j < n; j++) {
            c += (u128)m * p[j] + t[j];
            t[j - 1] = (uint64_t)c;
            c >>= 64;
        }
        c += t[n];
        t[n - 1] = (uint64_t)c;
        t[n] = t[n + 1] + (uint64_t)(c >> 64);
    }
    /* t < 2p (Koç et al.), so one conditional subtraction reduces fully. */
    reduce_once_n(r, t, t[n], p, n);
}

/* Squaring: the off-diagonal products once, doubled, plus the diagonal
 * (Menezes et al., Handbook of Applied Cryptography, alg. 14.16), followed by
 * a separated Montgomery reduction (HAC alg. 14.32). */
static inline void mont_sqr_n(uint64_t *r, const uint64_t *a, const uint64_t *p, uint64_t n0,
                              unsigned n)
{
    uint64_t t[13] = {0};
    for (unsigned i = 0; i + 1 < n; i++) {
        u128 c = 0;
        for (unsigned j = i + 1; j < n; j++) {
            c += (u128)a[i] * a[j] + t[i + j];
            t[i + j] = (uint64_t)c;
            c >>= 64;
        }
        t[i + n] = (uint64_t)c;
    }
    uint64_t top = 0;
    for (unsigned i = 0; i < 2 * n; i++) {
        uint64_t x = t[i];
        t[i] = (x << 1) | top;
        top = x >> 63;
    }
    u128 c = 0;
    for (unsigned i = 0; i < n; i++) {
        u128 sq = (u128)a[i] * a[i];
        c += (u128)t[2 * i] + (uint64_t)sq;
        t[2 * i] = (uint64_t)c;
        c >>= 64;
        c += (u128)t[2 * i + 1] + (uint64_t)(sq >> 64);
        t[2 * i + 1] = (uint64_t)c;
        c >>= 64;
    }
    /* Reduction: add m·p·2^(64i) to clear limb i; carries collect in hi. */
    uint64_t hi = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t m = t[i] * n0;
        c = 0;
        for (unsigned j = 0; j < n; j++) {
            c += (u128)m * p[j] + t[i + j];
            t[i + j] = (uint64_t)c;
            c >>= 64;
        }
        c += (u128)t[i + n] + hi;
        t[i + n] = (uint64_t)c;
        hi = (uint64_t)(c >> 64);
    }
    /* (a² + M·p) / R < p²/R + p < 2p. */
    reduce_once_n(r, t + n, hi, p, n);
}

static inline void from_mont_n(uint64_t *r, const uint64_t *a, const uint64_t *p, uint64_t n0,
                               unsigned n)
{
    uint64_t t[12] = {0};
    for (unsigned i = 0; i < n; i++)
        t[i] = a[i];
    uint64_t hi = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t m = t[i] * n0;
        u128 c = 0;
        for (unsigned j = 0; j < n; j++) {
            c += (u128)m * p[j] + t[i + j];
            t[i + j] = (uint64_t)c;
            c >>= 64;
        }
        c += (u128)t[i + n] + hi;
        t[i + n] = (uint64_t)c;
        hi = (uint64_t)(c >> 64);
    }
    /* (a + M·p) / R < 1 + p: at most p, so one subtraction suffices. */
    reduce_once_n(r, t + n, hi, p, n);
}

void add_mod_384_portable(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                          const uint64_t p[6])
{
    add_mod_n(r, a, b, p, 6);
}

void sub_mod_384_portable(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                          const uint64_t p[6])
{
    sub_mod_n(r, a, b, p, 6);
}

void mont_mul_384_portable(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                           const uint64_t p[6], uint64_t n0)
{
    mont_mul_n(r, a, b, p, n0, 6);
}

void mont_sqr_384_portable(uint64_t r[6], const uint64_t a[6], const uint64_t p[6], uint64_t n0)
{
    mont_sqr_n(r, a, p, n0, 6);
}

void from_mont_384(uint64_t r[6], const uint64_t a[6], const uint64_t p[6], uint64_t n0)
{
    from_mont_n(r, a, p, n0, 6);
}

void add_mod_256_portable(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                          const uint64_t p[4])
{
    add_mod_n(r, a, b, p, 4);
}

void sub_mod_256_portable(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                          const uint64_t p[4])
{
    sub_mod_n(r, a, b, p, 4);
}

void mont_mul_256_portable(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                           const uint64_t p[4], uint64_t n0)
{
    mont_mul_n(r, a, b, p, n0, 4);
}

void mont_sqr_256_portable(uint64_t r[4], const uint64_t a[4], const uint64_t p[4], uint64_t n0)
{
    mont_sqr_n(r, a, p, n0, 4);
}

void from_mont_256(uint64_t r[4], const uint64_t a[4], const uint64_t p[4], uint64_t n0)
{
    from_mont_n(r, a, p, n0, 4);
}

uint64_t limbs_lt(const uint64_t *a, const uint64_t *b, unsigned n)
{
    uint64_t borrow = 0;
    for (unsigned i = 0; i < n; i++)
        borrow = (uint64_t)((((u128)a[i] - b[i]) - borrow) >> 64) & 1;
    return borrow;
}

uint64_t limbs_is_zero(const uint64_t *a, unsigned n)
{
    uint64_t acc = 0;
    for (unsigned i = 0; i < n; i++)
        acc |= a[i];
    return ((acc | (0 - acc)) >> 63) ^ 1;
}

void limbs_from_be(uint64_t *r, const uint8_t *in, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        uint64_t w = 0;
        for (unsigned k = 0; k < 8; k++)
            w = (w << 8) | in[8 * (n - 1 - i) + k];
        r[i] = w;
    }
}

void limbs_to_be(uint8_t *out, const uint64_t *a, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < 8; k++)
            out[8 * (n - 1 - i) + k] = (uint8_t)(a[i] >> (56 - 8 * k));
}

void limbs_from_le(uint64_t *r, const uint8_t *in, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        uint64_t w = 0;
        for (unsigned k = 0; k < 8; k++)
            w |= (uint64_t)in[8 * i + k] << (8 * k);
        r[i] = w;
    }
}

void limbs_to_le(uint8_t *out, const uint64_t *a, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < 8; k++)
            out[8 * i + k] = (uint8_t)(a[i] >> (8 * k));
}
