/* The point part of the device MSM for one group: host layout <-> device
 * affine points, the benchmark's point generator, the sum of the points of
 * the scalars equal to one (the split, step 2), launch geometry, and the
 * group's operations table. A template for msm_gN_points.cu
 * (msm_group.cuh); besides the common macros it uses
 *   MSM_HOST_AFF_BYTES   sizeof(g1_affine_t) / sizeof(g2_affine_t)
 *   MSM_OPS              the name of the table (msm_g1_ops)
 *   MSM_MAX_AUTO_C, MSM_BUCKET_COST   the group's window-size model. */

/* The host layout: x, y (FE bytes each), then a bool and padding. */
#define MSM_FE_BYTES sizeof(MSM_FE_T)
static_assert(sizeof(AFF_T) == 2 * MSM_FE_BYTES, "device affine is not x, y");
static_assert(MSM_HOST_AFF_BYTES == 2 * MSM_FE_BYTES + 8, "host affine is not x, y, bool");

/* ---- host layout ----------------------------------------------------------- */

__global__ void MSMK(from_host_kernel)(AFF_T *out, const uint32_t *src, uint32_t n)
{
    const uint32_t stride = gridDim.x * blockDim.x;
    const uint32_t words = MSM_HOST_AFF_BYTES / 4, fe_words = MSM_FE_BYTES / 4;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const uint32_t *s = src + (size_t)i * words;
        const bool inf = (s[2 * fe_words] & 0xffu) != 0;
        AFF_T a;
        uint32_t *x = (uint32_t *)&a.x, *y = (uint32_t *)&a.y;
        for (uint32_t k = 0; k < fe_words; k++) {
            x[k] = inf ? 0u : s[k];
            y[k] = inf ? 0u : s[fe_words + k];
        }
        EC(aff_store)(out + i, &a);
    }
}

__global__ void MSMK(to_host_kernel)(uint32_t *dst, const AFF_T *in, uint32_t n)
{
    const uint32_t stride = gridDim.x * blockDim.x;
    const uint32_t words = MSM_HOST_AFF_BYTES / 4, fe_words = MSM_FE_BYTES / 4;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        AFF_T a;
        EC(aff_load)(&a, in + i);
        const bool inf = EC(aff_is_inf)(&a);
        uint32_t *d = dst + (size_t)i * words;
        const uint32_t *x = (const uint32_t *)&a.x, *y = (const uint32_t *)&a.y;
        for (uint32_t k = 0; k < fe_words; k++) {
            d[k] = x[k];
            d[fe_words + k] = y[k];
        }
        d[2 * fe_words] = inf ? 1u : 0u; /* the bool, then zero padding */
        d[2 * fe_words + 1] = 0;
    }
}

static cuzk_status MSMK(from_host)(void *points, const void *host_layout, size_t n,
                                   cudaStream_t stream)
{
    cuzk_status st = CUZK_OK;
    MSM_LAUNCH(MSMK(from_host_kernel), (unsigned)((n + 255) / 256), 256, stream, (AFF_T *)points,
               (const uint32_t *)host_layout, (uint32_t)n);
    CUDA_CHECK_LAUNCH(st, "from_host_kernel");
    return st;
}

static cuzk_status MSMK(to_host)(void *host_layout, const void *points, size_t n,
                                 cudaStream_t stream)
{
    cuzk_status st = CUZK_OK;
    MSM_LAUNCH(MSMK(to_host_kernel), (unsigned)((n + 255) / 256), 256, stream,
               (uint32_t *)host_layout, (const AFF_T *)points, (uint32_t)n);
    CUDA_CHECK_LAUNCH(st, "to_host_kernel");
    return st;
}

/* ---- the point generator --------------------------------------------------- */

/* r = [k]·p, k of `limbs` 64-bit words, by double-and-add from the top.
 * Out of line: the generator runs it a few times per thread, and inlined
 * copies only cost compile time. */
