#ifndef CUZK_CUDA_NTT_FR_CUH
#define CUZK_CUDA_NTT_FR_CUH

/* Fr arithmetic for the NTT code, callable from host and device code alike.
 * On the device these are ff_prime_impl.cuh's functions (prefix ntt_dev_) on
 * dfr_t. On the host they are a portable implementation of the same
 * operations on the same limbs (eight little-endian 32-bit words,
 * Montgomery form with R = 2^256, fully reduced), so the pass code in
 * ntt_pass.cuh can run unchanged in the host emulation (ntt_emu.cu) that
 * the tests use where there is no GPU. Both sides return the canonical
 * value, so they agree bit for bit.
 *
 * The field is BLS12-381's Fr, or BN254's where the translation unit
 * defines NTT_CURVE_BN254 before including the NTT headers (the NTT's
 * arithmetic is compiled once per curve: ntt_kernels_impl.cuh). Elements
 * are dfr_t either way (same layout); NTT_TWO_ADICITY is the field's. */

#include <stdint.h>
#include <string.h>

#include "cuda/ff_bn254_fr.cuh"
#include "cuda/ff_fr.cuh"

#ifdef NTT_CURVE_BN254
#define NTT_FR_MODULUS DBN254_FR_MODULUS
#define NTT_FR_N0 DBN254_FR_N0
#define NTT_FR_ONE DBN254_FR_ONE
#define NTT_TWO_ADICITY 28u /* r − 1 = 2^28 · t */
#else
#define NTT_FR_MODULUS DFR_MODULUS
#define NTT_FR_N0 DFR_N0
#define NTT_FR_ONE DFR_ONE
#define NTT_TWO_ADICITY 32u /* r − 1 = 2^32 · t */
#endif

#define FF_(name) ntt_dev_##name
#define FF_TYPE dfr_t
#define FF_LIMBS DFR_LIMBS
#define FF_MODULUS NTT_FR_MODULUS
#define FF_N0 NTT_FR_N0
#define FF_ONE NTT_FR_ONE
#include "cuda/ff_prime_impl.cuh"

#define NTT_HD static __host__ __device__ __forceinline__

/* ---- the host side ---------------------------------------------------- */

static const uint32_t nfr_host_p[DFR_LIMBS] = NTT_FR_MODULUS;

/* r = a - p when a >= p (a < 2p), else a. */
static inline void nfr_host_reduce(uint32_t *r, const uint32_t *a)
{
    uint32_t t[DFR_LIMBS];
    uint64_t borrow = 0;
    for (int i = 0; i < DFR_LIMBS; i++) {
        const uint64_t d = (uint64_t)a[i] - nfr_host_p[i] - borrow;
        t[i] = (uint32_t)d;
        borrow = (d >> 32) & 1;
    }
    if (!borrow)
        memcpy(r, t, sizeof(t));
    else if (r != a)
        memcpy(r, a, sizeof(t));
}

static inline void nfr_host_add(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint32_t s[DFR_LIMBS];
    uint64_t carry = 0;
    for (int i = 0; i < DFR_LIMBS; i++) {
        const uint64_t v = (uint64_t)a[i] + b[i] + carry;
        s[i] = (uint32_t)v;
        carry = v >> 32;
    }
    nfr_host_reduce(r, s); /* a + b < 2p < 2^256: no carry out */
}

static inline void nfr_host_sub(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint32_t d[DFR_LIMBS];
    uint64_t borrow = 0;
    for (int i = 0; i < DFR_LIMBS; i++) {
        const uint64_t v = (uint64_t)a[i] - b[i] - borrow;
        d[i] = (uint32_t)v;
        borrow = (v >> 32) & 1;
    }
    if (borrow) { /* a < b: add p back */
        uint64_t carry = 0;
        for (int i = 0; i < DFR_LIMBS; i++) {
            const uint64_t v = (uint64_t)d[i] + nfr_host_p[i] + carry;
            d[i] = (uint32_t)v;
            carry = v >> 32;
        }
    }
    memcpy(r, d, sizeof(d));
}

