/* Step 4 of the device MSM for one group (msm_internal.cuh): bucket
 * accumulation over the sorted entries and the merge of the buckets cut by
 * a chunk boundary. A template for msm_gN_accumulate.cu (msm_group.cuh). */

/* ---- kernels ------------------------------------------------------------- */

/* Every bucket of a chunked MSM (msm_chunked_begin) set to infinity. */
__global__ void MSMK(clear_buckets)(XYZZ_T *buckets, size_t n)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    XYZZ_T inf;
    EC(xyzz_set_inf)(&inf);
    for (size_t b = (size_t)blockIdx.x * blockDim.x + threadIdx.x; b < n; b += stride)
        EC(xyzz_store)(&buckets[b], &inf);
}

/* A bucket's sum stored: with ADD (a chunk of a chunked MSM) added to what
 * the earlier chunks left there. */
template <bool ADD>
static __device__ __forceinline__ void MSMK(bucket_put)(XYZZ_T *bucket, XYZZ_T *sum)
{
    if (ADD) {
        XYZZ_T old;
        EC(xyzz_load)(&old, bucket);
        EC(xyzz_add)(sum, &old);
    }
    EC(xyzz_store)(bucket, sum);
}

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

/* Thread t's share of the nnz sorted entries (off[n_keys]) of a batch,
 * [*start, *end): a chunk of K each (MSMK(chunk)); and the bucket *b of
 * its first entry, with that bucket's ends [*bbeg, *bend) (*bbeg may lie
 * before *start). False when the thread has no entries. */
static __device__ __forceinline__ bool MSMK(thread_entries)(const uint32_t *off, uint32_t n_keys,
                                                            uint32_t T, uint32_t t, uint32_t *start,
                                                            uint32_t *end, uint32_t *b,
                                                            uint32_t *bbeg, uint32_t *bend)
{
    if (t >= T)
        return false;
    const uint32_t nnz = off[n_keys];
    const uint32_t K = MSMK(chunk)(nnz, T);
    if ((uint64_t)t * K >= nnz)
        return false;
    *start = t * K;
    *end = *start + min(K, nnz - *start);
    *b = MSMK(bucket_of)(off, n_keys, *start);
    *bbeg = *b ? off[*b - 1] : 0;
    *bend = off[*b];
    return true;
}

/* The sum acc of bucket b's entries [bbeg, bend) that lie in thread t's
 * [start, end): the whole bucket to buckets[b]; a piece cut by the
 * thread's start to head[t], one cut by its end only to tail[t] (the
 * merge kernels add the pieces). */
static __device__ __forceinline__ void MSMK(run_store)(XYZZ_T *buckets, XYZZ_T *head, XYZZ_T *tail,
                                                       uint32_t b, uint32_t bbeg, uint32_t bend,
                                                       uint32_t start, uint32_t end, uint32_t t,
                                                       const XYZZ_T *acc)
{
    if (bbeg >= start && bend <= end)
        EC(xyzz_store)(&buckets[b], acc);
    else
        EC(xyzz_store)(bbeg < start ? &head[t] : &tail[t], acc);
}

/* The run that starts at entry pos, after bucket *b's: its bucket (the
 * next nonempty one) and its ends [*bbeg, *bend). */
