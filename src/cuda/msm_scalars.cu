/* The group-independent kernels of the device MSM (msm_internal.cuh):
 * scalars to canonical integers, the 0/1/other classification of the split,
 * signed-digit recoding with the counting sort of (window, bucket) keys, and
 * the scalar generator for tests and benchmarks. */

#include <cub/device/device_scan.cuh>

#include "cuda/ff_bn254_fr.cuh"
#include "cuda/ff_fr.cuh"
#include "cuda/msm_internal.cuh"

static_assert(sizeof(dfr_t) == CUDA_MSM_FR_BYTES, "dfr_t is not the size of fr_t");
static_assert(sizeof(dbn254_fr_t) == CUDA_MSM_FR_BYTES, "dbn254_fr_t is not the size of fr_t");

/* The scalars of both curves are eight limbs; the kernels hold them as
 * dfr_t and convert by the curve's field, chosen by a kernel argument
 * (uniform over the grid, so no divergence). */
static __device__ __forceinline__ void msm_fr_to_canonical(dfr_t *k, bool bn254)
{
    if (bn254)
        dbn254_fr_to_canonical((dbn254_fr_t *)k);
    else
        dfr_to_canonical(k);
}

/* One in Montgomery form. */
static __device__ __forceinline__ void msm_fr_one(dfr_t *r, bool bn254)
{
    if (bn254)
        dbn254_fr_set_one((dbn254_fr_t *)r);
    else
        dfr_set_one(r);
}

/* ---- helpers --------------------------------------------------------------- */

static __device__ __forceinline__ unsigned msm_lane(void)
{
    return threadIdx.x & 31u;
}

/* A warp-wide append: every lane whose pred is set gets its own slot in
 * the list whose length is *counter, with one atomic per warp. Called by
 * all 32 lanes. */
static __device__ __forceinline__ uint32_t msm_warp_append(uint32_t *counter, bool pred)
{
    const uint32_t mask = __ballot_sync(0xffffffffu, pred);
    if (mask == 0)
        return 0;
    const unsigned leader = (unsigned)__ffs((int)mask) - 1;
    uint32_t base = 0;
    if (msm_lane() == leader)
        base = atomicAdd(counter, (uint32_t)__popc((int)mask));
    base = __shfl_sync(0xffffffffu, base, (int)leader);
    return base + (uint32_t)__popc((int)(mask & ((1u << msm_lane()) - 1u)));
}

/* k[q] for a run-time q (0 for q ≥ 8), by selects, so k stays in registers. */
static __device__ __forceinline__ uint32_t msm_word(const uint32_t *k, unsigned q)
{
    uint32_t r = 0;
#pragma unroll
    for (unsigned j = 0; j < DFR_LIMBS; j++)
        r = q == j ? k[j] : r;
    return r;
}

/* Bits [bit, bit + c) of the 256-bit k, c ≤ 24. */
static __device__ __forceinline__ uint32_t msm_window_bits(const uint32_t *k, unsigned bit,
                                                           unsigned c)
{
    const unsigned q = bit >> 5;
    const uint32_t v = __funnelshift_r(msm_word(k, q), msm_word(k, q + 1), bit & 31u);
    return v & ((1u << c) - 1u);
}

unsigned msm_grid(const cuda_msm_ctx *ctx, size_t n, unsigned block)
{
    size_t blocks = (n + block - 1) / block;
    const size_t cap = (size_t)ctx->sm_count * 2048u / block; /* two full waves */
    if (blocks > cap)
        blocks = cap;
    return blocks ? (unsigned)blocks : 1u;
}

/* ---- canonical ------------------------------------------------------------- */

__global__ void msm_canonical_kernel(bool bn254, const dfr_t *in, dfr_t *out, uint32_t n,
                                     uint32_t *counts)
{
    const uint32_t stride = gridDim.x * blockDim.x;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        dfr_t k;
        dfr_load(&k, in + i);
        msm_fr_to_canonical(&k, bn254);
        dfr_store(out + i, &k);
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        counts[0] = n;
        counts[1] = 0;
    }
}

