#ifndef CUZK_CUDA_MSM_INTERNAL_CUH
#define CUZK_CUDA_MSM_INTERNAL_CUH

/* Inside the device MSM (msm.h): the context, the plan of one run, and the
 * interface between the group-independent part (msm_ctx.cu: API, scratch;
 * msm_scalars.cu: scalar preparation and the bucket sort) and the group
 * part (msm_group.cuh and its three templates, instantiated by the
 * msm_g1_*.cu and msm_g2_*.cu files).
 *
 * One run, for n scalars and window size c (nwin = ceil(256/c) windows of
 * M = 2^(c−1) buckets):
 *   1. scalars → canonical integers (plain), or classified (split): zeros
 *      dropped, the points of ones listed, the rest compacted with their
 *      point indices; the split reads the count of Pippenger entries
 *      back (one small copy and a wait) and plans the window size for it;
 *   2. the points of the ones summed by a tree of additions (split);
 *   3. windows in batches: for each, every scalar's signed digits are
 *      recoded and the nonzero ones counting-sorted by (window, bucket)
 *      into `vals` (point index, sign in bit 31); bucket b of the batch
 *      ends at off[b];
 *   4. accumulation: the sorted entries are cut into equal chunks, one per
 *      thread; each thread sums its runs into XYZZ buckets; a run cut by a
 *      chunk boundary is left as a piece (head: the chunk's first run,
 *      tail: its last), and a merge pass adds the pieces of each such
 *      bucket;
 *   5. bucket reduction Σ_j (j+1)·B_j per window (segments of L buckets
 *      by running sums, parts of segments, then one block per window),
 *      which leaves each window's sum as a pair (Y, T), W = Y + 2^k·T;
 *   6. the pairs (and the ones' sum) copied to page-locked host memory,
 *      and a stream-ordered host function makes each W and combines them
 *      by Horner's rule into the caller's result (msm_combine.c): chains
 *      of dependent doublings, which one GPU thread runs a hundred times
 *      slower.
 * Apart from that one count, every count that depends on the scalars
 * (entries, ones, chunk sizes) is read on the device. Why the read-back:
 * witness scalars are 99 % zeros and ones, so the Pippenger runs over a
 * hundredth of n; a window planned for n (c = 20 at 2^27: 13 windows of
 * 2^19 buckets to clear, sort and reduce) cost the witness MSMs more than
 * their additions did. */

#include <cuda_runtime.h>
#include <stdbool.h>
#include <stdint.h>

#include "cuda/cuda_check.h"
#include "cuda/msm.h"

/* Launches a kernel on a stream (a macro so that the host-side emulation of
 * the kernels, used to check this code without a GPU, can run them). */
#ifndef MSM_LAUNCH
#define MSM_LAUNCH(kernel, grid, block, stream, ...)                                               \
    kernel<<<(grid), (block), 0, (stream)>>>(__VA_ARGS__)
#endif

/* Threads per block of the grid-stride kernels over scalars. */
#define MSM_SCALAR_BLOCK 256
/* Threads per block of the accumulation and the ones sum. */
#define MSM_ACC_BLOCK 128
#define MSM_ONES_BLOCK 128
/* Cut buckets spanning up to this many chunks after their owner's are
 * merged by one thread each (msm_merge_short), longer ones by a warp. */
#define MSM_MERGE_SERIAL 4u
/* The smallest chunk of sorted entries one accumulation thread takes. */
#define MSM_ACC_MIN_CHUNK 8u
/* Bucket reduction: a window's buckets are cut into S ≤ MSM_SEG_MAX
 * segments of L buckets (level 1); when S ≥ MSM_RED_PART·MSM_RED_BLOCK,
 * runs of MSM_RED_PART segments are folded into P = S / MSM_RED_PART parts
 * (level 1.5), else P = S; level 2 runs one block of B = min(P,
 * MSM_RED_BLOCK) threads per window, each over L2 = P / B of them. Level 2
 * is one block per window, so its chain of dependent additions sets its
 * time: level 1.5 cuts it from about 80 additions to about 45 at S = 2048. */
#define MSM_RED_BLOCK 128u
#define MSM_SEG_MAX 2048u
#define MSM_RED_PART 4u
#define MSM_LOG_RED_PART 2u
/* Bit 31 of an entry: the digit is negative (add −P). */
#define MSM_NEG_BIT 0x80000000u

struct cuda_msm_points {
    cuda_msm_group group;
    int device;
    size_t n;
    size_t capacity; /* cuda_msm_points_alloc's; 0 for the other handles (n fixed) */
    void *d;         /* n device affine points (ec_impl.cuh's form) */
    bool borrowed;   /* d is another handle's memory (cuda_msm_points_view): not freed */
};