static __device__ __forceinline__ void MSMK(next_run)(const uint32_t *off, uint32_t pos,
                                                      uint32_t *b, uint32_t *bbeg, uint32_t *bend)
{
    do
        ++*b;
    while (off[*b] <= pos);
    *bbeg = pos;
    *bend = off[*b];
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
    uint32_t start, end, b, bbeg, bend;
    if (!MSMK(thread_entries)(off, n_keys, T, t, &start, &end, &b, &bbeg, &bend))
        return;
    XYZZ_T acc;
    AFF_T q;
    MSMK(entry_point)(&q, vals[start], points);
    EC(xyzz_set_aff)(&acc, &q);
    if (start + 1 < end)
        MSMK(prefetch_point)(points + (vals[start + 1] & ~MSM_NEG_BIT));
    for (uint32_t pos = start + 1;; pos++) {
        if (pos == end || pos == bend) {
            /* The run of bucket b ends here. */
            MSMK(run_store)(buckets, head, tail, b, bbeg, bend, start, end, t, &acc);
            if (pos == end)
                break;
            MSMK(next_run)(off, pos, &b, &bbeg, &bend);
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

/* accumulate_body for a chunk of a chunked MSM: a run that is its whole
 * bucket starts from the bucket's stored sum (infinity or the earlier
 * chunks'), one mixed addition for its first entry, where adding its sum
 * to the bucket at the end took an XYZZ addition out of line and made the
 * loop twice as slow (bench_cuda_msm --stream-chunk 22 at 2^26, c = 16:
 * 1118 ms against 590 for a Pippenger per chunk). A cut run's pieces are
 * added to their bucket by the merge kernels. */
static __device__ __forceinline__ void
MSMK(accumulate_add_body)(XYZZ_T *buckets, XYZZ_T *head, XYZZ_T *tail, const uint32_t *off,
                          uint32_t n_keys, const uint32_t *vals, const AFF_T *points, uint32_t T)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t start, end, b, bbeg, bend;
    if (!MSMK(thread_entries)(off, n_keys, T, t, &start, &end, &b, &bbeg, &bend))
        return;
    XYZZ_T acc;
    AFF_T q;
    MSMK(prefetch_point)(points + (vals[start] & ~MSM_NEG_BIT));
    for (uint32_t pos = start;; pos++) {
        if (pos > start && (pos == end || pos == bend)) {
            /* The run of bucket b ends here. */
            MSMK(run_store)(buckets, head, tail, b, bbeg, bend, start, end, t, &acc);
            if (pos == end)
                break;
            MSMK(next_run)(off, pos, &b, &bbeg, &bend);
        }
        if (pos + 1 < end)
            MSMK(prefetch_point)(points + (vals[pos + 1] & ~MSM_NEG_BIT));
        MSMK(entry_point)(&q, vals[pos], points);
        const bool first = pos == start || pos == bbeg;
        if (first && !(bbeg >= start && bend <= end)) {
            EC(xyzz_set_aff)(&acc, &q);
        } else {
            if (first)
                EC(xyzz_load)(&acc, &buckets[b]);
            EC(xyzz_madd)(&acc, &q);
        }
    }
}

/* MSM_ACC_MIN_BLOCKS (the group's defs): blocks the compiler must fit on
 * one SM, capping the registers. */
__global__ void __launch_bounds__(MSM_ACC_BLOCK, MSM_ACC_MIN_BLOCKS)
    MSMK(accumulate)(XYZZ_T *buckets, XYZZ_T *head, XYZZ_T *tail, const uint32_t *off,
                     uint32_t n_keys, const uint32_t *vals, const AFF_T *points, uint32_t T)
{
    MSMK(accumulate_body)(buckets, head, tail, off, n_keys, vals, points, T);
}

__global__ void __launch_bounds__(MSM_ACC_BLOCK, MSM_ACC_MIN_BLOCKS)
    MSMK(accumulate_add)(XYZZ_T *buckets, XYZZ_T *head, XYZZ_T *tail, const uint32_t *off,
                         uint32_t n_keys, const uint32_t *vals, const AFF_T *points, uint32_t T)
{
    MSMK(accumulate_add_body)(buckets, head, tail, off, n_keys, vals, points, T);
}

/* Whether chunk c owns a bucket cut by its end: its last run starts in
 * it and goes on past its end. Then *b is the bucket and *last the chunk
 * holding the bucket's last entry (the owner sums its tail piece and the
 * head pieces of chunks c + 1 .. last). */
static __device__ __forceinline__ bool MSMK(owns_cut)(const uint32_t *off, uint32_t n_keys,
                                                      uint32_t T, uint32_t c, uint32_t *b,
                                                      uint32_t *last)
{
    const uint32_t nnz = off[n_keys];
    const uint32_t K = MSMK(chunk)(nnz, T);
    if ((uint64_t)c * K >= nnz)
        return false;
    const uint32_t start = c * K;
    const uint32_t end = start + min(K, nnz - start);
    *b = MSMK(bucket_of)(off, n_keys, end - 1);
    const uint32_t bbeg = *b ? off[*b - 1] : 0, bend = off[*b];
    if (bend <= end || bbeg < start)
        return false;
    *last = (bend - 1) / K;
    return true;
}

/* One thread per chunk, for the cut buckets that span at most
 * MSM_MERGE_SERIAL + 1 chunks (all of them unless a bucket is longer than
 * a chunk): the heads added in a loop. A warp per chunk, as msm_merge does
 * for the long ones, kept 8 warps per SM busy with one lane each: 4.5 ms
 * at G2 2^20. */
template <bool ADD>
static __device__ __forceinline__ void
MSMK(merge_short_body)(XYZZ_T *buckets, const XYZZ_T *head, const XYZZ_T *tail, const uint32_t *off,
                       uint32_t n_keys, uint32_t T)
{
    const uint32_t c = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t b, last;
    if (c >= T || !MSMK(owns_cut)(off, n_keys, T, c, &b, &last) || last - c > MSM_MERGE_SERIAL)
        return;
    XYZZ_T acc, h;
    EC(xyzz_load)(&acc, &tail[c]);
    for (uint32_t j = c + 1; j <= last; j++) {
        EC(xyzz_load)(&h, &head[j]);
        EC(xyzz_add)(&acc, &h);
    }
    MSMK(bucket_put)<ADD>(&buckets[b], &acc);
}

__global__ void MSMK(merge_short)(XYZZ_T *buckets, const XYZZ_T *head, const XYZZ_T *tail,
                                  const uint32_t *off, uint32_t n_keys, uint32_t T)
{
    MSMK(merge_short_body)<false>(buckets, head, tail, off, n_keys, T);
}

__global__ void MSMK(merge_short_add)(XYZZ_T *buckets, const XYZZ_T *head, const XYZZ_T *tail,
                                      const uint32_t *off, uint32_t n_keys, uint32_t T)
{
    MSMK(merge_short_body)<true>(buckets, head, tail, off, n_keys, T);
}

/* One warp per chunk, for the cut buckets longer than that (skewed
 * scalars: all of one digit): the lanes add the heads in a strided loop,
 * then a shuffle tree. */
template <bool ADD>
static __device__ __forceinline__ void MSMK(merge_body)(XYZZ_T *buckets, const XYZZ_T *head,
                                                        const XYZZ_T *tail, const uint32_t *off,
                                                        uint32_t n_keys, uint32_t T)
{
    const uint32_t c = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const unsigned lane = threadIdx.x & 31u;
    uint32_t b, last;
    /* uniform across the warp */
    if (c >= T || !MSMK(owns_cut)(off, n_keys, T, c, &b, &last) || last - c <= MSM_MERGE_SERIAL)
        return;
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
        MSMK(bucket_put)<ADD>(&buckets[b], &acc);
}

__global__ void MSMK(merge)(XYZZ_T *buckets, const XYZZ_T *head, const XYZZ_T *tail,
                            const uint32_t *off, uint32_t n_keys, uint32_t T)
{
    MSMK(merge_body)<false>(buckets, head, tail, off, n_keys, T);
}

__global__ void MSMK(merge_add)(XYZZ_T *buckets, const XYZZ_T *head, const XYZZ_T *tail,
                                const uint32_t *off, uint32_t n_keys, uint32_t T)
{
    MSMK(merge_body)<true>(buckets, head, tail, off, n_keys, T);
}
