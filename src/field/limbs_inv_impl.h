#ifndef CUZK_FIELD_LIMBS_INV_IMPL_H
#define CUZK_FIELD_LIMBS_INV_IMPL_H

/* Variable-time modular inversion by divsteps: Bernstein and Yang, "Fast
 * constant-time gcd computation and modular inversion", TCHES 2019, with the
 * variable-time batching of many steps on the low bits (zero runs skipped by
 * count-trailing-zeros, several additions of f merged into one multiple of f).
 *
 * Numbers are signed, in 62-bit limbs: v = sum v[i]·2^(62i), limbs below the
 * top one in [0, 2^62), the top one signed. Each round applies 62 divsteps to
 * (f, g) through a 2x2 matrix computed from their low 64 bits alone, and the
 * same matrix to (d, e), the cofactors with d·x = f and e·x = g (mod m).
 *
 * One implementation for the host (limbs_inv.c) and the device (the CUDA
 * field layer, cuda/ec_field_impl.cuh): C that nvcc also compiles for the
 * GPU, where __int128 is a pair of 64-bit registers. */

#include <stdint.h>

#ifdef __CUDACC__
#define LIMBS_INV_FN static __host__ __device__ inline
#else
#define LIMBS_INV_FN static inline
#endif

/* The trailing zeros of x != 0. */
LIMBS_INV_FN int limbs_ctz64(uint64_t x)
{
#if defined(__CUDA_ARCH__)
    return __ffsll((long long)x) - 1;
#else
    return __builtin_ctzll(x);
#endif
}

typedef __int128 limbs_i128;

#define LIMBS_S62_MAX 7
#define LIMBS_STEPS 62
#define LIMBS_M62 ((UINT64_C(1) << 62) - 1)

typedef struct limbs_s62 {
    int64_t v[LIMBS_S62_MAX];
} limbs_s62;

/* The transition matrix of LIMBS_STEPS divsteps, scaled by 2^LIMBS_STEPS:
 * 2^62·f' = u·f + v·g and 2^62·g' = q·f + r·g. */
typedef struct limbs_trans {
    int64_t u, v, q, r;
} limbs_trans;

LIMBS_INV_FN void limbs_to_s62(limbs_s62 *out, const uint64_t *a, unsigned n64, unsigned n62)
{
    for (unsigned i = 0; i < LIMBS_S62_MAX; i++)
        out->v[i] = 0;
    for (unsigned i = 0; i < n62; i++) {
        unsigned bit = 62 * i, w = bit / 64, sh = bit % 64;
        uint64_t x = w < n64 ? a[w] >> sh : 0;
        if (sh > 2 && w + 1 < n64)
            x |= a[w + 1] << (64 - sh);
        out->v[i] = (int64_t)(x & LIMBS_M62);
    }
}

/* For 0 <= a < 2^(64·n64). */
LIMBS_INV_FN void limbs_from_s62(uint64_t *r, const limbs_s62 *a, unsigned n64, unsigned n62)
{
    for (unsigned i = 0; i < n64; i++)
        r[i] = 0;
    for (unsigned i = 0; i < n62; i++) {
        unsigned bit = 62 * i, w = bit / 64, sh = bit % 64;
        uint64_t x = (uint64_t)a->v[i];
        if (w < n64)
            r[w] |= x << sh;
        if (sh > 2 && w + 1 < n64)
            r[w + 1] |= x >> (64 - sh);
    }
}

/* Up to LIMBS_STEPS divsteps on the low bits of f (odd) and g; eta = -delta.
 * Each zero at the bottom of g is one step; when g is odd and eta < 0 the
 * step swaps f and g (negating), and with eta >= 0 the next min(eta+1, i, 6)
 * steps add the one multiple w·f of f that clears that many low bits of g. */