struct cuda_msm_density {
    int device;
    size_t n_bits, count;
    uint64_t *bits;   /* device: ceil(n_bits / 64) words */
    uint32_t *prefix; /* device: set bits before each word */
};

/* One run's shape. Windows [b·nwin/nbatch, (b+1)·nwin/nbatch) form batch b. */
typedef struct msm_plan {
    unsigned c, nwin, nbatch, wb_max; /* wb_max: windows in the largest batch */
    uint32_t M;                       /* buckets per window, 2^(c−1) */
    uint32_t S, L, P, B, L2;          /* reduction shape, see MSM_SEG_MAX */
    unsigned log_l, log_part, log_l2; /* log_part: 0 when P = S */
} msm_plan;

struct cuda_msm_ctx {
    int device, sm_count;
    cudaStream_t stream; /* the context's own */
    cudaEvent_t done;    /* recorded at the end of every call */
    cudaEvent_t counted; /* recorded after the split's count is copied back */
    bool done_recorded;
    cudaStream_t last; /* the stream of the last call */
    size_t max_n[CUDA_MSM_GROUP_COUNT], max_n_all;
    unsigned force_c[CUDA_MSM_GROUP_COUNT];
    size_t batch_entries;
    unsigned acc_threads[CUDA_MSM_GROUP_COUNT]; /* accumulation chunks (threads) */
    unsigned ones_blocks[CUDA_MSM_GROUP_COUNT];
    /* capacities */
    size_t cap_bucket_bytes, cap_keys, cap_seg_bytes, cap_win_bytes, cap_cub_bytes;
    size_t device_bytes;
    /* scratch (device) */
    uint32_t *stage;  /* max_n_all scalars copied from the host */
    uint32_t *canon;  /* max_n_all canonical scalars, 8 words each */
    uint32_t *pidx;   /* max_n_all point indices of the compacted scalars */
    uint32_t *counts; /* [0]: Pippenger entries, [1]: ones */
    uint32_t *vals;   /* batch_entries sorted entries; before them, the ones list */
    uint32_t *off;    /* cap_keys: bucket counts, then ends */
    void *buckets, *pieces, *segs, *wins, *partials, *ones, *result;
    void *cub_temp;
    /* page-locked host: the windows' pairs, then the ones' sum (step 6) */
    void *host_wins;
    /* page-locked host: counts, read back after the split's classification */
    uint32_t *host_counts;
};

/* The group-specific half, one table per group (msm_g1_points.cu, msm_g2_points.cu). */
typedef struct msm_group_ops {
    size_t aff_bytes, xyzz_bytes, jac_bytes, host_aff_bytes;
    unsigned max_auto_c; /* the largest window the context picks itself */
    double bucket_cost;  /* reduction cost per bucket in mixed additions */
    /* Accumulation threads and ones-sum blocks that fill the device. */
    cuzk_status (*geometry)(int sm_count, unsigned *acc_threads, unsigned *ones_blocks);
    /* Steps 3–5 into ctx->wins (pl->nwin pairs of XYZZ points, see step
     * 5). pidx: NULL for entry i = point i. flags: MSM_PIP_*. */
    cuzk_status (*pippenger)(cuda_msm_ctx *ctx, const msm_plan *pl, const void *points,
                             const uint32_t *pidx, size_t n_upper, unsigned flags,
                             cudaStream_t stream);
    /* Step 2: ctx->ones = Σ points[vals[i]] over i < counts[1]. */
    cuzk_status (*ones_sum)(cuda_msm_ctx *ctx, const void *points, size_t n_upper,
                            cudaStream_t stream);
    /* ctx->result = infinity. */
    cuzk_status (*set_infinity)(cuda_msm_ctx *ctx, cudaStream_t stream);
    /* Host layout (already on the device) <-> device affine points. */
    cuzk_status (*from_host)(void *points, const void *host_layout, size_t n, cudaStream_t stream);
    cuzk_status (*to_host)(void *host_layout, const void *points, size_t n, cudaStream_t stream);
    /* points[i] = [a + i·d]·base; ad: a, d as eight 64-bit words (device);
     * base: one host-layout affine point (device); work: scratch of
     * 4 affine points. */
    cuzk_status (*generate)(void *points, const void *base, const uint64_t *ad, void *work,
                            size_t n, cudaStream_t stream);
    /* *first_bad = min(*first_bad, the smallest i < n whose point is not in
     * the order-r subgroup); consts: the endomorphism's constants (device,
     * endo_bytes). */
    cuzk_status (*subgroup)(const void *points, size_t n, const void *consts,
                            unsigned long long *first_bad, cudaStream_t stream);
    size_t endo_bytes;
    /* Every bucket of pl's windows set to infinity (a chunked MSM's start). */
    cuzk_status (*clear)(cuda_msm_ctx *ctx, const msm_plan *pl, cudaStream_t stream);
} msm_group_ops;

