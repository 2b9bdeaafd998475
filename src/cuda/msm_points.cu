/* Resident MSM inputs (msm.h): point handles (upload, download, the
 * benchmark's generator) and density bitmaps. These are setup steps: they
 * allocate, and they wait for their copies. */

#include <stdlib.h>
#include <string.h>

#include "cuda/msm_internal.cuh"
#include "cuda/msm_combine.h"

/* Points converted per round trip through the host-layout staging buffer. */
#define MSM_UPLOAD_CHUNK ((size_t)1 << 20)

/* Makes ctx's device current; *prev is the one to restore. */
static cuzk_status msm_on_device(cuda_msm_ctx *ctx, int *prev)
{
    cuzk_status st = CUZK_OK;
    CUDA_CHECK(st, cudaGetDevice(prev));
    if (st == CUZK_OK && *prev != ctx->device)
        CUDA_CHECK(st, cudaSetDevice(ctx->device));
    return st;
}

static void msm_off_device(int prev)
{
    (void)cudaSetDevice(prev);
}

static cuzk_status msm_points_new(cuda_msm_ctx *ctx, cuda_msm_group group, size_t n,
                                  cuda_msm_points **out)
{
    cuda_msm_points *p = (cuda_msm_points *)calloc(1, sizeof(*p));
    if (!p)
        return CUZK_ERR_OUT_OF_MEMORY;
    p->group = group;
    p->device = ctx->device;
    p->n = n;
    cuzk_status st = CUZK_OK;
    CUDA_CHECK(st, cudaMalloc(&p->d, (n ? n : 1) * msm_group_ops_of(group)->aff_bytes));
    if (st != CUZK_OK) {
        free(p);
        return st;
    }
    *out = p;
    return st;
}

cuzk_status cuda_msm_points_upload(cuda_msm_ctx *ctx, cuda_msm_group group, const void *host_points,
                                   size_t n, cuda_msm_points **out)
{
    if (!ctx || !out || !msm_group_ops_of(group) || (n && !host_points) ||
        n > CUDA_MSM_MAX_N)
        return CUZK_ERR_INVALID_ARGUMENT;
    const msm_group_ops *ops = msm_group_ops_of(group);
    int prev = 0;
    cuzk_status st = msm_on_device(ctx, &prev);
    cuda_msm_points *p = NULL;
    void *tmp = NULL;
    const size_t chunk = n < MSM_UPLOAD_CHUNK ? n : MSM_UPLOAD_CHUNK;
    if (st == CUZK_OK)
        st = msm_points_new(ctx, group, n, &p);
    if (chunk)
        CUDA_CHECK(st, cudaMalloc(&tmp, chunk * ops->host_aff_bytes));
    for (size_t off = 0; off < n && st == CUZK_OK; off += chunk) {
        const size_t cnt = n - off < chunk ? n - off : chunk;
        CUDA_CHECK(st,
                   cudaMemcpyAsync(tmp, (const char *)host_points + off * ops->host_aff_bytes,
                                   cnt * ops->host_aff_bytes, cudaMemcpyHostToDevice, ctx->stream));
        if (st == CUZK_OK)
            st = ops->from_host((char *)p->d + off * ops->aff_bytes, tmp, cnt, ctx->stream);
    }
    CUDA_CHECK(st, cudaStreamSynchronize(ctx->stream));
    if (tmp)
        (void)cudaFree(tmp);
    msm_off_device(prev);
    if (st != CUZK_OK) {
        cuda_msm_points_free(p);
        return st;
    }
    *out = p;
    return st;
}

cuzk_status cuda_msm_points_alloc(cuda_msm_ctx *ctx, cuda_msm_group group, size_t capacity,
                                  cuda_msm_points **out)
{
    if (!ctx || !out || !msm_group_ops_of(group) || !capacity ||
        capacity > CUDA_MSM_MAX_N)
        return CUZK_ERR_INVALID_ARGUMENT;
    int prev = 0;
    cuzk_status st = msm_on_device(ctx, &prev);
    cuda_msm_points *p = NULL;
    if (st == CUZK_OK)
        st = msm_points_new(ctx, group, capacity, &p);
    msm_off_device(prev);
    if (st != CUZK_OK)
        return st;
    p->capacity = capacity;
    p->n = 0;
    *out = p;
    return st;
}

cuzk_status msm_points_view(const cuda_msm_points *owner, cuda_msm_group group, size_t capacity,
                            cuda_msm_points **out)
{
    if (!owner || !out || !capacity || !msm_group_ops_of(group) ||
        capacity * msm_group_ops_of(group)->aff_bytes >
            owner->capacity * msm_group_ops_of(owner->group)->aff_bytes)
        return CUZK_ERR_INVALID_ARGUMENT;
    cuda_msm_points *p = (cuda_msm_points *)calloc(1, sizeof(*p));
    if (!p)
        return CUZK_ERR_OUT_OF_MEMORY;
    *p = (cuda_msm_points){.group = group,
                           .device = owner->device,
                           .n = 0,
                           .capacity = capacity,
                           .d = owner->d,
                           .borrowed = true};
    *out = p;
    return CUZK_OK;
}

