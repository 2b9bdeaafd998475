/* Step 5 of the device MSM for one group (msm_internal.cuh): bucket
 * reduction in two levels into one sum per window, and the host driver of
 * steps 3–5. A template for msm_gN_reduce.cu (msm_group.cuh). */

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

/* Level 1.5, thread t over the segments s of [t·PART, t·PART + PART)
 * (PART = 2^log_part; the parts of the windows laid end to end, so a part
 * never crosses a window): Y_t = Σ_s acc_s + L·Σ_s (s − t·PART)·run_s and
 * R_t = Σ_s run_s. The window's W = Σ_s acc_s + L·Σ_s s·run_s is then
 * Σ_t Y_t + (L·PART)·Σ_t t·R_t: level 2's input form with L·PART in place
 * of L. */
__global__ void MSMK(reduce_parts)(const XYZZ_T *seg_acc, const XYZZ_T *seg_run, XYZZ_T *part_y,
                                   XYZZ_T *part_r, unsigned log_part, unsigned log_l,
                                   uint32_t total)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= total)
        return;
    const uint32_t part = 1u << log_part;
    const size_t base = (size_t)t << log_part;
    XYZZ_T x, run, loc;
    EC(xyzz_set_inf)(&run);
    EC(xyzz_set_inf)(&loc);
    for (uint32_t i = part - 1; i > 0; i--) {
        EC(xyzz_load)(&x, &seg_run[base + i]);
        EC(xyzz_add)(&run, &x);
        EC(xyzz_add)(&loc, &run);
    }
    EC(xyzz_load)(&x, &seg_run[base]);
    EC(xyzz_add)(&run, &x);
    for (unsigned k = 0; k < log_l; k++)
        EC(xyzz_dbl)(&loc, &loc);
    for (uint32_t i = 0; i < part; i++) {
        EC(xyzz_load)(&x, &seg_acc[base + i]);
        EC(xyzz_add)(&loc, &x);
    }
    EC(xyzz_store)(&part_y[t], &loc);
    EC(xyzz_store)(&part_r[t], &run);
}

/* Level 2, block w for window w, B = blockDim.x threads, thread t over
 * segments (or parts, with L their length in buckets) s ∈ [t·L2,
 * t·L2 + L2). With W = Σ_s acc_s + L·Σ_s s·run_s:
 *   Σ_s s·run_s = Σ_t loc_t + L2·Σ_t t·run_t,  loc_t = Σ_s (s − t·L2)·run_s,
 * so W = Σ_t (A_t + L·loc_t) + L·L2·Σ_t t·run_t (A_t = Σ_s acc_s, run_t =
 * Σ_s run_s). Σ_t t·run_t = Σ_{t≥1} U_t for the suffix sums U_t = Σ_{t'≥t}
 * run_t', by a scan in shared memory. The block leaves the pair
 * wins[2w] = Σ_t (A_t + L·loc_t), wins[2w + 1] = Σ_t t·run_t; the host
 * doubles the second log2(L·L2) times and adds (msm_combine.c), which
 * takes that chain off this single thread. */
__global__ void __launch_bounds__(MSM_RED_BLOCK)
    MSMK(reduce_windows)(const XYZZ_T *seg_acc, const XYZZ_T *seg_run, XYZZ_T *wins, uint32_t S,
                         uint32_t L2, unsigned log_l)
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
        EC(xyzz_store)(&wins[2 * blockIdx.x], &ysum);
        EC(xyzz_store)(&wins[2 * blockIdx.x + 1], &tsum);
    }
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

