#ifndef CUZK_CUDA_FF_FR_CUH
#define CUZK_CUDA_FF_FR_CUH

/* Fr of BLS12-381 on the device: eight little-endian 32-bit limbs in
 * Montgomery form with R = 2^256, fully reduced: bit for bit the CPU's fr_t
 * (four little-endian 64-bit limbs, field/fr.h). Same conventions as
 * ff_fp.cuh. */

#include <stdint.h>

#include "cuda/ff_mont.cuh"

#define DFR_LIMBS 8

typedef struct dfr {
    alignas(16) uint32_t l[DFR_LIMBS];
} dfr_t;

/* r, and n0 = −r^−1 mod 2^32. */
#define DFR_MODULUS                                                                                \
    {                                                                                              \
        0x00000001u, 0xffffffffu, 0xfffe5bfeu, 0x53bda402u, 0x09a1d805u, 0x3339d808u, 0x299d7d48u, \
            0x73eda753u                                                                            \
    }
#define DFR_N0 0xffffffffu
/* R mod r: one in Montgomery form. */
#define DFR_ONE                                                                                    \
    {                                                                                              \
        0xfffffffeu, 0x00000001u, 0x00034802u, 0x5884b7fau, 0xecbc4ff5u, 0x998c4fefu, 0xacc5056fu, \
            0x1824b159u                                                                            \
    }

static __device__ __forceinline__ void dfr_add(dfr_t *r, const dfr_t *a, const dfr_t *b)
{
    const uint32_t p[DFR_LIMBS] = DFR_MODULUS;
    ff_add(r->l, a->l, b->l, p, DFR_LIMBS);
}

static __device__ __forceinline__ void dfr_sub(dfr_t *r, const dfr_t *a, const dfr_t *b)
{
    const uint32_t p[DFR_LIMBS] = DFR_MODULUS;
    ff_sub(r->l, a->l, b->l, p, DFR_LIMBS);
}

static __device__ __forceinline__ void dfr_dbl(dfr_t *r, const dfr_t *a)
{
    const uint32_t p[DFR_LIMBS] = DFR_MODULUS;
    ff_add(r->l, a->l, a->l, p, DFR_LIMBS);
}

static __device__ __forceinline__ void dfr_neg(dfr_t *r, const dfr_t *a)
{
    const uint32_t p[DFR_LIMBS] = DFR_MODULUS;
    ff_neg(r->l, a->l, p, DFR_LIMBS);
}

static __device__ __forceinline__ void dfr_mul(dfr_t *r, const dfr_t *a, const dfr_t *b)
{
    const uint32_t p[DFR_LIMBS] = DFR_MODULUS;
    ff_mont_mul(r->l, a->l, b->l, p, DFR_N0, DFR_LIMBS);
}

static __device__ __forceinline__ void dfr_sqr(dfr_t *r, const dfr_t *a)
{
    const uint32_t p[DFR_LIMBS] = DFR_MODULUS;
    ff_mont_sqr(r->l, a->l, p, DFR_N0, DFR_LIMBS);
}

/* Montgomery form to the integer: REDC(k) = k·1·R^−1 (the scalar's bits
 * for window digits). */
static __device__ __forceinline__ void dfr_to_canonical(dfr_t *k)
{
    dfr_t one;
    one.l[0] = 1;
#pragma unroll
    for (int j = 1; j < DFR_LIMBS; j++)
        one.l[j] = 0;
    dfr_mul(k, k, &one);
}

static __device__ __forceinline__ void dfr_set_one(dfr_t *r)
{
    const uint32_t one[DFR_LIMBS] = DFR_ONE;
#pragma unroll
    for (int k = 0; k < DFR_LIMBS; k++)
        r->l[k] = one[k];
}

static __device__ __forceinline__ void dfr_load(dfr_t *r, const dfr_t *g)
{
    const uint4 *v = (const uint4 *)g;
#pragma unroll
    for (int k = 0; k < DFR_LIMBS / 4; k++) {
        const uint4 w = v[k];
        r->l[4 * k] = w.x;
        r->l[4 * k + 1] = w.y;
        r->l[4 * k + 2] = w.z;
        r->l[4 * k + 3] = w.w;
    }
}

static __device__ __forceinline__ void dfr_store(dfr_t *g, const dfr_t *a)
{
    uint4 *v = (uint4 *)g;
#pragma unroll
    for (int k = 0; k < DFR_LIMBS / 4; k++)
        v[k] = make_uint4(a->l[4 * k], a->l[4 * k + 1], a->l[4 * k + 2], a->l[4 * k + 3]);
}

#endif
