/* The GPU fixed-base products of one group (fixed_base.h says how), written
 * once for G1 and G2. A template: fixed_base_g1.cu / fixed_base_g2.cu
 * include the group's curve code (ec_g1.cuh, ec_g2.cuh) and define first
 *   EC(name)        the group's device point layer (dg1_##name)
 *   FBK(name)       the names of this group's kernels and host functions
 *   FB_FE_T         the coordinate field (dfp_t, dfp2_t)
 *   FB_FE_MUL, FB_FE_SQR, FB_FE_INV, FB_FE_IS_ZERO, FB_FE_SET_ONE
 *   FB_HOST_AFF_BYTES   sizeof(g1_affine_t), sizeof(g2_affine_t)
 * and get FBK(mul), the host driver (fixed_base_internal.cuh). */

#include <stdint.h>

#include "cuda/cuda_check.h"
#include "cuda/ff_fr.cuh"
#include "cuda/fixed_base_internal.cuh"

#define FB_AFF_T EC(aff_t)
#define FB_XYZZ_T EC(xyzz_t)
#define FB_FE_BYTES sizeof(FB_FE_T)
static_assert(sizeof(FB_AFF_T) == 2 * FB_FE_BYTES, "device affine is not x, y");
static_assert(FB_HOST_AFF_BYTES == 2 * FB_FE_BYTES + 8, "host affine is not x, y, bool");

/* ---- the table ------------------------------------------------------------- */

/* r = [k]·p for a k of `bits` bits, by double-and-add from the top. */
static __device__ void FBK(mul_bits)(FB_XYZZ_T *r, const FB_AFF_T *p, const uint32_t *k,
                                     unsigned bits)
{
    EC(xyzz_set_inf)(r);
    for (int bit = (int)bits - 1; bit >= 0; bit--) {
        EC(xyzz_dbl)(r, r);
        if ((k[bit >> 5] >> (bit & 31)) & 1u)
            EC(xyzz_madd)(r, p);
    }
}

/* One thread: steps[k] = 2^(w·k)·G for every window k, affine (G from the
 * host layout). Doublings from the previous step: w per window. */
__global__ void FBK(steps_kernel)(FB_AFF_T *steps, const uint32_t *base_host)
{
    if (blockIdx.x != 0 || threadIdx.x != 0)
        return;
    const uint32_t fe_words = FB_FE_BYTES / 4;
    FB_AFF_T g;
    uint32_t *x = (uint32_t *)&g.x, *y = (uint32_t *)&g.y;
    for (uint32_t k = 0; k < fe_words; k++) {
        x[k] = base_host[k];
        y[k] = base_host[fe_words + k];
    }
    FB_XYZZ_T r;
    EC(xyzz_set_aff)(&r, &g);
    for (unsigned k = 0; k < FB_WINDOWS; k++) {
        EC(xyzz_to_aff)(&steps[k], &r);
        for (unsigned i = 0; i < FB_WINDOW; i++)
            EC(xyzz_dbl)(&r, &r);
    }
}

/* table[k·(2^w − 1) + d − 1] = d·steps[k], one thread an entry; each makes
 * its own point affine (a Fermat inversion: 1M of them, once a call). */
__global__ void FBK(table_kernel)(FB_AFF_T *table, const FB_AFF_T *steps)
{
    const uint32_t per = FB_DIGITS - 1, total = per * FB_WINDOWS;
    const uint32_t stride = gridDim.x * blockDim.x;
    for (uint32_t e = blockIdx.x * blockDim.x + threadIdx.x; e < total; e += stride) {
        const uint32_t k = e / per, d = e % per + 1;
        FB_AFF_T step = steps[k], p;
        FB_XYZZ_T r;
        FBK(mul_bits)(&r, &step, &d, FB_WINDOW);
        EC(xyzz_to_aff)(&p, &r);
        EC(aff_store)(table + e, &p);
    }
}

/* ---- the products ------------------------------------------------------------ */

/* sums[i] = scalars[i]·G for i < n: the scalar's 16-bit digits (from its
 * integer value) pick one table point per window, added in XYZZ. The sum
 * never meets the point it adds or its negative (the partial scalar is
 * below 2^(16k), the added d·2^(16k) is not, and both stay below r), and
 * the addition handles those cases anyway. */
