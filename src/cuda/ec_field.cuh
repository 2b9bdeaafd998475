#ifndef CUZK_CUDA_EC_FIELD_CUH
#define CUZK_CUDA_EC_FIELD_CUH

/* What the device curve code needs from Fp and Fp2 beyond ff_fp.cuh and
 * ff_fp2.cuh: zero tests, constants, inversion (for the benchmark's point
 * generator only) and warp shuffles. Names carry the ec_ prefix so that
 * they never collide with the field layer's own. */

#include <stdint.h>

#include "cuda/ff_fp.cuh"
#include "cuda/ff_fp2.cuh"

/* ---- Fp ------------------------------------------------------------------ */

static __device__ __forceinline__ bool ec_fp_is_zero(const dfp_t *a)
{
    uint32_t any = a->l[0];
#pragma unroll
    for (int k = 1; k < DFP_LIMBS; k++)
        any |= a->l[k];
    return any == 0;
}

static __device__ __forceinline__ void ec_fp_set_zero(dfp_t *r)
{
#pragma unroll
    for (int k = 0; k < DFP_LIMBS; k++)
        r->l[k] = 0;
}

static __device__ __forceinline__ void ec_fp_set_one(dfp_t *r)
{
    dfp_set_one(r);
}

/* 1/a = a^(p−2) by Fermat (0 for a = 0): 380 squarings and one
 * multiplication per set bit of p − 2. Slow; used where one inversion
 * amortizes over much other work (the point generator). Out of line and by
 * value, so that callers' variables stay in registers. */
static __device__ __noinline__ dfp_t ec_fp_inv_v(dfp_t a)
{
    uint32_t e[DFP_LIMBS] = DFP_MODULUS;
    e[0] -= 2; /* p ends in 0xaaab: no borrow */
    dfp_t acc = a;
    /* The top bit of p − 2 is bit 380 (limb 11, bit 28). */
    for (int bit = 379; bit >= 0; bit--) {
        dfp_sqr(&acc, &acc);
        if ((e[bit >> 5] >> (bit & 31)) & 1)
            dfp_mul(&acc, &acc, &a);
    }
    return acc;
}

static __device__ __forceinline__ void ec_fp_inv(dfp_t *r, const dfp_t *a)
{
    *r = ec_fp_inv_v(*a);
}

static __device__ __forceinline__ void ec_fp_shfl_down(dfp_t *r, const dfp_t *a, unsigned delta)
{
#pragma unroll
    for (int k = 0; k < DFP_LIMBS; k++)
        r->l[k] = __shfl_down_sync(0xffffffffu, a->l[k], delta);
}

/* ---- Fp2 ----------------------------------------------------------------- */

static __device__ __forceinline__ bool ec_fp2_is_zero(const dfp2_t *a)
{
    uint32_t any = 0;
#pragma unroll
    for (int k = 0; k < DFP_LIMBS; k++)
        any |= a->c0.l[k] | a->c1.l[k];
    return any == 0;
}

static __device__ __forceinline__ void ec_fp2_set_zero(dfp2_t *r)
{
    ec_fp_set_zero(&r->c0);
    ec_fp_set_zero(&r->c1);
}

static __device__ __forceinline__ void ec_fp2_set_one(dfp2_t *r)
{
    dfp_set_one(&r->c0);
    ec_fp_set_zero(&r->c1);
}

/* 1/(c0 + c1·u) = (c0 − c1·u) / (c0² + c1²), since u² = −1. */
static __device__ __forceinline__ void ec_fp2_inv(dfp2_t *r, const dfp2_t *a)
{
    dfp_t t0, t1;
    dfp_sqr(&t0, &a->c0);
    dfp_sqr(&t1, &a->c1);
    dfp_add(&t0, &t0, &t1);
    t0 = ec_fp_inv_v(t0);
    dfp_mul(&r->c0, &a->c0, &t0);
    dfp_mul(&t1, &a->c1, &t0);
    dfp_neg(&r->c1, &t1);
}

static __device__ __forceinline__ void ec_fp2_shfl_down(dfp2_t *r, const dfp2_t *a, unsigned delta)
{
    ec_fp_shfl_down(&r->c0, &a->c0, delta);
    ec_fp_shfl_down(&r->c1, &a->c1, delta);
}

#endif