/* Montgomery multiplication, CIOS (Koç, Acar, Kaliski, IEEE Micro 1996). */
static inline void nfr_host_mul(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint32_t t[DFR_LIMBS + 2] = {0};
    for (int i = 0; i < DFR_LIMBS; i++) {
        uint64_t c = 0;
        for (int j = 0; j < DFR_LIMBS; j++) {
            const uint64_t v = (uint64_t)a[j] * b[i] + t[j] + c;
            t[j] = (uint32_t)v;
            c = v >> 32;
        }
        uint64_t v = (uint64_t)t[DFR_LIMBS] + c;
        t[DFR_LIMBS] = (uint32_t)v;
        t[DFR_LIMBS + 1] = (uint32_t)(v >> 32);
        const uint32_t m = t[0] * NTT_FR_N0;
        v = (uint64_t)m * nfr_host_p[0] + t[0];
        c = v >> 32;
        for (int j = 1; j < DFR_LIMBS; j++) {
            v = (uint64_t)m * nfr_host_p[j] + t[j] + c;
            t[j - 1] = (uint32_t)v;
            c = v >> 32;
        }
        v = (uint64_t)t[DFR_LIMBS] + c;
        t[DFR_LIMBS - 1] = (uint32_t)v;
        t[DFR_LIMBS] = t[DFR_LIMBS + 1] + (uint32_t)(v >> 32);
    }
    nfr_host_reduce(r, t); /* t < 2p, and t[8] = 0 since 2p < 2^256 */
}

/* ---- both sides ------------------------------------------------------- */

NTT_HD void nfr_add(dfr_t *r, const dfr_t *a, const dfr_t *b)
{
#ifdef __CUDA_ARCH__
    ntt_dev_add(r, a, b);
#else
    nfr_host_add(r->l, a->l, b->l);
#endif
}

NTT_HD void nfr_sub(dfr_t *r, const dfr_t *a, const dfr_t *b)
{
#ifdef __CUDA_ARCH__
    ntt_dev_sub(r, a, b);
#else
    nfr_host_sub(r->l, a->l, b->l);
#endif
}

NTT_HD void nfr_mul(dfr_t *r, const dfr_t *a, const dfr_t *b)
{
#ifdef __CUDA_ARCH__
    ntt_dev_mul(r, a, b);
#else
    nfr_host_mul(r->l, a->l, b->l);
#endif
}

NTT_HD void nfr_sqr(dfr_t *r, const dfr_t *a)
{
#ifdef __CUDA_ARCH__
    ntt_dev_sqr(r, a);
#else
    nfr_host_mul(r->l, a->l, a->l);
#endif
}

/* (a, b) <- (a + b, a - b). */
NTT_HD void nfr_butterfly(dfr_t *a, dfr_t *b)
{
    dfr_t d;
    nfr_sub(&d, a, b);
    nfr_add(a, a, b);
    *b = d;
}

NTT_HD void nfr_set_one(dfr_t *r)
{
    const uint32_t one[DFR_LIMBS] = NTT_FR_ONE;
    for (int k = 0; k < DFR_LIMBS; k++)
        r->l[k] = one[k];
}

NTT_HD void nfr_set_zero(dfr_t *r)
{
    for (int k = 0; k < DFR_LIMBS; k++)
        r->l[k] = 0;
}

/* A table entry from global memory; on the device through the read-only
 * data cache. */
NTT_HD void nfr_ldg(dfr_t *r, const dfr_t *g)
{
#ifdef __CUDA_ARCH__
    const uint4 *v = (const uint4 *)g;
    const uint4 w0 = __ldg(v), w1 = __ldg(v + 1);
    r->l[0] = w0.x, r->l[1] = w0.y, r->l[2] = w0.z, r->l[3] = w0.w;
    r->l[4] = w1.x, r->l[5] = w1.y, r->l[6] = w1.z, r->l[7] = w1.w;
#else
    *r = *g;
#endif
}

/* An element of a vector in global memory (16-byte loads and stores). */
NTT_HD void nfr_ld(dfr_t *r, const dfr_t *g)
{
#ifdef __CUDA_ARCH__
    ntt_dev_load(r, g);
#else
    *r = *g;
#endif
}

NTT_HD void nfr_st(dfr_t *g, const dfr_t *a)
{
#ifdef __CUDA_ARCH__
    ntt_dev_store(g, a);
#else
    *g = *a;
#endif
}

#endif