__global__ void FBK(mul_kernel)(FB_XYZZ_T *sums, const dfr_t *scalars, const FB_AFF_T *table,
                                uint32_t n)
{
    const uint32_t stride = gridDim.x * blockDim.x, per = FB_DIGITS - 1;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        dfr_t k;
        dfr_load(&k, scalars + i);
        dfr_to_canonical(&k);
        FB_XYZZ_T acc;
        EC(xyzz_set_inf)(&acc);
        for (unsigned w = 0; w < FB_WINDOWS; w++) {
            const uint32_t d = (k.l[w / 2] >> (16 * (w % 2))) & 0xffffu;
            if (!d)
                continue;
            FB_AFF_T p;
            EC(aff_load)(&p, table + w * per + d - 1);
            EC(xyzz_madd)(&acc, &p);
        }
        sums[i] = acc;
    }
}

/* One field element written as 32-bit words into the host layout. */
static __device__ __forceinline__ void FBK(put_words)(uint32_t *dst, const FB_FE_T *a)
{
    const uint32_t *s = (const uint32_t *)a;
    for (uint32_t k = 0; k < FB_FE_BYTES / 4; k++)
        dst[k] = s[k];
}

/* out (host layout) = sums made affine. Thread t of T takes the points t,
 * t + T, t + 2T, ... < n (coalesced) and inverts their ZZZs together
 * (Montgomery's trick): prefix[j] holds the product of the ZZZs before
 * point j of the run, so one Fermat inversion of the whole product gives
 * each 1/ZZZ on the way back. Then 1/ZZ = (ZZ/ZZZ)² (ZZ³ = ZZZ²), x =
 * X/ZZ, y = Y/ZZZ. Infinity (ZZ = 0) is skipped in the product and written
 * as the CPU writes it: x = y = 0 and the flag set. */
__global__ void FBK(affine_kernel)(uint32_t *out, FB_FE_T *prefix, const FB_XYZZ_T *sums,
                                   uint32_t n, uint32_t T)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= T)
        return;
    const uint32_t words = FB_HOST_AFF_BYTES / 4, fe_words = FB_FE_BYTES / 4;
    FB_FE_T acc;
    FB_FE_SET_ONE(&acc);
    for (uint32_t i = t; i < n; i += T) {
        prefix[i] = acc;
        const FB_FE_T zzz = sums[i].zzz;
        if (!FB_FE_IS_ZERO(&sums[i].zz))
            FB_FE_MUL(&acc, &acc, &zzz);
    }
    FB_FE_T inv;
    FB_FE_INV(&inv, &acc);
    if (t >= n)
        return;
    const uint32_t last = t + (n - 1 - t) / T * T;
    for (uint32_t i = last;; i -= T) {
        const FB_XYZZ_T s = sums[i];
        uint32_t *d = out + (size_t)i * words;
        if (FB_FE_IS_ZERO(&s.zz)) {
            for (uint32_t k = 0; k < 2 * fe_words; k++)
                d[k] = 0;
            d[2 * fe_words] = 1; /* the bool, then zero padding */
            d[2 * fe_words + 1] = 0;
        } else {
            FB_FE_T zzz_inv, zz_inv, x, y;
            FB_FE_MUL(&zzz_inv, &inv, &prefix[i]);
            FB_FE_MUL(&inv, &inv, &s.zzz);
            FB_FE_MUL(&zz_inv, &zzz_inv, &s.zz);
            FB_FE_SQR(&zz_inv, &zz_inv);
            FB_FE_MUL(&x, &s.x, &zz_inv);
            FB_FE_MUL(&y, &s.y, &zzz_inv);
            FBK(put_words)(d, &x);
            FBK(put_words)(d + fe_words, &y);
            d[2 * fe_words] = 0;
            d[2 * fe_words + 1] = 0;
        }
        if (i < T)
            break;
    }
}

/* ---- the host driver ------------------------------------------------------------ */

/* Device buffers of one call: the table, and per chunk the scalars, the
 * sums, the prefix products, and two host-layout outputs (one being copied
 * back while the next is computed). */
typedef struct FBK(bufs) {
    FB_AFF_T *steps, *table;
    dfr_t *scalars;
    FB_XYZZ_T *sums;
    FB_FE_T *prefix;
    uint32_t *out[2];
} FBK(bufs);

static void FBK(bufs_free)(FBK(bufs) * b)
{
    void *all[] = {b->steps, b->table, b->scalars, b->sums, b->prefix, b->out[0], b->out[1]};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        if (all[i])
            (void)cudaFree(all[i]);
}

