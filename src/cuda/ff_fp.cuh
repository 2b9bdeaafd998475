#ifndef CUZK_CUDA_FF_FP_CUH
#define CUZK_CUDA_FF_FP_CUH

/* Fp of BLS12-381 on the device: twelve little-endian 32-bit limbs in
 * Montgomery form with R = 2^384, fully reduced: bit for bit the CPU's fp_t
 * (six little-endian 64-bit limbs, field/fp.h) on a little-endian host, so
 * arrays of fp_t copy to the device unchanged. 16-byte aligned, so one element
 * loads with three 16-byte accesses. Outputs first; they may alias inputs. */

#include <stdint.h>

#include "cuda/ff_mont.cuh"

#define DFP_LIMBS 12

typedef struct dfp {
    alignas(16) uint32_t l[DFP_LIMBS];
} dfp_t;

/* p, and n0 = −p^−1 mod 2^32 (the low half of the CPU's 64-bit FP_N0). */
#define DFP_MODULUS                                                                                \
    {                                                                                              \
        0xffffaaabu, 0xb9feffffu, 0xb153ffffu, 0x1eabfffeu, 0xf6b0f624u, 0x6730d2a0u, 0xf38512bfu, \
            0x64774b84u, 0x434bacd7u, 0x4b1ba7b6u, 0x397fe69au, 0x1a0111eau                        \
    }
#define DFP_N0 0xfffcfffdu
/* R mod p: one in Montgomery form. */
#define DFP_ONE                                                                                    \
    {                                                                                              \
        0x0002fffdu, 0x76090000u, 0xc40c0002u, 0xebf4000bu, 0x53c758bau, 0x5f489857u, 0x70525745u, \
            0x77ce5853u, 0xa256ec6du, 0x5c071a97u, 0xfa80e493u, 0x15f65ec3u                        \
    }

static __device__ __forceinline__ void dfp_add(dfp_t *r, const dfp_t *a, const dfp_t *b)
{
    const uint32_t p[DFP_LIMBS] = DFP_MODULUS;
    ff_add(r->l, a->l, b->l, p, DFP_LIMBS);
}

static __device__ __forceinline__ void dfp_sub(dfp_t *r, const dfp_t *a, const dfp_t *b)
{
    const uint32_t p[DFP_LIMBS] = DFP_MODULUS;
    ff_sub(r->l, a->l, b->l, p, DFP_LIMBS);
}

static __device__ __forceinline__ void dfp_dbl(dfp_t *r, const dfp_t *a)
{
    const uint32_t p[DFP_LIMBS] = DFP_MODULUS;
    ff_add(r->l, a->l, a->l, p, DFP_LIMBS);
}

static __device__ __forceinline__ void dfp_neg(dfp_t *r, const dfp_t *a)
{
    const uint32_t p[DFP_LIMBS] = DFP_MODULUS;
    ff_neg(r->l, a->l, p, DFP_LIMBS);
}

static __device__ __forceinline__ void dfp_mul(dfp_t *r, const dfp_t *a, const dfp_t *b)
{
    const uint32_t p[DFP_LIMBS] = DFP_MODULUS;
    ff_mont_mul(r->l, a->l, b->l, p, DFP_N0, DFP_LIMBS);
}

static __device__ __forceinline__ void dfp_sqr(dfp_t *r, const dfp_t *a)
{
    const uint32_t p[DFP_LIMBS] = DFP_MODULUS;
    ff_mont_sqr(r->l, a->l, p, DFP_N0, DFP_LIMBS);
}

static __device__ __forceinline__ void dfp_set_one(dfp_t *r)
{
    const uint32_t one[DFP_LIMBS] = DFP_ONE;
#pragma unroll
    for (int k = 0; k < DFP_LIMBS; k++)
        r->l[k] = one[k];
}

/* Global memory <-> registers with 16-byte accesses. */
static __device__ __forceinline__ void dfp_load(dfp_t *r, const dfp_t *g)
{
    const uint4 *v = (const uint4 *)g;
#pragma unroll
    for (int k = 0; k < DFP_LIMBS / 4; k++) {
        const uint4 w = v[k];
        r->l[4 * k] = w.x;
        r->l[4 * k + 1] = w.y;
        r->l[4 * k + 2] = w.z;
        r->l[4 * k + 3] = w.w;
    }
}

static __device__ __forceinline__ void dfp_store(dfp_t *g, const dfp_t *a)
{
    uint4 *v = (uint4 *)g;
#pragma unroll
    for (int k = 0; k < DFP_LIMBS / 4; k++)
        v[k] = make_uint4(a->l[4 * k], a->l[4 * k + 1], a->l[4 * k + 2], a->l[4 * k + 3]);
}

#endif