static __device__ __noinline__ void MSMK(mul_small)(XYZZ_T *r, const AFF_T *p, const uint64_t *k,
                                                    unsigned limbs)
{
    EC(xyzz_set_inf)(r);
    for (int bit = (int)(64 * limbs) - 1; bit >= 0; bit--) {
        EC(xyzz_dbl)(r, r);
        if ((k[bit >> 6] >> (bit & 63)) & 1u)
            EC(xyzz_madd)(r, p);
    }
}

/* One thread: work[0] = A = [a]·base, work[1] = D = [d]·base,
 * work[2] = [T]·D (the step between a thread's points), all affine. */
__global__ void MSMK(gen_setup_kernel)(AFF_T *work, const uint32_t *base_host, const uint64_t *ad,
                                       uint64_t T)
{
    if (blockIdx.x != 0 || threadIdx.x != 0)
        return;
    const uint32_t fe_words = MSM_FE_BYTES / 4;
    AFF_T base;
    uint32_t *x = (uint32_t *)&base.x, *y = (uint32_t *)&base.y;
    const bool inf = (base_host[2 * fe_words] & 0xffu) != 0;
    for (uint32_t k = 0; k < fe_words; k++) {
        x[k] = inf ? 0u : base_host[k];
        y[k] = inf ? 0u : base_host[fe_words + k];
    }
    XYZZ_T r;
    AFF_T a, d, s;
    MSMK(mul_small)(&r, &base, ad, 4);
    EC(xyzz_to_aff)(&a, &r);
    MSMK(mul_small)(&r, &base, ad + 4, 4);
    EC(xyzz_to_aff)(&d, &r);
    MSMK(mul_small)(&r, &d, &T, 1);
    EC(xyzz_to_aff)(&s, &r);
    work[0] = a;
    work[1] = d;
    work[2] = s;
}

/* Thread t of T: point t = A + [t]·D, then every T-th point by adding the
 * step, each made affine by its own inversion. */
__global__ void MSMK(gen_kernel)(AFF_T *out, const AFF_T *work, uint32_t n, uint32_t T)
{
    const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= T || t >= n)
        return;
    const AFF_T a = work[0], d = work[1], s = work[2];
    const uint64_t tk = t;
    XYZZ_T r;
    AFF_T p;
    MSMK(mul_small)(&r, &d, &tk, 1);
    EC(xyzz_madd)(&r, &a);
    for (uint32_t i = t; i < n; i += T) {
        EC(xyzz_to_aff)(&p, &r);
        EC(aff_store)(out + i, &p);
        EC(xyzz_madd)(&r, &s);
    }
}

static cuzk_status MSMK(generate)(void *points, const void *base, const uint64_t *ad, void *work,
                                  size_t n, cudaStream_t stream)
{
    cuzk_status st = CUZK_OK;
    uint32_t T = 1u << 16;
    if (n < T)
        T = (uint32_t)(n ? n : 1);
    MSM_LAUNCH(MSMK(gen_setup_kernel), 1, 1, stream, (AFF_T *)work, (const uint32_t *)base, ad,
               (uint64_t)T);
    CUDA_CHECK_LAUNCH(st, "gen_setup_kernel");
    MSM_LAUNCH(MSMK(gen_kernel), (T + 127) / 128, 128, stream, (AFF_T *)points, (const AFF_T *)work,
               (uint32_t)n, T);
    CUDA_CHECK_LAUNCH(st, "gen_kernel");
    return st;
}

/* ---- the ones of the split --------------------------------------------------- */

/* Block partials of Σ points[idx[i]], i < counts[1] (grid-stride). */
__global__ void __launch_bounds__(MSM_ONES_BLOCK)
    MSMK(ones_partial)(const uint32_t *idx, const uint32_t *counts, const AFF_T *points,
                       XYZZ_T *partials)
{
    __shared__ XYZZ_T sm[MSM_ONES_BLOCK];
    const uint32_t m = counts[1], stride = gridDim.x * blockDim.x;
    XYZZ_T acc;
    AFF_T p;
    EC(xyzz_set_inf)(&acc);
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < m; i += stride) {
        if (i + stride < m)
            MSMK(prefetch_point)(points + idx[i + stride]);
        EC(aff_load)(&p, points + idx[i]);
        EC(xyzz_madd)(&acc, &p);
    }
    MSMK(block_sum)(sm, &acc, &partials[blockIdx.x]);
}