cuzk_status msm_scalars_canonical(cuda_msm_ctx *ctx, bool bn254, const void *scalars, size_t n,
                                  cudaStream_t stream)
{
    cuzk_status st = CUZK_OK;
    MSM_LAUNCH(msm_canonical_kernel, msm_grid(ctx, n, MSM_SCALAR_BLOCK), MSM_SCALAR_BLOCK, stream,
               bn254, (const dfr_t *)scalars, (dfr_t *)ctx->canon, (uint32_t)n, ctx->counts);
    CUDA_CHECK_LAUNCH(st, "msm_canonical_kernel");
    return st;
}

/* ---- the split ------------------------------------------------------------- */

/* Warp-uniform loop (every lane runs every iteration, so the ballots see
 * the full warp). counts must be zero on entry. */
__global__ void msm_classify_kernel(bool bn254, const dfr_t *in, uint32_t n,
                                    const uint64_t *bits, const uint32_t *prefix, uint32_t *canon,
                                    uint32_t *pidx, uint32_t *ones, uint32_t *counts)
{
    dfr_t one;
    msm_fr_one(&one, bn254);
    const uint32_t stride = gridDim.x * blockDim.x;
    for (uint32_t base = blockIdx.x * blockDim.x; base < n; base += stride) {
        const uint32_t i = base + threadIdx.x;
        bool has = i < n;
        uint32_t p = i;
        if (has && bits) {
            const uint64_t w = bits[i >> 6];
            const unsigned sh = i & 63u;
            has = (w >> sh) & 1u;
            p = prefix[i >> 6] + (uint32_t)__popcll(w & ((UINT64_C(1) << sh) - 1u));
        }
        dfr_t k;
        bool zero = true, is_one = false;
        if (has) {
            dfr_load(&k, in + i);
            uint32_t any = 0, diff = 0;
#pragma unroll
            for (int j = 0; j < DFR_LIMBS; j++) {
                any |= k.l[j];
                diff |= k.l[j] ^ one.l[j];
            }
            zero = any == 0;
            is_one = diff == 0;
        }
        const bool other = has && !zero && !is_one;
        const uint32_t slot = msm_warp_append(&counts[0], other);
        if (other) {
            msm_fr_to_canonical(&k, bn254);
            dfr_store((dfr_t *)canon + slot, &k);
            pidx[slot] = p;
        }
        const uint32_t slot1 = msm_warp_append(&counts[1], has && is_one);
        if (has && is_one)
            ones[slot1] = p;
    }
}

cuzk_status msm_scalars_classify(cuda_msm_ctx *ctx, bool bn254, const void *scalars, size_t n,
                                 const struct cuda_msm_density *density, cudaStream_t stream)
{
    cuzk_status st = CUZK_OK;
    CUDA_CHECK(st, cudaMemsetAsync(ctx->counts, 0, 2 * sizeof(uint32_t), stream));
    MSM_LAUNCH(msm_classify_kernel, msm_grid(ctx, n, MSM_SCALAR_BLOCK), MSM_SCALAR_BLOCK, stream,
               bn254, (const dfr_t *)scalars, (uint32_t)n, density ? density->bits : NULL,
               density ? density->prefix : NULL, ctx->canon, ctx->pidx, ctx->vals, ctx->counts);
    CUDA_CHECK_LAUNCH(st, "msm_classify_kernel");
    return st;
}

/* ---- recoding and the bucket sort -------------------------------------------- */

/* Windows recoded together by one thread (msm_recode_kernel). */
#define MSM_RECODE_GROUP 8u

/* For each entry i < counts[0] and each window w in [w_lo, w_hi) whose
 * signed digit d is nonzero, key = (w − w_lo)·M + |d| − 1:
 *   scatter = 0: off[key] += 1 (the histogram);
 *   scatter = 1: vals[off[key]++] = point | sign (off holds the bucket
 *                starts on entry and the ends on exit).
 * Digits (the recoding of msm/msm_internal.h): from window 0 up,
 * d = window + carry; d > M = 2^(c−1) becomes d − 2^c with a carry of one,
 * so d ∈ [−(M − 1), M]; k < 2^255 and c·nwin ≥ 256 leave no final carry.
 * Lanes of a warp with the same key share one atomic (__match_any_sync),
 * so skewed digit distributions do not serialize on one counter. The loop
 * is warp-uniform for the same reason. */