/* Pippenger's flags. MSM_PIP_ADD: each bucket's sum is added to what the
 * bucket holds (an empty bucket keeps it) instead of replacing it;
 * MSM_PIP_NO_REDUCE: steps 3 and 4 only; MSM_PIP_REDUCE_ONLY: step 5
 * only. A chunked MSM runs ADD | NO_REDUCE per chunk, then REDUCE_ONLY. */
#define MSM_PIP_ADD 1u
#define MSM_PIP_NO_REDUCE 2u
#define MSM_PIP_REDUCE_ONLY 4u

extern const msm_group_ops msm_g1_ops;
extern const msm_group_ops msm_g2_ops;
extern const msm_group_ops msm_bn254_g1_ops;
extern const msm_group_ops msm_bn254_g2_ops;

/* The table of a group (msm_ctx.cu); NULL for a value outside the enum. */
const msm_group_ops *msm_group_ops_of(cuda_msm_group g);

/* Whether the group's scalars are BN254's Fr (else BLS12-381's). */
static inline bool msm_group_bn254(cuda_msm_group g)
{
    return g == CUDA_MSM_BN254_G1 || g == CUDA_MSM_BN254_G2;
}

/* ---- msm_points.cu ------------------------------------------------------ */

/* A handle over owner's device memory holding up to `capacity` points of
 * `group` (which may differ from owner's: a streamer's G1 and G2 chunk
 * buffers share their bytes, since one MSM runs at a time). Freeing it
 * frees the handle only; owner must outlive it. */
cuzk_status msm_points_view(const cuda_msm_points *owner, cuda_msm_group group, size_t capacity,
                            cuda_msm_points **out);

/* ---- msm_scalars.cu ---------------------------------------------------- */

/* Blocks for a grid-stride kernel over n items. */
unsigned msm_grid(const cuda_msm_ctx *ctx, size_t n, unsigned block);

/* ctx->canon[i] = the integer of scalars[i] (Montgomery form in, device
 * memory, in Fr of BN254 when bn254, else of BLS12-381), i < n;
 * counts = {n, 0}. */
cuzk_status msm_scalars_canonical(cuda_msm_ctx *ctx, bool bn254, const void *scalars, size_t n,
                                  cudaStream_t stream);

/* The split: over the n scalars (device memory; with density, variable i
 * has a point iff its bit is set, point index = set bits before it), the
 * ones' point indices go to ctx->vals (count in counts[1]), the others'
 * integers to ctx->canon and point indices to ctx->pidx (count in
 * counts[0]), in no particular order. */
cuzk_status msm_scalars_classify(cuda_msm_ctx *ctx, bool bn254, const void *scalars, size_t n,
                                 const struct cuda_msm_density *density, cudaStream_t stream);

/* Step 3 for windows [w_lo, w_hi): counting sort of the nonzero digits of
 * the counts[0] entries of ctx->canon into ctx->vals, bucket ends in
 * ctx->off[0 .. (w_hi − w_lo)·M), the total at off[(w_hi − w_lo)·M].
 * n_upper bounds counts[0] (for the grid size). */
cuzk_status msm_sort_batch(cuda_msm_ctx *ctx, const msm_plan *pl, unsigned w_lo, unsigned w_hi,
                           const uint32_t *pidx, size_t n_upper, cudaStream_t stream);

/* Temporary storage the scan of n_keys bucket counts needs. */
cuzk_status msm_scan_bytes(size_t n_keys, size_t *bytes);

/* ---- msm_ctx.cu: a plain MSM over chunks of points ------------------------ */

/* For points that reach the device in chunks (msm_stream.cu): one window
 * size for the whole n_total (as large as the context's scratch allows, at
 * most the one n_total would get), the buckets cleared once, each chunk's
 * digits sorted and added into them, one reduction and one combination at
 * the end. Chunks of at most max_n scalars; every call on the context's
 * stream, in order: begin, add per chunk, end (which records ctx->done as
 * an MSM does). *c: the window size, for the calls after begin. */
cuzk_status msm_chunked_begin(cuda_msm_ctx *ctx, cuda_msm_group g, size_t n_total, size_t chunk,
                              unsigned *c);
cuzk_status msm_chunked_add(cuda_msm_ctx *ctx, cuda_msm_group g, unsigned c,
                            const cuda_msm_points *points, const void *d_scalars, size_t n);
cuzk_status msm_chunked_end(cuda_msm_ctx *ctx, cuda_msm_group g, unsigned c, void *out);

/* Scalars for tests and benchmarks (msm.h). */
cuzk_status msm_scalars_fill(cuda_msm_ctx *ctx, void *scalars, size_t n, uint64_t seed, int kind,
                             cudaStream_t stream);

#endif