cuzk_status MSMK(pippenger)(cuda_msm_ctx *ctx, const msm_plan *pl, const void *points,
                            const uint32_t *pidx, size_t n_upper, unsigned flags,
                            cudaStream_t stream)
{
    cuzk_status st = CUZK_OK;
    const cuda_msm_group g = MSMK(group);
    const uint32_t T = ctx->acc_threads[g];
    const uint32_t n_buckets = pl->nwin * pl->M;
    XYZZ_T *buckets = (XYZZ_T *)ctx->buckets;
    XYZZ_T *head = (XYZZ_T *)ctx->pieces, *tail = head + T;
    XYZZ_T *seg_acc = (XYZZ_T *)ctx->segs, *seg_run = seg_acc + (size_t)pl->nwin * pl->S;
    XYZZ_T *part_y = seg_run + (size_t)pl->nwin * pl->S, *part_r = part_y + (size_t)pl->nwin * pl->P;
    XYZZ_T *wins = (XYZZ_T *)ctx->wins;
    if ((size_t)n_buckets * sizeof(XYZZ_T) > ctx->cap_bucket_bytes ||
        2 * (size_t)pl->nwin * (pl->S + (pl->log_part ? pl->P : 0)) * sizeof(XYZZ_T) >
            ctx->cap_seg_bytes ||
        2 * (size_t)pl->nwin * sizeof(XYZZ_T) > ctx->cap_win_bytes)
        return CUZK_ERR_INTERNAL;

    const bool add = (flags & MSM_PIP_ADD) != 0;
    for (unsigned bt = 0; bt < pl->nbatch && st == CUZK_OK && !(flags & MSM_PIP_REDUCE_ONLY);
         bt++) {
        const unsigned w_lo = bt * pl->nwin / pl->nbatch, w_hi = (bt + 1) * pl->nwin / pl->nbatch;
        const uint32_t n_keys = (w_hi - w_lo) * pl->M;
        XYZZ_T *bk = buckets + (size_t)w_lo * pl->M;
        st = msm_sort_batch(ctx, pl, w_lo, w_hi, pidx, n_upper, stream);
        if (st != CUZK_OK)
            break;
        if (!add) { /* adding, an empty bucket keeps the earlier chunks' sum */
            MSM_LAUNCH(MSMK(mark_empty), msm_grid(ctx, n_keys, 256), 256, stream, bk, ctx->off,
                       n_keys);
            CUDA_CHECK_LAUNCH(st, "mark_empty");
        }
        const unsigned acc_blocks = (T + MSM_ACC_BLOCK - 1) / MSM_ACC_BLOCK;
        if (add)
            MSM_LAUNCH(MSMK(accumulate_add), acc_blocks, MSM_ACC_BLOCK, stream, bk, head, tail,
                       ctx->off, n_keys, ctx->vals, (const AFF_T *)points, T);
        else
            MSM_LAUNCH(MSMK(accumulate), acc_blocks, MSM_ACC_BLOCK, stream, bk, head, tail,
                       ctx->off, n_keys, ctx->vals, (const AFF_T *)points, T);
        CUDA_CHECK_LAUNCH(st, "accumulate");
        if (add)
            MSM_LAUNCH(MSMK(merge_short_add), (T + 127) / 128, 128, stream, bk, head, tail,
                       ctx->off, n_keys, T);
        else
            MSM_LAUNCH(MSMK(merge_short), (T + 127) / 128, 128, stream, bk, head, tail,
                       ctx->off, n_keys, T);
        CUDA_CHECK_LAUNCH(st, "merge_short");
        if (add)
            MSM_LAUNCH(MSMK(merge_add), (T + 7) / 8, 256, stream, bk, head, tail, ctx->off,
                       n_keys, T);
        else
            MSM_LAUNCH(MSMK(merge), (T + 7) / 8, 256, stream, bk, head, tail, ctx->off,
                       n_keys, T);
        CUDA_CHECK_LAUNCH(st, "merge");
    }
    if (st != CUZK_OK || (flags & MSM_PIP_NO_REDUCE))
        return st;
    const uint32_t total = pl->nwin * pl->S;
    MSM_LAUNCH(MSMK(reduce_segments), (total + 127) / 128, 128, stream, buckets, seg_acc, seg_run,
               pl->L, total);
    CUDA_CHECK_LAUNCH(st, "reduce_segments");
    const XYZZ_T *in_acc = seg_acc, *in_run = seg_run;
    if (pl->log_part) {
        const uint32_t parts = pl->nwin * pl->P;
        MSM_LAUNCH(MSMK(reduce_parts), (parts + 127) / 128, 128, stream, seg_acc, seg_run, part_y,
                   part_r, pl->log_part, pl->log_l, parts);
        CUDA_CHECK_LAUNCH(st, "reduce_parts");
        in_acc = part_y;
        in_run = part_r;
    }
    MSM_LAUNCH(MSMK(reduce_windows), pl->nwin, pl->B, stream, in_acc, in_run, wins, pl->P, pl->L2,
               pl->log_l + pl->log_part);
    CUDA_CHECK_LAUNCH(st, "reduce_windows");
    return st;
}

/* A chunked MSM's buckets, every window's, set to infinity. */
cuzk_status MSMK(clear)(cuda_msm_ctx *ctx, const msm_plan *pl, cudaStream_t stream)
{
    cuzk_status st = CUZK_OK;
    const size_t n_buckets = (size_t)pl->nwin * pl->M;
    if (n_buckets * sizeof(XYZZ_T) > ctx->cap_bucket_bytes)
        return CUZK_ERR_INTERNAL;
    MSM_LAUNCH(MSMK(clear_buckets), msm_grid(ctx, n_buckets, 256), 256, stream,
               (XYZZ_T *)ctx->buckets, n_buckets);
    CUDA_CHECK_LAUNCH(st, "clear_buckets");
    return st;
}

cuzk_status MSMK(set_infinity)(cuda_msm_ctx *ctx, cudaStream_t stream)
{
    cuzk_status st = CUZK_OK;
    MSM_LAUNCH(MSMK(set_inf_kernel), 1, 1, stream, (JAC_T *)ctx->result);
    CUDA_CHECK_LAUNCH(st, "set_inf_kernel");
    return st;
}