__global__ void msm_recode_kernel(int scatter, const uint32_t *canon, const uint32_t *pidx,
                                  const uint32_t *counts, unsigned c, unsigned w_lo, unsigned w_hi,
                                  uint32_t M, uint32_t *off, uint32_t *vals)
{
    const uint32_t m = counts[0];
    const uint32_t stride = gridDim.x * blockDim.x;
    const uint32_t lanes_below = (1u << msm_lane()) - 1u;
    for (uint32_t base = blockIdx.x * blockDim.x; base < m; base += stride) {
        const uint32_t i = base + threadIdx.x;
        const bool valid = i < m;
        uint32_t k[DFR_LIMBS] = {0, 0, 0, 0, 0, 0, 0, 0};
        uint32_t point = 0;
        if (valid) {
            const uint4 *v = (const uint4 *)(canon + (size_t)i * DFR_LIMBS);
            const uint4 lo = v[0], hi = v[1];
            k[0] = lo.x, k[1] = lo.y, k[2] = lo.z, k[3] = lo.w;
            k[4] = hi.x, k[5] = hi.y, k[6] = hi.z, k[7] = hi.w;
            point = pidx ? pidx[i] : i;
        }
        /* Windows in groups of MSM_RECODE_GROUP, unrolled: the group's
         * atomics are all issued before the first result is used, so the
         * scatter waits for one round trip per group instead of one per
         * window (it was latency-bound: 18 ms of 21 at 2^24, c = 20). */
        uint32_t carry = 0;
        for (unsigned w0 = 0; w0 < w_hi; w0 += MSM_RECODE_GROUP) {
            uint32_t key[MSM_RECODE_GROUP], peers[MSM_RECODE_GROUP], pos[MSM_RECODE_GROUP];
            bool neg[MSM_RECODE_GROUP];
#pragma unroll
            for (unsigned g = 0; g < MSM_RECODE_GROUP; g++) {
                const unsigned w = w0 + g;
                const uint32_t d = w < w_hi ? msm_window_bits(k, w * c, c) + carry : 0u;
                carry = d > M;
                neg[g] = carry;
                const uint32_t mag = carry ? 2u * M - d : d; /* |digit| */
                key[g] = valid && mag != 0 && w >= w_lo && w < w_hi ? (w - w_lo) * M + mag - 1u
                                                                    : 0xffffffffu;
                peers[g] = __match_any_sync(0xffffffffu, key[g]);
            }
#pragma unroll
            for (unsigned g = 0; g < MSM_RECODE_GROUP; g++) {
                pos[g] = 0;
                if (key[g] == 0xffffffffu || msm_lane() != (unsigned)__ffs((int)peers[g]) - 1)
                    continue;
                if (scatter)
                    pos[g] = atomicAdd(&off[key[g]], (uint32_t)__popc((int)peers[g]));
                else
                    atomicAdd(&off[key[g]], (uint32_t)__popc((int)peers[g]));
            }
            if (!scatter)
                continue;
#pragma unroll
            for (unsigned g = 0; g < MSM_RECODE_GROUP; g++) {
                if (key[g] == 0xffffffffu)
                    continue;
                const unsigned leader = (unsigned)__ffs((int)peers[g]) - 1;
                const uint32_t p = __shfl_sync(peers[g], pos[g], (int)leader) +
                                   (uint32_t)__popc((int)(peers[g] & lanes_below));
                vals[p] = point | (neg[g] ? MSM_NEG_BIT : 0u);
            }
        }
    }
}

cuzk_status msm_scan_bytes(size_t n_keys, size_t *bytes)
{
    cuzk_status st = CUZK_OK;
    *bytes = 0;
    CUDA_CHECK(st, cub::DeviceScan::ExclusiveSum(NULL, *bytes, (uint32_t *)NULL, (int)n_keys));
    return st;
}

