#ifndef CUZK_CUDA_NTT_SETUP_CUH
#define CUZK_CUDA_NTT_SETUP_CUH

/* The constants and tables of a domain, computed where they are used (on
 * the device, or on the host in the emulation) from nothing but the modulus,
 * with the same definitions as the CPU domain (poly/domain.c):
 *   w_2^S = x^t, r - 1 = 2^S t (S = NTT_TWO_ADICITY: 32 for BLS12-381, 28
 *   for BN254), x = 7 (bellman) or 5 (snarkjs);
 *   w_n = w_2^S ^ (2^(S-k)); w_2n = w_2^S ^ (2^(S-1-k)); coset shift g = 7.
 * Inverses by Fermat (a^(r-2)). */

#include <stdint.h>

#include "cuda/ntt_fr.cuh"

/* The domain's constants, in the order the power tables use them. */
typedef struct ntt_consts {
    dfr_t omega;    /* w_n */
    dfr_t omega_2n; /* w_2n, w_2n^2 = w_n */
    dfr_t n_inv;    /* 1/n */
    dfr_t w8[3];    /* w_8, w_4, w_8^3 (w_4 = w_n when n = 4; ones where n is smaller) */
    dfr_t base[4];  /* coset power bases: g, 1/g, w_2n, 1/w_2n */
    dfr_t scale[6]; /* the constants of the scaling tables (NTT_SC_*) */
} ntt_consts;

/* Scaling tables: which base, which constant. */
enum {
    NTT_SC_COSET_FWD, /* g^i */
    NTT_SC_COSET_INV, /* g^-i / n */
    NTT_SC_H_MID_GEN, /* g^i / n */
    NTT_SC_H_OUT_GEN, /* g^-i / (n Z), Z = g^n - 1 */
    NTT_SC_H_MID_2N,  /* w_2n^i / n */
    NTT_SC_H_OUT_2N,  /* w_2n^-i / (n Z), Z = w_2n^n - 1 = -2 */
    NTT_SC_COUNT
};

/* base index of each scaling table */
NTT_HD uint32_t ntt_sc_base(uint32_t sc)
{
    switch (sc) {
    case NTT_SC_COSET_FWD:
    case NTT_SC_H_MID_GEN:
        return 0;
    case NTT_SC_COSET_INV:
    case NTT_SC_H_OUT_GEN:
        return 1;
    case NTT_SC_H_MID_2N:
        return 2;
    default:
        return 3;
    }
}

/* v·1 for a small v. */
NTT_HD void ntt_small(dfr_t *r, uint32_t v)
{
    dfr_t one;
    nfr_set_one(&one);
    nfr_set_zero(r);
    for (uint32_t i = 0; i < v; i++)
        nfr_add(r, r, &one);
}

/* r = a^e for an exponent of `words` 32-bit words, left to right. */
NTT_HD void ntt_pow_words(dfr_t *r, const dfr_t *a, const uint32_t *e, int words)
{
    dfr_t acc;
    nfr_set_one(&acc);
    for (int w = words - 1; w >= 0; w--)
        for (int bit = 31; bit >= 0; bit--) {
            nfr_sqr(&acc, &acc);
            if ((e[w] >> bit) & 1)
                nfr_mul(&acc, &acc, a);
        }
    *r = acc;
}

NTT_HD void ntt_pow_u32(dfr_t *r, const dfr_t *a, uint32_t e)
{
    dfr_t acc, base = *a;
    nfr_set_one(&acc);
    while (e) {
        if (e & 1)
            nfr_mul(&acc, &acc, &base);
        e >>= 1;
        if (e)
            nfr_sqr(&base, &base);
    }
    *r = acc;
}

NTT_HD void ntt_inv(dfr_t *r, const dfr_t *a)
{
    const uint32_t p[DFR_LIMBS] = NTT_FR_MODULUS;
    uint32_t e[DFR_LIMBS];
    uint32_t borrow = 2;
    for (int i = 0; i < DFR_LIMBS; i++) { /* e = p - 2 */
        e[i] = p[i] - borrow;
        borrow = p[i] < borrow ? 1u : 0u;
    }
    ntt_pow_words(r, a, e, DFR_LIMBS);
}

NTT_HD void ntt_sqr_times(dfr_t *r, const dfr_t *a, uint32_t times)
{
    *r = *a;
    for (uint32_t i = 0; i < times; i++)
        nfr_sqr(r, r);
}

/* Everything of ntt_consts for n = 2^log_n (log_n <= NTT_TWO_ADICITY),
 * snarkjs != 0 for the roots x = 5. At log_n = NTT_TWO_ADICITY there is
 * no w_2n: omega_2n is then w_n, and the 2n-th root coset must not be used
 * (ntt_api.cu refuses it). One thread. */
