/* The Pippenger half of the device MSM for one group: bucket accumulation,
 * the merge of cut buckets, bucket reduction and window combination, and
 * the host driver that runs them (steps 3–5 of msm_internal.cuh).
 *
 * A template: msm_g1.cu and msm_g2.cu include it once each, after defining
 *   EC(name)     the group's device point layer (dg1_##name, ec_impl.cuh)
 *   MSMK(name)   the names of this file's kernels and functions
 *   MSM_FE_T, MSM_FE_LOAD, MSM_FE_STORE, MSM_FE_IS_ZERO, MSM_FE_SET_ZERO
 *                the coordinate field
 *   MSM_REDUCE_ADD  the XYZZ addition of the level-1 reduction loop, inline
 *                or out of line, whichever spills less for the group
 * and the constant MSMK(group). Everything here is static or a kernel with
 * an MSMK name. */

#define AFF_T EC(aff_t)
#define XYZZ_T EC(xyzz_t)
#define JAC_T EC(jac_t)

/* ---- shared helpers ----------------------------------------------------- */

/* Σ of one XYZZ point per thread of the block (blockDim.x a power of two);
 * the sum is returned to thread 0. sm holds blockDim.x points. Called by
 * every thread of the block; ends with a barrier, so sm can be reused. */
static __device__ __forceinline__ void MSMK(block_sum)(XYZZ_T *sm, const XYZZ_T *v, XYZZ_T *out)
{
    const unsigned t = threadIdx.x;
    sm[t] = *v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) {
            XYZZ_T a = sm[t];
            const XYZZ_T b = sm[t + s];
            EC(xyzz_add)(&a, &b);
            sm[t] = a;
        }
        __syncthreads();
    }
    if (t == 0)
        *out = sm[0];
    __syncthreads();
}

/* The affine point of a sorted entry: point index, negated when bit 31. */
static __device__ __forceinline__ void MSMK(entry_point)(AFF_T *r, uint32_t entry,
                                                         const AFF_T *points)
{
    EC(aff_load)(r, points + (entry & ~MSM_NEG_BIT));
    if (entry & MSM_NEG_BIT)
        EC(aff_neg)(r, r);
}

/* Asks L2 for the lines of a point ahead of its use (no registers held). */
static __device__ __forceinline__ void MSMK(prefetch_point)(const AFF_T *p)
{
#if defined(__CUDA_ARCH__)
    const char *c = (const char *)p;
    for (unsigned off = 0; off < sizeof(AFF_T); off += 128)
        asm volatile("prefetch.L2 [%0];" ::"l"(c + off));
    asm volatile("prefetch.L2 [%0];" ::"l"(c + sizeof(AFF_T) - 1));
#else
    (void)p;
#endif
}

/* Sorted entries per chunk: K = max(ceil(nnz / T), MSM_ACC_MIN_CHUNK). */
static __device__ __forceinline__ uint32_t MSMK(chunk)(uint32_t nnz, uint32_t T)
{
    const uint32_t k = (uint32_t)(((uint64_t)nnz + T - 1) / T);
    return k < MSM_ACC_MIN_CHUNK ? MSM_ACC_MIN_CHUNK : k;
}

/* The bucket of sorted position pos: the first b < n_keys with off[b] > pos
 * (off holds bucket ends; pos < off[n_keys − 1] = the total). */