size_t cuda_msm_points_host_bytes(cuda_msm_group group, size_t n)
{
    return n * msm_group_ops_of(group)->host_aff_bytes;
}

cuzk_status cuda_msm_points_load_async(cuda_msm_points *points, const void *host_points, size_t n,
                                       void *staging, struct CUstream_st *stream)
{
    if (!points || !staging || (n && !host_points) || n > points->capacity)
        return CUZK_ERR_INVALID_ARGUMENT;
    const msm_group_ops *ops = msm_group_ops_of(points->group);
    int prev = 0;
    cuzk_status st = CUZK_OK;
    CUDA_CHECK(st, cudaGetDevice(&prev));
    if (st == CUZK_OK && prev != points->device)
        CUDA_CHECK(st, cudaSetDevice(points->device));
    if (n)
        CUDA_CHECK(st, cudaMemcpyAsync(staging, host_points, n * ops->host_aff_bytes,
                                       cudaMemcpyHostToDevice, stream));
    if (st == CUZK_OK && n)
        st = ops->from_host(points->d, staging, n, stream);
    if (st == CUZK_OK)
        points->n = n;
    msm_off_device(prev);
    return st;
}

void cuda_msm_points_free(cuda_msm_points *points)
{
    if (!points)
        return;
    if (!points->borrowed) {
        int prev = 0;
        if (cudaGetDevice(&prev) == cudaSuccess && prev != points->device)
            (void)cudaSetDevice(points->device);
        (void)cudaFree(points->d);
        (void)cudaSetDevice(prev);
    }
    free(points);
}

size_t cuda_msm_points_count(const cuda_msm_points *points)
{
    return points ? points->n : 0;
}

cuzk_status cuda_msm_points_download(cuda_msm_ctx *ctx, const cuda_msm_points *points,
                                     void *host_points, size_t n)
{
    if (!ctx || !points || (n && !host_points) || n > points->n || points->device != ctx->device)
        return CUZK_ERR_INVALID_ARGUMENT;
    const msm_group_ops *ops = msm_group_ops_of(points->group);
    int prev = 0;
    cuzk_status st = msm_on_device(ctx, &prev);
    void *tmp = NULL;
    const size_t chunk = n < MSM_UPLOAD_CHUNK ? n : MSM_UPLOAD_CHUNK;
    if (chunk)
        CUDA_CHECK(st, cudaMalloc(&tmp, chunk * ops->host_aff_bytes));
    for (size_t off = 0; off < n && st == CUZK_OK; off += chunk) {
        const size_t cnt = n - off < chunk ? n - off : chunk;
        st = ops->to_host(tmp, (const char *)points->d + off * ops->aff_bytes, cnt, ctx->stream);
        CUDA_CHECK(st,
                   cudaMemcpyAsync((char *)host_points + off * ops->host_aff_bytes, tmp,
                                   cnt * ops->host_aff_bytes, cudaMemcpyDeviceToHost, ctx->stream));
    }
    CUDA_CHECK(st, cudaStreamSynchronize(ctx->stream));
    if (tmp)
        (void)cudaFree(tmp);
    msm_off_device(prev);
    return st;
}

cuzk_status cuda_msm_points_generate(cuda_msm_ctx *ctx, cuda_msm_group group, const void *host_base,
                                     const uint64_t a[4], const uint64_t d[4], size_t n,
                                     cuda_msm_points **out)
{
    if (!ctx || !out || !host_base || !a || !d || !msm_group_ops_of(group) ||
        n > CUDA_MSM_MAX_N)
        return CUZK_ERR_INVALID_ARGUMENT;
    const msm_group_ops *ops = msm_group_ops_of(group);
    int prev = 0;
    cuzk_status st = msm_on_device(ctx, &prev);
    cuda_msm_points *p = NULL;
    /* Scratch: the base (host layout), a and d, four affine points. */
    const size_t base_off = 0, ad_off = 256, work_off = 512;
    char *tmp = NULL;
    uint64_t ad[8];
    memcpy(ad, a, 4 * sizeof(uint64_t));
    memcpy(ad + 4, d, 4 * sizeof(uint64_t));
    if (st == CUZK_OK)
        st = msm_points_new(ctx, group, n, &p);
    CUDA_CHECK(st, cudaMalloc((void **)&tmp, work_off + 4 * ops->aff_bytes));
    CUDA_CHECK(st, cudaMemcpyAsync(tmp + base_off, host_base, ops->host_aff_bytes,
                                   cudaMemcpyHostToDevice, ctx->stream));
    CUDA_CHECK(st,
               cudaMemcpyAsync(tmp + ad_off, ad, sizeof(ad), cudaMemcpyHostToDevice, ctx->stream));
    if (st == CUZK_OK && n)
        st = ops->generate(p->d, tmp + base_off, (const uint64_t *)(tmp + ad_off), tmp + work_off,
                           n, ctx->stream);
    CUDA_CHECK(st, cudaStreamSynchronize(ctx->stream));
    if (tmp)
        (void)cudaFree(tmp);
    msm_off_device(prev);
    if (st != CUZK_OK) {
        cuda_msm_points_free(p);
        return st;
    }
    *out = p;
    return st;
}