__global__ void __launch_bounds__(MSM_ONES_BLOCK)
    MSMK(ones_final)(const XYZZ_T *partials, uint32_t np, XYZZ_T *out)
{
    __shared__ XYZZ_T sm[MSM_ONES_BLOCK];
    XYZZ_T acc, x;
    EC(xyzz_set_inf)(&acc);
    for (uint32_t i = threadIdx.x; i < np; i += blockDim.x) {
        EC(xyzz_load)(&x, &partials[i]);
        EC(xyzz_add)(&acc, &x);
    }
    MSMK(block_sum)(sm, &acc, out);
}

static cuzk_status MSMK(ones_sum)(cuda_msm_ctx *ctx, const void *points, size_t n_upper,
                                  cudaStream_t stream)
{
    cuzk_status st = CUZK_OK;
    unsigned blocks = ctx->ones_blocks[MSMK(group)];
    const size_t need = (n_upper + MSM_ONES_BLOCK - 1) / MSM_ONES_BLOCK;
    if (need < blocks)
        blocks = need ? (unsigned)need : 1u;
    MSM_LAUNCH(MSMK(ones_partial), blocks, MSM_ONES_BLOCK, stream, ctx->vals, ctx->counts,
               (const AFF_T *)points, (XYZZ_T *)ctx->partials);
    CUDA_CHECK_LAUNCH(st, "ones_partial");
    MSM_LAUNCH(MSMK(ones_final), 1, MSM_ONES_BLOCK, stream, (const XYZZ_T *)ctx->partials, blocks,
               (XYZZ_T *)ctx->ones);
    CUDA_CHECK_LAUNCH(st, "ones_final");
    return st;
}

/* ---- the subgroup test ------------------------------------------------------- */

#if defined(MSM_SUBGROUP_NONE)

/* Cofactor 1: every point on the curve passes (the caller's precondition). */
#define MSM_SUBGROUP_CONST_BYTES 0
static cuzk_status MSMK(subgroup)(const void *points, size_t n, const void *consts,
                                  unsigned long long *first_bad, cudaStream_t stream)
{
    (void)points;
    (void)n;
    (void)consts;
    (void)first_bad;
    (void)stream;
    return CUZK_OK;
}

#elif defined(MSM_SUBGROUP_BY_ORDER)

/* first_bad = the smallest i < n whose point is finite and has
 * [r]P ≠ O; consts: r as four 64-bit words. */
#define MSM_SUBGROUP_CONST_BYTES MSM_ORDER_BYTES
#define MSM_SUBGROUP_CONST_T uint64_t /* the order r, as limbs */
__global__ void MSMK(subgroup_kernel)(const AFF_T *points, uint32_t n, const uint64_t *order,
                                      unsigned long long *first_bad)
{
    const uint32_t stride = gridDim.x * blockDim.x;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        AFF_T p;
        EC(aff_load)(&p, points + i);
        if (EC(aff_is_inf)(&p))
            continue;
        XYZZ_T t;
        MSMK(mul_small)(&t, &p, order, 4);
        if (!EC(xyzz_is_inf)(&t))
            atomicMin(first_bad, (unsigned long long)i);
    }
}

#else

#define MSM_SUBGROUP_CONST_BYTES (MSM_ENDO_CONSTS * sizeof(MSM_FE_T))
#define MSM_SUBGROUP_CONST_T MSM_FE_T /* the endomorphism's constants */
/* |x| of BLS12-381, x = −0xd201000000010000 (63 doublings, 5 additions). */
#define MSM_ABS_X UINT64_C(0xd201000000010000)

/* r = [|x|]·p for an affine p, from the top bit down. */
static __device__ __forceinline__ void MSMK(mul_abs_x_aff)(XYZZ_T *r, const AFF_T *p)
{
    EC(xyzz_set_aff)(r, p);
    for (int bit = 62; bit >= 0; bit--) {
        EC(xyzz_dbl)(r, r);
        if ((MSM_ABS_X >> bit) & 1u)
            EC(xyzz_madd)(r, p);
    }
}

