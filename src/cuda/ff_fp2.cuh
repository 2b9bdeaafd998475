#ifndef CUZK_CUDA_FF_FP2_CUH
#define CUZK_CUDA_FF_FP2_CUH

/* Fp2 = Fp[u] / (u² + 1) on the device, c0 + c1·u: the layout of the CPU's
 * fp2_t (field/fp2.h), two dfp_t back to back. */

#include "cuda/ff_fp.cuh"

typedef struct dfp2 {
    dfp_t c0, c1;
} dfp2_t;

static __device__ __forceinline__ void dfp2_add(dfp2_t *r, const dfp2_t *a, const dfp2_t *b)
{
    dfp_add(&r->c0, &a->c0, &b->c0);
    dfp_add(&r->c1, &a->c1, &b->c1);
}

static __device__ __forceinline__ void dfp2_sub(dfp2_t *r, const dfp2_t *a, const dfp2_t *b)
{
    dfp_sub(&r->c0, &a->c0, &b->c0);
    dfp_sub(&r->c1, &a->c1, &b->c1);
}

static __device__ __forceinline__ void dfp2_dbl(dfp2_t *r, const dfp2_t *a)
{
    dfp_dbl(&r->c0, &a->c0);
    dfp_dbl(&r->c1, &a->c1);
}

static __device__ __forceinline__ void dfp2_neg(dfp2_t *r, const dfp2_t *a)
{
    dfp_neg(&r->c0, &a->c0);
    dfp_neg(&r->c1, &a->c1);
}

/* Karatsuba, three Fp products: c0 = a0·b0 − a1·b1,
 * c1 = (a0 + a1)(b0 + b1) − a0·b0 − a1·b1. */
static __device__ __forceinline__ void dfp2_mul(dfp2_t *r, const dfp2_t *a, const dfp2_t *b)
{
    dfp_t t0, t1, sa, sb;
    dfp_mul(&t0, &a->c0, &b->c0);
    dfp_mul(&t1, &a->c1, &b->c1);
    dfp_add(&sa, &a->c0, &a->c1);
    dfp_add(&sb, &b->c0, &b->c1);
    dfp_mul(&sa, &sa, &sb);
    dfp_sub(&r->c0, &t0, &t1);
    dfp_add(&t0, &t0, &t1);
    dfp_sub(&r->c1, &sa, &t0);
}

/* Complex squaring, two Fp products: c0 = (a0 + a1)(a0 − a1), c1 = 2·a0·a1. */
static __device__ __forceinline__ void dfp2_sqr(dfp2_t *r, const dfp2_t *a)
{
    dfp_t s, d, m;
    dfp_add(&s, &a->c0, &a->c1);
    dfp_sub(&d, &a->c0, &a->c1);
    dfp_mul(&m, &a->c0, &a->c1);
    dfp_mul(&r->c0, &s, &d);
    dfp_dbl(&r->c1, &m);
}

static __device__ __forceinline__ void dfp2_load(dfp2_t *r, const dfp2_t *g)
{
    dfp_load(&r->c0, &g->c0);
    dfp_load(&r->c1, &g->c1);
}

static __device__ __forceinline__ void dfp2_store(dfp2_t *g, const dfp2_t *a)
{
    dfp_store(&g->c0, &a->c0);
    dfp_store(&g->c1, &a->c1);
}

#endif
