/* Step 4 of the device MSM for one group (msm_internal.cuh): bucket
 * accumulation over the sorted entries and the merge of the buckets cut by
 * a chunk boundary. A template for msm_gN_accumulate.cu (msm_group.cuh). */

/* ---- kernels ------------------------------------------------------------- */

/* The buckets of a batch that no entry reached are set to infinity (the
 * accumulation writes every other one). Only those are written: clearing
 * all of them cost 1.6 ms per call at c = 20. off holds the bucket ends. */
__global__ void MSMK(mark_empty)(XYZZ_T *buckets, const uint32_t *off, uint32_t n_keys)
{
    const uint32_t stride = gridDim.x * blockDim.x;
    MSM_FE_T zero;
    MSM_FE_SET_ZERO(&zero);
    for (uint32_t b = blockIdx.x * blockDim.x + threadIdx.x; b < n_keys; b += stride) {
        if (off[b] != (b ? off[b - 1] : 0u))
            continue;
        MSM_FE_STORE(&buckets[b].zz, &zero);
        MSM_FE_STORE(&buckets[b].zzz, &zero);
    }
}

/* Thread t sums the sorted entries [t·K, min((t+1)·K, nnz)) run by run (a
 * run: the entries of one bucket). A run that is the whole bucket goes to
 * buckets[]; one cut by the chunk's start to head[t]; one cut by its end
 * only to tail[t]. buckets points at the batch's first window. */
static __device__ __forceinline__ void MSMK(accumulate_body)(XYZZ_T *buckets, XYZZ_T *head,
                                                              XYZZ_T *tail, const uint32_t *off,
                                                              uint32_t n_keys, const uint32_t *vals,
                                                              const AFF_T *points, uint32_t T)
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

__global__ void __launch_bounds__(MSM_ACC_BLOCK)
    MSMK(accumulate)(XYZZ_T *buckets, XYZZ_T *head, XYZZ_T *tail, const uint32_t *off,
                     uint32_t n_keys, const uint32_t *vals, const AFF_T *points, uint32_t T)
{
    MSMK(accumulate_body)(buckets, head, tail, off, n_keys, vals, points, T);
}

#ifdef MSM_ACC_TIGHT_BLOCKS
/* The same, with the registers capped so that MSM_ACC_TIGHT_BLOCKS blocks
 * fit on an SM (a few spills for more warps); CUZK_MSM_ACC=tight picks it
 * (msm_group.cuh: MSMK(acc_tight)). */
__global__ void __launch_bounds__(MSM_ACC_BLOCK, MSM_ACC_TIGHT_BLOCKS)
    MSMK(accumulate_tight)(XYZZ_T *buckets, XYZZ_T *head, XYZZ_T *tail, const uint32_t *off,
                           uint32_t n_keys, const uint32_t *vals, const AFF_T *points, uint32_t T)
{
    MSMK(accumulate_body)(buckets, head, tail, off, n_keys, vals, points, T);
}
#endif

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
    if (last == c + 1) {
        /* The common case (a bucket is much shorter than a chunk): one head
         * piece, one addition by lane 0, no shuffle tree. */
        if (lane == 0) {
            XYZZ_T h;
            EC(xyzz_load)(&acc, &tail[c]);
            EC(xyzz_load)(&h, &head[last]);
            EC(xyzz_add)(&acc, &h);
            EC(xyzz_store)(&buckets[b], &acc);
        }
        return;
    }
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