static __device__ __forceinline__ uint32_t MSMK(bucket_of)(const uint32_t *off, uint32_t n_keys,
                                                           uint32_t pos)
{
    uint32_t lo = 0, hi = n_keys - 1;
    while (lo < hi) {
        const uint32_t mid = (lo + hi) >> 1;
        if (off[mid] > pos)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* ---- kernels ------------------------------------------------------------- */

__global__ void MSMK(bucket_init)(XYZZ_T *buckets, uint32_t n)
{
    const uint32_t stride = gridDim.x * blockDim.x;
    MSM_FE_T zero;
    MSM_FE_SET_ZERO(&zero);
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        MSM_FE_STORE(&buckets[i].zz, &zero);
        MSM_FE_STORE(&buckets[i].zzz, &zero);
    }
}

/* Thread t sums the sorted entries [t·K, min((t+1)·K, nnz)) run by run (a
 * run: the entries of one bucket). A run that is the whole bucket goes to
 * buckets[]; one cut by the chunk's start to head[t]; one cut by its end
 * only to tail[t]. buckets points at the batch's first window. */
__global__ void __launch_bounds__(MSM_ACC_BLOCK)
    MSMK(accumulate)(XYZZ_T *buckets, XYZZ_T *head, XYZZ_T *tail, const uint32_t *off,
                     uint32_t n_keys, const uint32_t *vals, const AFF_T *points, uint32_t T)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= T)
        return;
    const uint32_t nnz = off[n_keys];
    const uint32_t K = MSMK(chunk)(nnz, T);
    if ((uint64_t)t * K >= nnz)
        return;
    const uint32_t start = t * K;
    const uint32_t end = start + min(K, nnz - start);

    uint32_t b = MSMK(bucket_of)(off, n_keys, start);
    uint32_t bbeg = b ? off[b - 1] : 0, bend = off[b];
    XYZZ_T acc;
    AFF_T q;
    MSMK(entry_point)(&q, vals[start], points);
    EC(xyzz_set_aff)(&acc, &q);
    if (start + 1 < end)
        MSMK(prefetch_point)(points + (vals[start + 1] & ~MSM_NEG_BIT));
    for (uint32_t pos = start + 1;; pos++) {
        if (pos == end || pos == bend) {
            /* The run of bucket b ends here. */
            XYZZ_T *dst = bbeg >= start && bend <= end ? &buckets[b]
                          : bbeg < start               ? &head[t]
                                                       : &tail[t];
            EC(xyzz_store)(dst, &acc);
            if (pos == end)
                break;
            do
                b++;
            while (off[b] <= pos);
            bbeg = pos;
            bend = off[b];
        }
        if (pos + 1 < end)
            MSMK(prefetch_point)(points + (vals[pos + 1] & ~MSM_NEG_BIT));
        MSMK(entry_point)(&q, vals[pos], points);
        if (pos == bbeg)
            EC(xyzz_set_aff)(&acc, &q);
        else
            EC(xyzz_madd)(&acc, &q);
    }
}

/* One warp per chunk c. The chunk whose last run starts in it and goes on
 * past its end owns that bucket: the sum of its tail piece and the head
 * pieces of the chunks after it, up to the one holding the bucket's last
 * entry. The lanes add the heads in a strided loop, then a shuffle tree. */
__global__ void MSMK(merge)(XYZZ_T *buckets, const XYZZ_T *head, const XYZZ_T *tail,
                            const uint32_t *off, uint32_t n_keys, uint32_t T)
{
    const uint32_t c = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const unsigned lane = threadIdx.x & 31u;
    if (c >= T) /* uniform across the warp */
        return;
    const uint32_t nnz = off[n_keys];
    const uint32_t K = MSMK(chunk)(nnz, T);
    if ((uint64_t)c * K >= nnz)
        return;
    const uint32_t start = c * K;
    const uint32_t end = start + min(K, nnz - start);
    const uint32_t b = MSMK(bucket_of)(off, n_keys, end - 1);
    const uint32_t bbeg = b ? off[b - 1] : 0, bend = off[b];
    if (bend <= end || bbeg < start)
        return;
    const uint32_t last = (bend - 1) / K;
    XYZZ_T acc;
    if (lane == 0)
        EC(xyzz_load)(&acc, &tail[c]);
    else
        EC(xyzz_set_inf)(&acc);
    for (uint32_t j = c + 1 + lane; j <= last; j += 32) {
        XYZZ_T h;
        EC(xyzz_load)(&h, &head[j]);
        EC(xyzz_add)(&acc, &h);
    }
    for (unsigned d = 16; d > 0; d >>= 1) {
        XYZZ_T o;
        EC(xyzz_shfl_down)(&o, &acc, d);
        if (lane < d)
            EC(xyzz_add)(&acc, &o);
    }
    if (lane == 0)
        EC(xyzz_store)(&buckets[b], &acc);
}

/* Level 1: thread t over buckets [t·L, t·L + L) of the windows laid end to
 * end (S·L = M, so a segment never crosses a window): acc = Σ_j (j+1)·B,
 * j the bucket's place in the segment, and run = Σ B, by the running sum
 * from the top. */