cuzk_status cuda_msm_points_check_subgroup(cuda_msm_ctx *ctx, const cuda_msm_points *points,
                                           size_t *first_bad)
{
    if (!ctx || !points || !first_bad || points->device != ctx->device)
        return CUZK_ERR_INVALID_ARGUMENT;
    const msm_group_ops *ops = msm_group_ops_of(points->group);
    unsigned char consts[MSM_ENDO_CONSTS_MAX_BYTES];
    if (msm_endo_consts(points->group, consts) != ops->endo_bytes)
        return CUZK_ERR_INTERNAL;
    int prev = 0;
    cuzk_status st = msm_on_device(ctx, &prev);
    /* Scratch: the smallest bad index (8 bytes), then the constants. */
    unsigned char *tmp = NULL;
    unsigned long long bad = ~0ULL;
    CUDA_CHECK(st, cudaMalloc((void **)&tmp, 256 + ops->endo_bytes));
    CUDA_CHECK(st, cudaMemcpyAsync(tmp, &bad, sizeof(bad), cudaMemcpyHostToDevice, ctx->stream));
    CUDA_CHECK(st, cudaMemcpyAsync(tmp + 256, consts, ops->endo_bytes, cudaMemcpyHostToDevice,
                                   ctx->stream));
    if (st == CUZK_OK && points->n)
        st = ops->subgroup(points->d, points->n, tmp + 256, (unsigned long long *)tmp,
                           ctx->stream);
    CUDA_CHECK(st, cudaMemcpyAsync(&bad, tmp, sizeof(bad), cudaMemcpyDeviceToHost, ctx->stream));
    CUDA_CHECK(st, cudaStreamSynchronize(ctx->stream));
    if (tmp)
        (void)cudaFree(tmp);
    msm_off_device(prev);
    if (st == CUZK_OK)
        *first_bad = bad == ~0ULL ? SIZE_MAX : (size_t)bad;
    return st;
}

/* ---- densities -------------------------------------------------------------- */

cuzk_status cuda_msm_density_upload(cuda_msm_ctx *ctx, const uint64_t *bits, size_t n_bits,
                                    cuda_msm_density **out)
{
    if (!ctx || !out || (n_bits && !bits) || n_bits > CUDA_MSM_MAX_N)
        return CUZK_ERR_INVALID_ARGUMENT;
    const size_t words = (n_bits + 63) / 64, alloc_words = words ? words : 1;
    cuda_msm_density *dn = (cuda_msm_density *)calloc(1, sizeof(*dn));
    uint64_t *hb = (uint64_t *)calloc(alloc_words, sizeof(uint64_t));
    uint32_t *hp = (uint32_t *)calloc(alloc_words, sizeof(uint32_t));
    if (!dn || !hb || !hp) {
        free(dn);
        free(hb);
        free(hp);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    /* The bits past n_bits are cleared, and prefix[w] counts the set bits
     * of the words before w. */
    size_t count = 0;
    for (size_t w = 0; w < words; w++) {
        uint64_t v = bits[w];
        if (w == words - 1 && n_bits % 64)
            v &= (UINT64_C(1) << (n_bits % 64)) - 1;
        hb[w] = v;
        hp[w] = (uint32_t)count;
        count += (size_t)__builtin_popcountll(v);
    }
    dn->device = ctx->device;
    dn->n_bits = n_bits;
    dn->count = count;
    int prev = 0;
    cuzk_status st = msm_on_device(ctx, &prev);
    CUDA_CHECK(st, cudaMalloc((void **)&dn->bits, alloc_words * sizeof(uint64_t)));
    CUDA_CHECK(st, cudaMalloc((void **)&dn->prefix, alloc_words * sizeof(uint32_t)));
    CUDA_CHECK(st,
               cudaMemcpy(dn->bits, hb, alloc_words * sizeof(uint64_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(st,
               cudaMemcpy(dn->prefix, hp, alloc_words * sizeof(uint32_t), cudaMemcpyHostToDevice));
    msm_off_device(prev);
    free(hb);
    free(hp);
    if (st != CUZK_OK) {
        cuda_msm_density_free(dn);
        return st;
    }
    *out = dn;
    return st;
}

void cuda_msm_density_free(cuda_msm_density *density)
{
    if (!density)
        return;
    int prev = 0;
    if (cudaGetDevice(&prev) == cudaSuccess && prev != density->device)
        (void)cudaSetDevice(density->device);
    if (density->bits)
        (void)cudaFree(density->bits);
    if (density->prefix)
        (void)cudaFree(density->prefix);
    (void)cudaSetDevice(prev);
    free(density);
}

size_t cuda_msm_density_count(const cuda_msm_density *density)
{
    return density ? density->count : 0;
}