/* r = [|x|]·p for an XYZZ p (r and p distinct). */
static __device__ __forceinline__ void MSMK(mul_abs_x)(XYZZ_T *r, const XYZZ_T *p)
{
    *r = *p;
    for (int bit = 62; bit >= 0; bit--) {
        EC(xyzz_dbl)(r, r);
        if ((MSM_ABS_X >> bit) & 1u)
            EC(xyzz_add_in)(r, p);
    }
}

/* first_bad = the smallest i < n whose point is finite and fails
 * endo(P) = −[|x|^MSM_SUBGROUP_X_POWER]P, i.e. endo(P) + [|x|^k]P ≠ ∞
 * (the additions' special cases make that sum exact). */
__global__ void MSMK(subgroup_kernel)(const AFF_T *points, uint32_t n, const MSM_FE_T *consts,
                                      unsigned long long *first_bad)
{
    const uint32_t stride = gridDim.x * blockDim.x;
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        AFF_T p, e;
        EC(aff_load)(&p, points + i);
        if (EC(aff_is_inf)(&p))
            continue;
        XYZZ_T t;
        MSMK(mul_abs_x_aff)(&t, &p);
#if MSM_SUBGROUP_X_POWER == 2
        XYZZ_T u;
        MSMK(mul_abs_x)(&u, &t);
        t = u;
#endif
        MSMK(endo)(&e, &p, consts);
        EC(xyzz_madd)(&t, &e);
        if (!EC(xyzz_is_inf)(&t))
            atomicMin(first_bad, (unsigned long long)i);
    }
}

#endif

#if !defined(MSM_SUBGROUP_NONE)
/* The kernel over n points on the stream; consts: its constants (device,
 * MSM_SUBGROUP_CONST_BYTES). */
static cuzk_status MSMK(subgroup)(const void *points, size_t n, const void *consts,
                                  unsigned long long *first_bad, cudaStream_t stream)
{
    cuzk_status st = CUZK_OK;
    const size_t blocks = (n + MSM_SCALAR_BLOCK - 1) / MSM_SCALAR_BLOCK;
    MSM_LAUNCH(MSMK(subgroup_kernel), (unsigned)(blocks ? blocks : 1), MSM_SCALAR_BLOCK, stream,
               (const AFF_T *)points, (uint32_t)n, (const MSM_SUBGROUP_CONST_T *)consts, first_bad);
    CUDA_CHECK_LAUNCH(st, "subgroup_kernel");
    return st;
}
#endif

/* ---- geometry and the table -------------------------------------------------- */

static cuzk_status MSMK(geometry)(int sm_count, unsigned *acc_threads, unsigned *ones_blocks)
{
    cuzk_status st = CUZK_OK;
    int acc = 0, ones = 0;
    CUDA_CHECK(st, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&acc, MSMK(accumulate),
                                                                 MSM_ACC_BLOCK, 0));
    CUDA_CHECK(st, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&ones, MSMK(ones_partial),
                                                                 MSM_ONES_BLOCK, 0));
    if (st != CUZK_OK)
        return st;
    *acc_threads = (unsigned)sm_count * (unsigned)(acc > 0 ? acc : 1) * MSM_ACC_BLOCK;
    *ones_blocks = (unsigned)sm_count * (unsigned)(ones > 0 ? ones : 1);
    return st;
}

const msm_group_ops MSM_OPS = {
    sizeof(AFF_T),   sizeof(XYZZ_T), sizeof(JAC_T),   MSM_HOST_AFF_BYTES, MSM_MAX_AUTO_C,
    MSM_BUCKET_COST, MSMK(geometry), MSMK(pippenger), MSMK(ones_sum),     MSMK(set_infinity),
    MSMK(from_host), MSMK(to_host),  MSMK(generate),   MSMK(subgroup),
    MSM_SUBGROUP_CONST_BYTES, MSMK(clear),
};