__global__ void MSMK(reduce_segments)(const XYZZ_T *buckets, XYZZ_T *seg_acc, XYZZ_T *seg_run,
                                      uint32_t L, uint32_t total)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= total)
        return;
    XYZZ_T run, acc;
    MSM_FE_T zz;
    EC(xyzz_set_inf)(&run);
    EC(xyzz_set_inf)(&acc);
    const XYZZ_T *seg = buckets + (size_t)t * L;
    for (uint32_t j = L; j-- > 0;) {
        MSM_FE_LOAD(&zz, &seg[j].zz); /* empty buckets cost one load */
        if (!MSM_FE_IS_ZERO(&zz))
            MSM_REDUCE_ADD(&run, &seg[j]);
        MSM_REDUCE_ADD(&acc, &run);
    }
    EC(xyzz_store)(&seg_acc[t], &acc);
    EC(xyzz_store)(&seg_run[t], &run);
}

/* Level 2, block w for window w, B = blockDim.x threads, thread t over
 * segments s ∈ [t·L2, t·L2 + L2). With W = Σ_s acc_s + L·Σ_s s·run_s:
 *   Σ_s s·run_s = Σ_t loc_t + L2·Σ_t t·run_t,  loc_t = Σ_s (s − t·L2)·run_s,
 * so W = Σ_t (A_t + L·loc_t) + L·L2·Σ_t t·run_t (A_t = Σ_s acc_s, run_t =
 * Σ_s run_s). Σ_t t·run_t = Σ_{t≥1} U_t for the suffix sums U_t = Σ_{t'≥t}
 * run_t', by a scan in shared memory. */
__global__ void __launch_bounds__(MSM_RED_BLOCK)
    MSMK(reduce_windows)(const XYZZ_T *seg_acc, const XYZZ_T *seg_run, XYZZ_T *wins, uint32_t S,
                         uint32_t L2, unsigned log_l, unsigned log_l2)
{
    __shared__ XYZZ_T sm[MSM_RED_BLOCK];
    const unsigned t = threadIdx.x, B = blockDim.x;
    const size_t base = (size_t)blockIdx.x * S + (size_t)t * L2;
    XYZZ_T x, run, loc;

    EC(xyzz_set_inf)(&run);
    EC(xyzz_set_inf)(&loc);
    for (uint32_t i = L2 - 1; i > 0; i--) {
        EC(xyzz_load)(&x, &seg_run[base + i]);
        EC(xyzz_add)(&run, &x);
        EC(xyzz_add)(&loc, &run);
    }
    EC(xyzz_load)(&x, &seg_run[base]);
    EC(xyzz_add)(&run, &x);
    for (unsigned k = 0; k < log_l; k++)
        EC(xyzz_dbl)(&loc, &loc);
    for (uint32_t i = 0; i < L2; i++) {
        EC(xyzz_load)(&x, &seg_acc[base + i]);
        EC(xyzz_add)(&loc, &x);
    }
    XYZZ_T ysum; /* thread 0: Σ_t (A_t + L·loc_t) */
    MSMK(block_sum)(sm, &loc, &ysum);

    /* Inclusive suffix scan (Hillis–Steele) of run_t. */
    sm[t] = run;
    __syncthreads();
    for (unsigned d = 1; d < B; d <<= 1) {
        const bool has = t + d < B;
        if (has)
            x = sm[t + d];
        __syncthreads();
        if (has) {
            EC(xyzz_add)(&run, &x);
            sm[t] = run;
        }
        __syncthreads();
    }
    if (t == 0)
        EC(xyzz_set_inf)(&run);
    XYZZ_T tsum; /* thread 0: Σ_t t·run_t */
    MSMK(block_sum)(sm, &run, &tsum);
    if (t == 0) {
        for (unsigned k = 0; k < log_l + log_l2; k++)
            EC(xyzz_dbl)(&tsum, &tsum);
        EC(xyzz_add)(&tsum, &ysum);
        EC(xyzz_store)(&wins[blockIdx.x], &tsum);
    }
}

/* One thread: Σ_w 2^(c·w)·W_w by Horner's rule from the top window, in
 * Jacobian form (its doubling is the cheapest), plus ones when given. */
__global__ void MSMK(combine)(const XYZZ_T *wins, unsigned nwin, unsigned c, const XYZZ_T *ones,
                              JAC_T *result)
{
    if (blockIdx.x != 0 || threadIdx.x != 0)
        return;
    JAC_T acc, j;
    XYZZ_T w;
    EC(jac_set_inf)(&acc);
    for (unsigned k = nwin; k-- > 0;) {
        if (!EC(jac_is_inf)(&acc))
            for (unsigned i = 0; i < c; i++)
                EC(jac_dbl)(&acc, &acc);
        EC(xyzz_load)(&w, &wins[k]);
        EC(xyzz_to_jac)(&j, &w);
        EC(jac_add)(&acc, &j);
    }
    if (ones) {
        EC(xyzz_load)(&w, ones);
        EC(xyzz_to_jac)(&j, &w);
        EC(jac_add)(&acc, &j);
    }
    if (EC(jac_is_inf)(&acc))
        EC(jac_set_inf)(&acc);
    *result = acc;
}