cuzk_status FBK(mul)(const void *host_base, void *out, const void *scalars, size_t n,
                     cudaStream_t compute, cudaStream_t copy, cudaEvent_t done[2])
{
    cuzk_status st = CUZK_OK;
    const size_t chunk = n < CUDA_FIXED_BASE_CHUNK ? n : CUDA_FIXED_BASE_CHUNK;
    const size_t entries = (size_t)(FB_DIGITS - 1) * FB_WINDOWS;
    FBK(bufs) b;
    memset(&b, 0, sizeof(b));
    uint32_t *base = NULL;
    CUDA_CHECK(st, cudaMalloc((void **)&base, FB_HOST_AFF_BYTES));
    CUDA_CHECK(st, cudaMalloc((void **)&b.steps, FB_WINDOWS * sizeof(FB_AFF_T)));
    CUDA_CHECK(st, cudaMalloc((void **)&b.table, entries * sizeof(FB_AFF_T)));
    CUDA_CHECK(st, cudaMalloc((void **)&b.scalars, chunk * sizeof(dfr_t)));
    CUDA_CHECK(st, cudaMalloc((void **)&b.sums, chunk * sizeof(FB_XYZZ_T)));
    CUDA_CHECK(st, cudaMalloc((void **)&b.prefix, chunk * sizeof(FB_FE_T)));
    for (int k = 0; k < 2; k++)
        CUDA_CHECK(st, cudaMalloc((void **)&b.out[k], chunk * FB_HOST_AFF_BYTES));
    CUDA_CHECK(
        st, cudaMemcpyAsync(base, host_base, FB_HOST_AFF_BYTES, cudaMemcpyHostToDevice, compute));
    if (st == CUZK_OK) {
        FBK(steps_kernel)<<<1, 1, 0, compute>>>(b.steps, base);
        CUDA_CHECK_LAUNCH(st, "steps_kernel");
    }
    if (st == CUZK_OK) {
        FBK(table_kernel)<<<(unsigned)((entries + 127) / 128), 128, 0, compute>>>(b.table, b.steps);
        CUDA_CHECK_LAUNCH(st, "table_kernel");
    }
    /* Chunk c's kernels run on `compute` into out[c % 2]; its copy back runs
     * on `copy` after done[c % 2], while the host has already queued chunk
     * c + 1 (the copy into pageable memory is synchronous for the host, so
     * it is issued after the next chunk's kernels). */
    const size_t chunks = (n + chunk - 1) / (chunk ? chunk : 1);
    for (size_t c = 0; c <= chunks && st == CUZK_OK; c++) {
        if (c < chunks) {
            const size_t off = c * chunk, cnt = n - off < chunk ? n - off : chunk;
            CUDA_CHECK(st, cudaMemcpyAsync(b.scalars, (const char *)scalars + off * sizeof(dfr_t),
                                           cnt * sizeof(dfr_t), cudaMemcpyHostToDevice, compute));
            if (st == CUZK_OK) {
                FBK(mul_kernel)<<<(unsigned)((cnt + 255) / 256), 256, 0, compute>>>(
                    b.sums, b.scalars, b.table, (uint32_t)cnt);
                CUDA_CHECK_LAUNCH(st, "mul_kernel");
            }
            /* Runs of about FB_RUN points per thread for the inversion. */
            const uint32_t T = (uint32_t)((cnt + FB_RUN - 1) / FB_RUN);
            if (st == CUZK_OK) {
                FBK(affine_kernel)<<<(T + 127) / 128, 128, 0, compute>>>(b.out[c % 2], b.prefix,
                                                                         b.sums, (uint32_t)cnt, T);
                CUDA_CHECK_LAUNCH(st, "affine_kernel");
            }
            CUDA_CHECK(st, cudaEventRecord(done[c % 2], compute));
        }
        if (c > 0) {
            const size_t p = c - 1, off = p * chunk, cnt = n - off < chunk ? n - off : chunk;
            CUDA_CHECK(st, cudaStreamWaitEvent(copy, done[p % 2], 0));
            CUDA_CHECK(st, cudaMemcpyAsync((char *)out + off * FB_HOST_AFF_BYTES, b.out[p % 2],
                                           cnt * FB_HOST_AFF_BYTES, cudaMemcpyDeviceToHost, copy));
            /* out[p % 2] is written again by chunk p + 2: the host waits
             * for this copy before it queues that chunk. */
            CUDA_CHECK(st, cudaStreamSynchronize(copy));
        }
    }
    CUDA_CHECK(st, cudaStreamSynchronize(compute));
    CUDA_CHECK(st, cudaStreamSynchronize(copy));
    if (st != CUZK_OK) { /* drain whatever was queued before freeing */
        (void)cudaStreamSynchronize(compute);
        (void)cudaStreamSynchronize(copy);
    }
    if (base)
        (void)cudaFree(base);
    FBK(bufs_free)(&b);
    return st;
}

#undef FB_AFF_T
#undef FB_XYZZ_T
#undef FB_FE_BYTES