LIMBS_INV_FN int64_t limbs_divsteps_var(int64_t eta, uint64_t f, uint64_t g, limbs_trans *t)
{
    uint64_t u = 1, v = 0, q = 0, r = 1;
    int i = LIMBS_STEPS;
    for (;;) {
        int zeros = limbs_ctz64(g | (UINT64_C(1) << i));
        g >>= zeros;
        u <<= zeros;
        v <<= zeros;
        eta -= zeros;
        i -= zeros;
        if (i == 0)
            break;
        if (eta < 0) {
            uint64_t tmp;
            eta = -eta;
            tmp = f, f = g, g = 0 - tmp;
            tmp = u, u = q, q = 0 - tmp;
            tmp = v, v = r, r = 0 - tmp;
        }
        int limit = (int)eta + 1 < i ? (int)eta + 1 : i;
        if (limit > 6)
            limit = 6;
        /* f^-1 mod 2^6: f·f = 1 mod 8 for odd f, one Newton step doubles that. */
        uint64_t finv = f * (2 - f * f);
        uint64_t w = (0 - g * finv) & ((UINT64_C(1) << limit) - 1);
        g += w * f;
        q += w * u;
        r += w * v;
    }
    t->u = (int64_t)u;
    t->v = (int64_t)v;
    t->q = (int64_t)q;
    t->r = (int64_t)r;
    return eta;
}

/* (f, g) <- (u·f + v·g, q·f + r·g) / 2^62, exact, on the low len limbs. */
LIMBS_INV_FN void limbs_update_fg(limbs_s62 *f, limbs_s62 *g, const limbs_trans *t, unsigned len)
{
    limbs_i128 cf = (limbs_i128)t->u * f->v[0] + (limbs_i128)t->v * g->v[0];
    limbs_i128 cg = (limbs_i128)t->q * f->v[0] + (limbs_i128)t->r * g->v[0];
    cf >>= 62;
    cg >>= 62;
    for (unsigned i = 1; i < len; i++) {
        cf += (limbs_i128)t->u * f->v[i] + (limbs_i128)t->v * g->v[i];
        cg += (limbs_i128)t->q * f->v[i] + (limbs_i128)t->r * g->v[i];
        f->v[i - 1] = (int64_t)((uint64_t)cf & LIMBS_M62);
        g->v[i - 1] = (int64_t)((uint64_t)cg & LIMBS_M62);
        cf >>= 62;
        cg >>= 62;
    }
    f->v[len - 1] = (int64_t)cf;
    g->v[len - 1] = (int64_t)cg;
}

/* (d, e) <- (u·d + v·e, q·d + r·e) / 2^62 mod m: before the shift, add the
 * multiples md·m and me·m that clear the low 62 bits (Montgomery's REDC step,
 * minv = m^-1 mod 2^62). |d|, |e| grow by at most m/2 per round. */
LIMBS_INV_FN void limbs_update_de(limbs_s62 *d, limbs_s62 *e, const limbs_trans *t,
                                  const limbs_s62 *m, uint64_t minv, unsigned n)
{
    limbs_i128 cd = (limbs_i128)t->u * d->v[0] + (limbs_i128)t->v * e->v[0];
    limbs_i128 ce = (limbs_i128)t->q * d->v[0] + (limbs_i128)t->r * e->v[0];
    /* md in (-2^61, 2^61] so that cd + md·m = 0 mod 2^62. */
    int64_t md = (int64_t)(((0 - (uint64_t)cd * minv) & LIMBS_M62) << 2) >> 2;
    int64_t me = (int64_t)(((0 - (uint64_t)ce * minv) & LIMBS_M62) << 2) >> 2;
    cd += (limbs_i128)md * m->v[0];
    ce += (limbs_i128)me * m->v[0];
    cd >>= 62;
    ce >>= 62;
    for (unsigned i = 1; i < n; i++) {
        cd += (limbs_i128)t->u * d->v[i] + (limbs_i128)t->v * e->v[i] + (limbs_i128)md * m->v[i];
        ce += (limbs_i128)t->q * d->v[i] + (limbs_i128)t->r * e->v[i] + (limbs_i128)me * m->v[i];
        d->v[i - 1] = (int64_t)((uint64_t)cd & LIMBS_M62);
        e->v[i - 1] = (int64_t)((uint64_t)ce & LIMBS_M62);
        cd >>= 62;
        ce >>= 62;
    }
    d->v[n - 1] = (int64_t)cd;
    e->v[n - 1] = (int64_t)ce;
}