cuzk_status msm_sort_batch(cuda_msm_ctx *ctx, const msm_plan *pl, unsigned w_lo, unsigned w_hi,
                           const uint32_t *pidx, size_t n_upper, cudaStream_t stream)
{
    cuzk_status st = CUZK_OK;
    const size_t n_keys = (size_t)(w_hi - w_lo) * pl->M;
    if (n_keys + 1 > ctx->cap_keys)
        return CUZK_ERR_INTERNAL;
    size_t bytes = 0;
    st = msm_scan_bytes(n_keys + 1, &bytes);
    if (st != CUZK_OK)
        return st;
    if (bytes > ctx->cap_cub_bytes)
        return CUZK_ERR_INTERNAL;
    const unsigned grid = msm_grid(ctx, n_upper, MSM_SCALAR_BLOCK);
    CUDA_CHECK(st, cudaMemsetAsync(ctx->off, 0, (n_keys + 1) * sizeof(uint32_t), stream));
    MSM_LAUNCH(msm_recode_kernel, grid, MSM_SCALAR_BLOCK, stream, 0, ctx->canon, pidx, ctx->counts,
               pl->c, w_lo, w_hi, pl->M, ctx->off, ctx->vals);
    CUDA_CHECK_LAUNCH(st, "msm_recode_kernel (histogram)");
    CUDA_CHECK(st, cub::DeviceScan::ExclusiveSum(ctx->cub_temp, bytes, ctx->off, (int)(n_keys + 1),
                                                 stream));
    MSM_LAUNCH(msm_recode_kernel, grid, MSM_SCALAR_BLOCK, stream, 1, ctx->canon, pidx, ctx->counts,
               pl->c, w_lo, w_hi, pl->M, ctx->off, ctx->vals);
    CUDA_CHECK_LAUNCH(st, "msm_recode_kernel (scatter)");
    return st;
}

/* ---- scalars for tests and benchmarks ------------------------------------------ */

static __device__ __forceinline__ uint64_t msm_mix64(uint64_t z)
{
    /* splitmix64's finalizer (Steele, Lea, Flood, "Fast splittable
     * pseudorandom number generators", OOPSLA 2014). */
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Random kinds: 255 random bits (BN254: 254), minus r when ≥ r (2^255 <
 * 2r; BN254's 2^254 < 2r): an element of Fr, taken as a Montgomery form.
 * Zero-one kinds: 0 or Montgomery one. */
__global__ void msm_fill_kernel(dfr_t *out, uint32_t n, uint64_t seed, int kind)
{
    const bool bn254 =
        kind == CUDA_MSM_SCALARS_BN254_RANDOM || kind == CUDA_MSM_SCALARS_BN254_ZERO_ONE;
    const uint32_t p_bls[DFR_LIMBS] = DFR_MODULUS, p_bn[DBN254_FR_LIMBS] = DBN254_FR_MODULUS;
    dfr_t one;
    msm_fr_one(&one, bn254);
    const uint32_t stride = gridDim.x * blockDim.x;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const uint64_t h = msm_mix64(seed + UINT64_C(0x9e3779b97f4a7c15) * (i + 1));
        dfr_t k;
        if (kind == CUDA_MSM_SCALARS_ZERO_ONE || kind == CUDA_MSM_SCALARS_BN254_ZERO_ONE) {
#pragma unroll
            for (int j = 0; j < DFR_LIMBS; j++)
                k.l[j] = (h >> 7) & 1u ? one.l[j] : 0u;
        } else {
#pragma unroll
            for (int j = 0; j < DFR_LIMBS / 2; j++) {
                const uint64_t x = msm_mix64(h + UINT64_C(0x632be59bd9b4e019) * (j + 1));
                k.l[2 * j] = (uint32_t)x;
                k.l[2 * j + 1] = (uint32_t)(x >> 32);
            }
            k.l[DFR_LIMBS - 1] &= bn254 ? 0x3fffffffu : 0x7fffffffu;
            uint32_t t[DFR_LIMBS], borrow = 0;
#pragma unroll
            for (int j = 0; j < DFR_LIMBS; j++) {
                const uint64_t d = (uint64_t)k.l[j] - (bn254 ? p_bn[j] : p_bls[j]) - borrow;
                t[j] = (uint32_t)d;
                borrow = (uint32_t)(d >> 63);
            }
#pragma unroll
            for (int j = 0; j < DFR_LIMBS; j++)
                k.l[j] = borrow ? k.l[j] : t[j];
        }
        dfr_store(out + i, &k);
    }
}

cuzk_status msm_scalars_fill(cuda_msm_ctx *ctx, void *scalars, size_t n, uint64_t seed, int kind,
                             cudaStream_t stream)
{
    cuzk_status st = CUZK_OK;
    MSM_LAUNCH(msm_fill_kernel, msm_grid(ctx, n, MSM_SCALAR_BLOCK), MSM_SCALAR_BLOCK, stream,
               (dfr_t *)scalars, (uint32_t)n, seed, kind);
    CUDA_CHECK_LAUNCH(st, "msm_fill_kernel");
    return st;
}