NTT_HD void ntt_make_consts(ntt_consts *c, uint32_t log_n, int snarkjs)
{
    const uint32_t p[DFR_LIMBS] = NTT_FR_MODULUS;
    /* t = (p − 1) >> S: p − 1 is p with its low bit cleared (p is odd), and
     * its low S bits are zero. */
    const uint32_t q = NTT_TWO_ADICITY / 32, b = NTT_TWO_ADICITY % 32;
    uint32_t t[DFR_LIMBS];
    for (uint32_t i = 0; i < DFR_LIMBS; i++) {
        const uint32_t lo = i + q < DFR_LIMBS ? p[i + q] & (i + q == 0 ? ~1u : ~0u) : 0u;
        const uint32_t hi = i + q + 1 < DFR_LIMBS ? p[i + q + 1] : 0u;
        t[i] = (uint32_t)((((uint64_t)hi << 32) | lo) >> b);
    }
    dfr_t x, root, one;
    nfr_set_one(&one);
    ntt_small(&x, snarkjs ? 5 : 7);
    ntt_pow_words(&root, &x, t, DFR_LIMBS);
    ntt_sqr_times(&c->omega, &root, NTT_TWO_ADICITY - log_n);
    if (log_n < NTT_TWO_ADICITY)
        ntt_sqr_times(&c->omega_2n, &root, NTT_TWO_ADICITY - 1 - log_n);
    else
        c->omega_2n = c->omega;

    dfr_t n;
    n = one;
    for (uint32_t i = 0; i < log_n; i++)
        nfr_add(&n, &n, &n);
    ntt_inv(&c->n_inv, &n);

    if (log_n >= 3) {
        ntt_sqr_times(&c->w8[0], &c->omega, log_n - 3);
        nfr_sqr(&c->w8[1], &c->w8[0]);
        nfr_mul(&c->w8[2], &c->w8[1], &c->w8[0]);
    } else {
        c->w8[0] = one;
        c->w8[1] = log_n == 2 ? c->omega : one;
        c->w8[2] = one;
    }

    dfr_t g;
    ntt_small(&g, 7);
    c->base[0] = g;
    ntt_inv(&c->base[1], &g);
    c->base[2] = c->omega_2n;
    ntt_inv(&c->base[3], &c->omega_2n);

    /* Z on each coset: s^n - 1. */
    dfr_t z_gen, z_2n;
    ntt_sqr_times(&z_gen, &g, log_n);
    nfr_sub(&z_gen, &z_gen, &one);
    ntt_inv(&z_gen, &z_gen);
    ntt_sqr_times(&z_2n, &c->omega_2n, log_n);
    nfr_sub(&z_2n, &z_2n, &one);
    ntt_inv(&z_2n, &z_2n);

    c->scale[NTT_SC_COSET_FWD] = one;
    c->scale[NTT_SC_COSET_INV] = c->n_inv;
    c->scale[NTT_SC_H_MID_GEN] = c->n_inv;
    nfr_mul(&c->scale[NTT_SC_H_OUT_GEN], &c->n_inv, &z_gen);
    c->scale[NTT_SC_H_MID_2N] = c->n_inv;
    nfr_mul(&c->scale[NTT_SC_H_OUT_2N], &c->n_inv, &z_2n);
}

/* Entry t of a power table: scale · (base^(2^sq))^t. */
NTT_HD void ntt_make_power(dfr_t *r, const dfr_t *base, uint32_t sq, const dfr_t *scale, uint32_t t)
{
    dfr_t b;
    ntt_sqr_times(&b, base, sq);
    ntt_pow_u32(&b, &b, t);
    nfr_mul(r, &b, scale);
}

/* Entry o = k·2^log_s + i of the boundary twiddles of rows of 2^log_l
 * elements: w_L^(i k) = w_n^e, e = (i k mod L)·n/L, from the root tables. */
NTT_HD void ntt_make_twiddle(dfr_t *r, const dfr_t *rl, const dfr_t *rh, uint32_t rl_bits,
                             uint32_t log_n, uint32_t log_l, uint32_t log_s, uint32_t o)
{
    const uint32_t i = o & ((1u << log_s) - 1), k = o >> log_s;
    const uint32_t e = ((i * k) & ((1u << log_l) - 1)) << (log_n - log_l);
    dfr_t h;
    nfr_ldg(r, rl + (e & ((1u << rl_bits) - 1)));
    nfr_ldg(&h, rh + (e >> rl_bits));
    nfr_mul(r, r, &h);
}

#endif
