/* What every part of the device MSM of one group shares: the point types,
 * the declarations of the group's kernels and host functions (a part
 * launches kernels defined in another), and small device helpers.
 *
 * The group's MSM is cut into three translation units per group, so that
 * they compile in parallel (the Fp2 ones take minutes each):
 *   msm_gN_accumulate.cu  bucket accumulation and the merge of cut buckets
 *                         (msm_accumulate_impl.cuh)
 *   msm_gN_reduce.cu      bucket reduction, window combination and the
 *                         host driver of steps 3–5 (msm_reduce_impl.cuh)
 *   msm_gN_points.cu      host layout, the point generator, the sum of the
 *                         ones, the operations table (msm_points_impl.cuh)
 * Each includes msm_gN_defs.cuh (the group's macros) and then this file:
 *   EC(name)     the group's device point layer (dg1_##name, ec_impl.cuh)
 *   MSMK(name)   the names of the group's kernels and functions
 *   MSM_FE_T, MSM_FE_LOAD, MSM_FE_STORE, MSM_FE_IS_ZERO, MSM_FE_SET_ZERO
 *                the coordinate field
 *   MSM_REDUCE_ADD  the XYZZ addition of the level-1 reduction loop
 *   MSM_ACC_MIN_BLOCKS  the accumulation's second launch bound
 *   MSM_HOST_AFF_BYTES, MSM_OPS, MSM_MAX_AUTO_C, MSM_BUCKET_COST
 * and the constant MSMK(group). */

#define AFF_T EC(aff_t)
#define XYZZ_T EC(xyzz_t)
#define JAC_T EC(jac_t)

/* ---- the group's kernels (launch bounds on the definitions) -------------- */

/* The _add kernels: a chunk of a chunked MSM, its bucket sums added to the
 * buckets' (msm_chunked_add); the others store over them. */
__global__ void MSMK(mark_empty)(XYZZ_T *buckets, const uint32_t *off, uint32_t n_keys);
__global__ void MSMK(clear_buckets)(XYZZ_T *buckets, size_t n);
__global__ void MSMK(accumulate)(XYZZ_T *buckets, XYZZ_T *head, XYZZ_T *tail, const uint32_t *off,
                                 uint32_t n_keys, const uint32_t *vals, const AFF_T *points,
                                 uint32_t T);
__global__ void MSMK(accumulate_add)(XYZZ_T *buckets, XYZZ_T *head, XYZZ_T *tail,
                                     const uint32_t *off, uint32_t n_keys, const uint32_t *vals,
                                     const AFF_T *points, uint32_t T);
__global__ void MSMK(merge_short)(XYZZ_T *buckets, const XYZZ_T *head, const XYZZ_T *tail,
                                  const uint32_t *off, uint32_t n_keys, uint32_t T);
__global__ void MSMK(merge_short_add)(XYZZ_T *buckets, const XYZZ_T *head, const XYZZ_T *tail,
                                      const uint32_t *off, uint32_t n_keys, uint32_t T);
__global__ void MSMK(merge)(XYZZ_T *buckets, const XYZZ_T *head, const XYZZ_T *tail,
                            const uint32_t *off, uint32_t n_keys, uint32_t T);
__global__ void MSMK(merge_add)(XYZZ_T *buckets, const XYZZ_T *head, const XYZZ_T *tail,
                                const uint32_t *off, uint32_t n_keys, uint32_t T);

/* ---- the group's host functions ------------------------------------------ */

cuzk_status MSMK(pippenger)(cuda_msm_ctx *ctx, const msm_plan *pl, const void *points,
                            const uint32_t *pidx, size_t n_upper, unsigned flags,
                            cudaStream_t stream);
cuzk_status MSMK(clear)(cuda_msm_ctx *ctx, const msm_plan *pl, cudaStream_t stream);
cuzk_status MSMK(set_infinity)(cuda_msm_ctx *ctx, cudaStream_t stream);

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