__global__ void MSMK(set_inf_kernel)(JAC_T *result)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        JAC_T r;
        EC(jac_set_inf)(&r);
        *result = r;
    }
}

/* ---- host driver --------------------------------------------------------- */

static cuzk_status MSMK(pippenger)(cuda_msm_ctx *ctx, const msm_plan *pl, const void *points,
                                   const uint32_t *pidx, size_t n_upper, bool with_ones,
                                   cudaStream_t stream)
{
    cuzk_status st = CUZK_OK;
    const cuda_msm_group g = MSMK(group);
    const uint32_t T = ctx->acc_threads[g];
    const uint32_t n_buckets = pl->nwin * pl->M;
    XYZZ_T *buckets = (XYZZ_T *)ctx->buckets;
    XYZZ_T *head = (XYZZ_T *)ctx->pieces, *tail = head + T;
    XYZZ_T *seg_acc = (XYZZ_T *)ctx->segs, *seg_run = seg_acc + (size_t)pl->nwin * pl->S;
    XYZZ_T *wins = (XYZZ_T *)ctx->wins;
    if ((size_t)n_buckets * sizeof(XYZZ_T) > ctx->cap_bucket_bytes ||
        2 * (size_t)pl->nwin * pl->S * sizeof(XYZZ_T) > ctx->cap_seg_bytes ||
        (size_t)pl->nwin * sizeof(XYZZ_T) > ctx->cap_win_bytes)
        return CUZK_ERR_INTERNAL;

    MSM_LAUNCH(MSMK(bucket_init), msm_grid(ctx, n_buckets, 256), 256, stream, buckets, n_buckets);
    CUDA_CHECK_LAUNCH(st, "bucket_init");
    for (unsigned bt = 0; bt < pl->nbatch && st == CUZK_OK; bt++) {
        const unsigned w_lo = bt * pl->nwin / pl->nbatch, w_hi = (bt + 1) * pl->nwin / pl->nbatch;
        const uint32_t n_keys = (w_hi - w_lo) * pl->M;
        st = msm_sort_batch(ctx, pl, w_lo, w_hi, pidx, n_upper, stream);
        if (st != CUZK_OK)
            break;
        MSM_LAUNCH(MSMK(accumulate), (T + MSM_ACC_BLOCK - 1) / MSM_ACC_BLOCK, MSM_ACC_BLOCK, stream,
                   buckets + (size_t)w_lo * pl->M, head, tail, ctx->off, n_keys, ctx->vals,
                   (const AFF_T *)points, T);
        CUDA_CHECK_LAUNCH(st, "accumulate");
        MSM_LAUNCH(MSMK(merge), (T + 7) / 8, 256, stream, buckets + (size_t)w_lo * pl->M, head,
                   tail, ctx->off, n_keys, T);
        CUDA_CHECK_LAUNCH(st, "merge");
    }
    const uint32_t total = pl->nwin * pl->S;
    MSM_LAUNCH(MSMK(reduce_segments), (total + 127) / 128, 128, stream, buckets, seg_acc, seg_run,
               pl->L, total);
    CUDA_CHECK_LAUNCH(st, "reduce_segments");
    MSM_LAUNCH(MSMK(reduce_windows), pl->nwin, pl->B, stream, seg_acc, seg_run, wins, pl->S, pl->L2,
               pl->log_l, pl->log_l2);
    CUDA_CHECK_LAUNCH(st, "reduce_windows");
    MSM_LAUNCH(MSMK(combine), 1, 1, stream, wins, pl->nwin, pl->c,
               with_ones ? (const XYZZ_T *)ctx->ones : (const XYZZ_T *)NULL, (JAC_T *)ctx->result);
    CUDA_CHECK_LAUNCH(st, "combine");
    return st;
}

static cuzk_status MSMK(set_infinity)(cuda_msm_ctx *ctx, cudaStream_t stream)
{
    cuzk_status st = CUZK_OK;
    MSM_LAUNCH(MSMK(set_inf_kernel), 1, 1, stream, (JAC_T *)ctx->result);
    CUDA_CHECK_LAUNCH(st, "set_inf_kernel");
    return st;
}