/* a <- a + k·m for k in {-1, 1}, renormalising the limbs. */
LIMBS_INV_FN void limbs_s62_add_mul(limbs_s62 *a, const limbs_s62 *m, int64_t k, unsigned n)
{
    limbs_i128 c = 0;
    for (unsigned i = 0; i + 1 < n; i++) {
        c += (limbs_i128)a->v[i] + (limbs_i128)k * m->v[i];
        a->v[i] = (int64_t)((uint64_t)c & LIMBS_M62);
        c >>= 62;
    }
    a->v[n - 1] = (int64_t)(c + a->v[n - 1] + (limbs_i128)k * m->v[n - 1]);
}

/* a >= m, for normalised a and m >= 0. */
LIMBS_INV_FN int limbs_s62_ge(const limbs_s62 *a, const limbs_s62 *m, unsigned n)
{
    for (unsigned i = n; i-- > 0;)
        if (a->v[i] != m->v[i])
            return a->v[i] > m->v[i];
    return 1;
}

LIMBS_INV_FN void limbs_inv_var_impl(uint64_t *r, const uint64_t *a, const uint64_t *p, unsigned n)
{
    const unsigned n62 = n == 6 ? 7 : 5; /* 62·n62 bits hold the value and its sign */
    limbs_s62 m, f, g, d, e;
    limbs_to_s62(&m, p, n, n62);
    f = m;
    limbs_to_s62(&g, a, n, n62);
    for (unsigned i = 0; i < LIMBS_S62_MAX; i++)
        d.v[i] = e.v[i] = 0;
    e.v[0] = 1;

    /* p^-1 mod 2^64 by Newton's iteration (each step doubles the correct bits). */
    uint64_t minv = p[0];
    for (int i = 0; i < 5; i++)
        minv *= 2 - p[0] * minv;

    int64_t eta = -1;
    unsigned len = n62;
    for (;;) {
        uint64_t gz = 0;
        for (unsigned i = 0; i < len; i++)
            gz |= (uint64_t)g.v[i];
        if (gz == 0)
            break;
        limbs_trans t;
        eta = limbs_divsteps_var(eta, (uint64_t)f.v[0], (uint64_t)g.v[0], &t);
        limbs_update_fg(&f, &g, &t, len);
        limbs_update_de(&d, &e, &t, &m, minv, n62);
        /* Drop a top limb that both f and g hold only as sign. */
        if (len > 1) {
            int64_t ft = f.v[len - 1], gt = g.v[len - 1];
            if (((ft ^ (ft >> 63)) | (gt ^ (gt >> 63))) == 0) {
                f.v[len - 2] += (int64_t)((uint64_t)ft << 62);
                g.v[len - 2] += (int64_t)((uint64_t)gt << 62);
                len--;
            }
        }
    }
    /* g = 0 and f = ±gcd = ±1 (0 for a = 0, where d = 0 too); d·a = f. */
    if (f.v[len - 1] < 0) {
        for (unsigned i = 0; i < n62; i++)
            d.v[i] = 0 - d.v[i];
        /* Renormalise: -d has limbs in (-2^62, 0]; fold the borrows upward. */
        limbs_s62_add_mul(&d, &m, 0, n62);
    }
    while (d.v[n62 - 1] < 0)
        limbs_s62_add_mul(&d, &m, 1, n62);
    while (limbs_s62_ge(&d, &m, n62))
        limbs_s62_add_mul(&d, &m, -1, n62);
    limbs_from_s62(r, &d, n, n62);
}

#endif
