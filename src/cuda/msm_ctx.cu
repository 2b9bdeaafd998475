/* The device MSM's C API (msm.h): contexts and their scratch, resident
 * points and densities, window planning, and the MSM entry points, which
 * prepare the scalars (msm_scalars.cu) and hand over to the group's
 * Pippenger (msm_g1_*.cu, msm_g2_*.cu). */

#include <stdlib.h>
#include <string.h>

#include "cuda/device.h"
#include "cuda/msm_combine.h"
#include "cuda/msm_internal.cuh"

const msm_group_ops *msm_group_ops_of(cuda_msm_group g)
{
    switch (g) {
    case CUDA_MSM_G1:
        return &msm_g1_ops;
    case CUDA_MSM_G2:
        return &msm_g2_ops;
    case CUDA_MSM_BN254_G1:
        return &msm_bn254_g1_ops;
    case CUDA_MSM_BN254_G2:
        return &msm_bn254_g2_ops;
    default:
        return NULL;
    }
}

static const msm_group_ops *msm_ops(cuda_msm_group g)
{
    return msm_group_ops_of(g);
}

static bool msm_group_ok(cuda_msm_group g)
{
    return msm_group_ops_of(g) != NULL;
}

/* ---- device selection ------------------------------------------------------ */

/* Makes `device` current for the duration of an API call. */
typedef struct msm_device_scope {
    int prev;
    bool switched;
} msm_device_scope;

static cuzk_status msm_scope_enter(msm_device_scope *s, int device)
{
    cuzk_status st = CUZK_OK;
    s->switched = false;
    CUDA_CHECK(st, cudaGetDevice(&s->prev));
    if (st == CUZK_OK && s->prev != device) {
        CUDA_CHECK(st, cudaSetDevice(device));
        s->switched = st == CUZK_OK;
    }
    return st;
}

static void msm_scope_leave(const msm_device_scope *s)
{
    if (s->switched)
        (void)cudaSetDevice(s->prev);
}

/* ---- planning -------------------------------------------------------------- */

static unsigned msm_nwin(unsigned c)
{
    return (256 + c - 1) / c;
}

static unsigned msm_log2(uint32_t x)
{
    unsigned l = 0;
    while ((1u << l) < x)
        l++;
    return l;
}

/* The window size minimizing nwin·(n + cost·2^(c−1)) mixed additions: the
 * accumulation (one addition per point and window) against the buckets. */
static unsigned msm_auto_c(const msm_group_ops *ops, size_t n)
{
    unsigned best = CUDA_MSM_MIN_WINDOW_BITS;
    double best_cost = -1.0;
    for (unsigned c = CUDA_MSM_MIN_WINDOW_BITS; c <= ops->max_auto_c; c++) {
        const double cost =
            (double)msm_nwin(c) * ((double)n + ops->bucket_cost * (double)(1u << (c - 1)));
        if (best_cost < 0 || cost < best_cost) {
            best_cost = cost;
            best = c;
        }
    }
    return best;
}

static void msm_plan_make(msm_plan *pl, unsigned c, size_t n, size_t batch_entries)
{
    memset(pl, 0, sizeof(*pl));
    pl->c = c;
    pl->nwin = msm_nwin(c);
    pl->M = 1u << (c - 1);
    size_t wb = batch_entries / (n ? n : 1);
    if (wb < 1)
        wb = 1;
    if (wb > pl->nwin)
        wb = pl->nwin;
    pl->nbatch = (unsigned)((pl->nwin + wb - 1) / wb);
    pl->wb_max = (pl->nwin + pl->nbatch - 1) / pl->nbatch;
    pl->S = pl->M < MSM_SEG_MAX ? pl->M : MSM_SEG_MAX;
    pl->L = pl->M / pl->S;
    pl->log_part = pl->S >= MSM_RED_PART * MSM_RED_BLOCK ? MSM_LOG_RED_PART : 0;
    pl->P = pl->S >> pl->log_part;
    pl->B = pl->P < MSM_RED_BLOCK ? pl->P : MSM_RED_BLOCK;
    pl->L2 = pl->P / pl->B;
    pl->log_l = msm_log2(pl->L);
    pl->log_l2 = msm_log2(pl->L2);
}

/* Levels 1 and 1.5 of the reduction: (acc, run) per segment, then (Y, R)
 * per part when there are parts. */
static size_t msm_seg_bytes(const msm_group_ops *ops, const msm_plan *pl)
{
    const size_t per_window = pl->S + (pl->log_part ? pl->P : 0);
    return 2 * (size_t)pl->nwin * per_window * ops->xyzz_bytes;
}

static bool msm_plan_fits(const cuda_msm_ctx *ctx, const msm_group_ops *ops, const msm_plan *pl)
{
    const size_t buckets = (size_t)pl->nwin * pl->M;
    return buckets * ops->xyzz_bytes <= ctx->cap_bucket_bytes &&
           (size_t)pl->wb_max * pl->M + 1 <= ctx->cap_keys &&
           msm_seg_bytes(ops, pl) <= ctx->cap_seg_bytes &&
           2 * (size_t)pl->nwin * ops->xyzz_bytes <= ctx->cap_win_bytes;
}

static unsigned msm_ctx_c(const cuda_msm_ctx *ctx, cuda_msm_group g, size_t n)
{
    return ctx->force_c[g] ? ctx->force_c[g] : msm_auto_c(msm_ops(g), n);
}

/* ---- contexts -------------------------------------------------------------- */

static size_t msm_max(size_t a, size_t b)
{
    return a > b ? a : b;
}

/* cudaMalloc of at least one 256-byte line, counted. */
static cuzk_status msm_alloc(cuda_msm_ctx *ctx, void **p, size_t bytes)
{
    cuzk_status st = CUZK_OK;
    bytes = msm_max(bytes, 256);
    CUDA_CHECK(st, cudaMalloc(p, bytes));
    if (st == CUZK_OK)
        ctx->device_bytes += bytes;
    return st;
}

/* Capacities: every window size up to the largest the context may use,
 * at its group's max_n (smaller n need no more, per window size). */
static cuzk_status msm_ctx_sizes(cuda_msm_ctx *ctx, const cuda_msm_config *cfg, size_t *pieces,
                                 size_t *partials)
{
    *pieces = *partials = 0;
    for (int g = 0; g < CUDA_MSM_GROUP_COUNT; g++) {
        if (!ctx->max_n[g])
            continue;
        const msm_group_ops *ops = msm_ops((cuda_msm_group)g);
        cuzk_status st = ops->geometry(ctx->sm_count, &ctx->acc_threads[g], &ctx->ones_blocks[g]);
        if (st != CUZK_OK)
            return st;
        if (cfg->acc_reserve_blocks) {
            const unsigned per_sm = ctx->acc_threads[g] / ((unsigned)ctx->sm_count * MSM_ACC_BLOCK);
            const unsigned keep =
                per_sm > cfg->acc_reserve_blocks ? per_sm - cfg->acc_reserve_blocks : 1u;
            ctx->acc_threads[g] = (unsigned)ctx->sm_count * keep * MSM_ACC_BLOCK;
        }
        *pieces = msm_max(*pieces, 2 * (size_t)ctx->acc_threads[g] * ops->xyzz_bytes);
        *partials = msm_max(*partials, (size_t)ctx->ones_blocks[g] * ops->xyzz_bytes);
        unsigned top = msm_auto_c(ops, ctx->max_n[g]);
        if (cfg->max_window_bits > top)
            top = cfg->max_window_bits;
        if (cfg->chunked_window_bits[g] > top)
            top = cfg->chunked_window_bits[g];
        for (unsigned c = CUDA_MSM_MIN_WINDOW_BITS; c <= top; c++) {
            msm_plan pl;
            msm_plan_make(&pl, c, ctx->max_n[g], ctx->batch_entries);
            const size_t buckets = (size_t)pl.nwin * pl.M;
            ctx->cap_bucket_bytes = msm_max(ctx->cap_bucket_bytes, buckets * ops->xyzz_bytes);
            ctx->cap_keys = msm_max(ctx->cap_keys, buckets + 1);
            ctx->cap_seg_bytes = msm_max(ctx->cap_seg_bytes, msm_seg_bytes(ops, &pl));
            ctx->cap_win_bytes = msm_max(ctx->cap_win_bytes, 2 * (size_t)pl.nwin * ops->xyzz_bytes);
        }
    }
    return msm_scan_bytes(ctx->cap_keys, &ctx->cap_cub_bytes);
}

static void msm_ctx_free_buffers(cuda_msm_ctx *ctx)
{
    void *bufs[] = {ctx->stage,    ctx->canon,   ctx->pidx,   ctx->counts,  ctx->vals,
                    ctx->off,      ctx->buckets, ctx->pieces, ctx->segs,    ctx->wins,
                    ctx->partials, ctx->ones,    ctx->result, ctx->cub_temp};
    for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++)
        if (bufs[i])
            (void)cudaFree(bufs[i]);
}

void cuda_msm_ctx_destroy(cuda_msm_ctx *ctx)
{
    if (!ctx)
        return;
    msm_device_scope scope;
    if (msm_scope_enter(&scope, ctx->device) != CUZK_OK)
        return;
    if (ctx->stream)
        (void)cudaStreamSynchronize(ctx->stream);
    if (ctx->done_recorded)
        (void)cudaEventSynchronize(ctx->done);
    msm_ctx_free_buffers(ctx);
    cuda_host_free(ctx->host_wins);
    cuda_host_free(ctx->host_counts);
    if (ctx->done)
        (void)cudaEventDestroy(ctx->done);
    if (ctx->counted)
        (void)cudaEventDestroy(ctx->counted);
    if (ctx->stream)
        (void)cudaStreamDestroy(ctx->stream);
    msm_scope_leave(&scope);
    free(ctx);
}

cuzk_status cuda_msm_ctx_create(cuda_msm_ctx **out, const cuda_msm_config *cfg)
{
    if (!out || !cfg ||
        (cfg->max_window_bits && (cfg->max_window_bits < CUDA_MSM_MIN_WINDOW_BITS ||
                                  cfg->max_window_bits > CUDA_MSM_MAX_WINDOW_BITS)))
        return CUZK_ERR_INVALID_ARGUMENT;
    size_t any_n = 0;
    for (int g = 0; g < CUDA_MSM_GROUP_COUNT; g++) {
        if (cfg->max_n[g] > CUDA_MSM_MAX_N)
            return CUZK_ERR_INVALID_ARGUMENT;
        any_n |= cfg->max_n[g];
    }
    if (!any_n)
        return CUZK_ERR_INVALID_ARGUMENT;
    cuda_msm_ctx *ctx = (cuda_msm_ctx *)calloc(1, sizeof(*ctx));
    if (!ctx)
        return CUZK_ERR_OUT_OF_MEMORY;
    ctx->device = cfg->device;
    msm_device_scope scope;
    cuzk_status st = msm_scope_enter(&scope, cfg->device);
    if (st != CUZK_OK) {
        free(ctx);
        return st;
    }
    CUDA_CHECK(st,
               cudaDeviceGetAttribute(&ctx->sm_count, cudaDevAttrMultiProcessorCount, cfg->device));
    int least = 0, greatest = 0;
    if (cfg->high_priority)
        CUDA_CHECK(st, cudaDeviceGetStreamPriorityRange(&least, &greatest));
    CUDA_CHECK(st, cudaStreamCreateWithPriority(&ctx->stream, cudaStreamNonBlocking,
                                                cfg->high_priority ? greatest : least));
    CUDA_CHECK(st, cudaEventCreateWithFlags(&ctx->done, cudaEventDisableTiming));
    CUDA_CHECK(st, cudaEventCreateWithFlags(&ctx->counted, cudaEventDisableTiming));
    ctx->last = ctx->stream;
    for (int g = 0; g < CUDA_MSM_GROUP_COUNT; g++) {
        ctx->max_n[g] = cfg->max_n[g];
        ctx->max_n_all = msm_max(ctx->max_n_all, cfg->max_n[g]);
    }
    ctx->batch_entries =
        cfg->max_batch_entries ? cfg->max_batch_entries : CUDA_MSM_DEFAULT_BATCH_ENTRIES;
    /* No batch needs more than every window of the largest MSM. */
    const size_t all_windows = ctx->max_n_all * msm_nwin(CUDA_MSM_MIN_WINDOW_BITS);
    if (ctx->batch_entries > all_windows)
        ctx->batch_entries = all_windows;
    ctx->batch_entries = msm_max(ctx->batch_entries, ctx->max_n_all);
    size_t pieces = 0, partials = 0;
    if (st == CUZK_OK)
        st = msm_ctx_sizes(ctx, cfg, &pieces, &partials);
    /* BLS12-381's G2 has the largest points of all groups. */
    const size_t n_all = ctx->max_n_all, xyzz_max = msm_g2_ops.xyzz_bytes;
    if (st == CUZK_OK)
        st = msm_alloc(ctx, (void **)&ctx->stage, n_all * CUDA_MSM_FR_BYTES);
    if (st == CUZK_OK)
        st = msm_alloc(ctx, (void **)&ctx->canon, n_all * CUDA_MSM_FR_BYTES);
    if (st == CUZK_OK)
        st = msm_alloc(ctx, (void **)&ctx->pidx, n_all * sizeof(uint32_t));
    if (st == CUZK_OK)
        st = msm_alloc(ctx, (void **)&ctx->counts, 2 * sizeof(uint32_t));
    if (st == CUZK_OK)
        st = msm_alloc(ctx, (void **)&ctx->vals, ctx->batch_entries * sizeof(uint32_t));
    if (st == CUZK_OK)
        st = msm_alloc(ctx, (void **)&ctx->off, ctx->cap_keys * sizeof(uint32_t));
    if (st == CUZK_OK)
        st = msm_alloc(ctx, &ctx->buckets, ctx->cap_bucket_bytes);
    if (st == CUZK_OK)
        st = msm_alloc(ctx, &ctx->pieces, pieces);
    if (st == CUZK_OK)
        st = msm_alloc(ctx, &ctx->segs, ctx->cap_seg_bytes);
    if (st == CUZK_OK)
        st = msm_alloc(ctx, &ctx->wins, ctx->cap_win_bytes);
    if (st == CUZK_OK)
        st = msm_alloc(ctx, &ctx->partials, partials);
    if (st == CUZK_OK)
        st = msm_alloc(ctx, &ctx->ones, xyzz_max);
    if (st == CUZK_OK)
        st = msm_alloc(ctx, &ctx->result, CUDA_MSM_G2_JAC_BYTES);
    if (st == CUZK_OK)
        st = msm_alloc(ctx, &ctx->cub_temp, ctx->cap_cub_bytes);
    if (st == CUZK_OK) {
        ctx->host_wins = cuda_host_alloc(ctx->cap_win_bytes + xyzz_max);
        ctx->host_counts = (uint32_t *)cuda_host_alloc(2 * sizeof(uint32_t));
        if (!ctx->host_wins || !ctx->host_counts)
            st = CUZK_ERR_OUT_OF_MEMORY;
    }
    msm_scope_leave(&scope);
    if (st != CUZK_OK) {
        cuda_msm_ctx_destroy(ctx);
        return st;
    }
    *out = ctx;
    return CUZK_OK;
}

size_t cuda_msm_ctx_device_bytes(const cuda_msm_ctx *ctx)
{
    return ctx ? ctx->device_bytes : 0;
}

cuzk_status cuda_msm_wait(cuda_msm_ctx *ctx)
{
    if (!ctx)
        return CUZK_ERR_INVALID_ARGUMENT;
    msm_device_scope scope;
    cuzk_status st = msm_scope_enter(&scope, ctx->device);
    CUDA_CHECK(st, cudaStreamSynchronize(ctx->last));
    msm_scope_leave(&scope);
    return st;
}

cuzk_status cuda_msm_set_window_bits(cuda_msm_ctx *ctx, cuda_msm_group group, unsigned c)
{
    if (!ctx || !msm_group_ok(group) ||
        (c && (c < CUDA_MSM_MIN_WINDOW_BITS || c > CUDA_MSM_MAX_WINDOW_BITS)))
        return CUZK_ERR_INVALID_ARGUMENT;
    ctx->force_c[group] = c;
    return CUZK_OK;
}

unsigned cuda_msm_window_bits(const cuda_msm_ctx *ctx, cuda_msm_group group, size_t n)
{
    if (!ctx || !msm_group_ok(group))
        return 0;
    return msm_ctx_c(ctx, group, n);
}

const char *cuda_msm_last_error(void)
{
    return cuda_check_last();
}

/* ---- the MSM ---------------------------------------------------------------- */

/* Calls on stream s start after the context's last call, on whatever
 * stream it ran. */
static cuzk_status msm_order_after_last(cuda_msm_ctx *ctx, cudaStream_t s)
{
    cuzk_status st = CUZK_OK;
    if (ctx->done_recorded && s != ctx->last)
        CUDA_CHECK(st, cudaStreamWaitEvent(s, ctx->done, 0));
    return st;
}

/* The end of a call on stream s: ctx->done recorded after it (st: how the
 * call went so far). */
static cuzk_status msm_mark_done(cuda_msm_ctx *ctx, cudaStream_t s, cuzk_status st)
{
    CUDA_CHECK(st, cudaEventRecord(ctx->done, s));
    if (st == CUZK_OK) {
        ctx->done_recorded = true;
        ctx->last = s;
    }
    return st;
}

/* Scalars in device (or managed) memory are read where they are; anything
 * else is copied to the context's staging buffer first. */
static cuzk_status msm_device_scalars(cuda_msm_ctx *ctx, const void *scalars, size_t n,
                                      cudaStream_t stream, const void **d_scalars)
{
    cuzk_status st = CUZK_OK;
    cudaPointerAttributes attr;
    memset(&attr, 0, sizeof(attr));
    if (cudaPointerGetAttributes(&attr, scalars) != cudaSuccess) {
        (void)cudaGetLastError(); /* unknown to CUDA: plain host memory */
        attr.type = cudaMemoryTypeUnregistered;
    }
    if (attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged) {
        if (attr.type == cudaMemoryTypeDevice && attr.device != ctx->device)
            return CUZK_ERR_INVALID_ARGUMENT;
        *d_scalars = scalars;
        return st;
    }
    CUDA_CHECK(st, cudaMemcpyAsync(ctx->stage, scalars, n * CUDA_MSM_FR_BYTES,
                                   cudaMemcpyHostToDevice, stream));
    *d_scalars = ctx->stage;
    return st;
}

static void CUDART_CB msm_combine_callback(void *arg)
{
    msm_combine_host((const msm_combine_job *)arg);
    free(arg);
}

/* Step 6 (msm_internal.cuh): the windows' pairs and the ones' sum to
 * ctx->host_wins, then the host function that combines them into out. The
 * job is the callback's own copy: the next call may be queued before this
 * one's callback runs. host_wins is reused safely because calls are
 * ordered (one stream, or the wait on ctx->done). */
static cuzk_status msm_finish_on_host(cuda_msm_ctx *ctx, cuda_msm_group g, const msm_plan *pl,
                                      bool with_ones, void *out, cudaStream_t s)
{
    cuzk_status st = CUZK_OK;
    const msm_group_ops *ops = msm_ops(g);
    const size_t win_bytes = 2 * (size_t)pl->nwin * ops->xyzz_bytes;
    CUDA_CHECK(st,
               cudaMemcpyAsync(ctx->host_wins, ctx->wins, win_bytes, cudaMemcpyDeviceToHost, s));
    if (with_ones)
        CUDA_CHECK(st, cudaMemcpyAsync((char *)ctx->host_wins + win_bytes, ctx->ones,
                                       ops->xyzz_bytes, cudaMemcpyDeviceToHost, s));
    if (st != CUZK_OK)
        return st;
    msm_combine_job *job = (msm_combine_job *)malloc(sizeof(*job));
    if (!job)
        return CUZK_ERR_OUT_OF_MEMORY;
    job->group = g;
    job->nwin = pl->nwin;
    job->c = pl->c;
    job->pair_shift = pl->log_l + pl->log_part + pl->log_l2;
    job->with_ones = with_ones;
    job->wins = ctx->host_wins;
    job->out = out;
    CUDA_CHECK(st, cudaLaunchHostFunc(s, msm_combine_callback, job));
    if (st != CUZK_OK)
        free(job);
    return st;
}

/* The split's count of Pippenger entries (scalars other than 0 and 1) to
 * page-locked host memory, and an event after it: the ones' sum is queued
 * behind it, so the device works while the host waits for the count. */
static cuzk_status msm_count_entries(cuda_msm_ctx *ctx, cudaStream_t s)
{
    cuzk_status st = CUZK_OK;
    CUDA_CHECK(st, cudaMemcpyAsync(ctx->host_counts, ctx->counts, 2 * sizeof(uint32_t),
                                   cudaMemcpyDeviceToHost, s));
    CUDA_CHECK(st, cudaEventRecord(ctx->counted, s));
    return st;
}

/* The split's Pippenger planned for its entries rather than for n. A
 * smaller n never asks for a larger window (msm_auto_c's choice grows
 * with n), so the plan fits the scratch that fits n; *n_upper becomes the
 * count. */
static cuzk_status msm_replan_split(cuda_msm_ctx *ctx, cuda_msm_group g, msm_plan *pl,
                                    size_t *n_upper)
{
    cuzk_status st = CUZK_OK;
    CUDA_CHECK(st, cudaEventSynchronize(ctx->counted));
    if (st != CUZK_OK)
        return st;
    const size_t entries = ctx->host_counts[0];
    if (entries > *n_upper)
        return CUZK_ERR_INTERNAL; /* the classification wrote past its bound */
    msm_plan_make(pl, msm_ctx_c(ctx, g, entries), entries, ctx->batch_entries);
    if (!msm_plan_fits(ctx, msm_ops(g), pl))
        return ctx->force_c[g] ? CUZK_ERR_INVALID_ARGUMENT : CUZK_ERR_INTERNAL;
    *n_upper = entries;
    return st;
}

/* The body of every MSM entry point. split: the 0/1/other split (with the
 * density when given); otherwise plain Pippenger over n points. */
static cuzk_status msm_run(cuda_msm_ctx *ctx, cuda_msm_group g, const cuda_msm_points *points,
                           const void *scalars, size_t n, bool split,
                           const cuda_msm_density *density, void *out, cudaStream_t stream)
{
    if (!ctx || !out || !msm_group_ok(g) || n > ctx->max_n[g])
        return CUZK_ERR_INVALID_ARGUMENT;
    if (n && (!points || !scalars || points->group != g || points->device != ctx->device))
        return CUZK_ERR_INVALID_ARGUMENT;
    size_t n_upper = n; /* at most this many Pippenger entries */
    if (density) {
        if (density->device != ctx->device || density->n_bits != n ||
            (n && density->count > points->n))
            return CUZK_ERR_INVALID_ARGUMENT;
        n_upper = density->count;
    } else if (n && n > points->n) {
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    const msm_group_ops *ops = msm_ops(g);
    msm_plan pl;
    msm_plan_make(&pl, msm_ctx_c(ctx, g, n_upper), n_upper, ctx->batch_entries);
    if (!msm_plan_fits(ctx, ops, &pl))
        return ctx->force_c[g] ? CUZK_ERR_INVALID_ARGUMENT : CUZK_ERR_INTERNAL;

    msm_device_scope scope;
    cuzk_status st = msm_scope_enter(&scope, ctx->device);
    if (st != CUZK_OK)
        return st;
    cudaStream_t s = stream ? stream : ctx->stream;
    if (st == CUZK_OK)
        st = msm_order_after_last(ctx, s);
    if (st == CUZK_OK && n == 0) {
        st = ops->set_infinity(ctx, s);
    } else if (st == CUZK_OK) {
        const void *d_scalars = NULL;
        st = msm_device_scalars(ctx, scalars, n, s, &d_scalars);
        if (st == CUZK_OK && !split)
            st = msm_scalars_canonical(ctx, msm_group_bn254(g), d_scalars, n, s);
        if (st == CUZK_OK && split)
            st = msm_scalars_classify(ctx, msm_group_bn254(g), d_scalars, n, density, s);
        if (st == CUZK_OK && split)
            st = msm_count_entries(ctx, s);
        if (st == CUZK_OK && split)
            st = ops->ones_sum(ctx, points->d, n_upper, s);
        if (st == CUZK_OK && split)
            st = msm_replan_split(ctx, g, &pl, &n_upper);
        if (st == CUZK_OK)
            st = ops->pippenger(ctx, &pl, points->d, split ? ctx->pidx : NULL, n_upper, 0u, s);
        if (st == CUZK_OK)
            st = msm_finish_on_host(ctx, g, &pl, split, out, s);
    }
    if (n == 0)
        CUDA_CHECK(st,
                   cudaMemcpyAsync(out, ctx->result, ops->jac_bytes, cudaMemcpyDeviceToHost, s));
    st = msm_mark_done(ctx, s, st);
    msm_scope_leave(&scope);
    return st;
}

/* ---- a plain MSM over chunks (msm_internal.cuh) ------------------------------ */

/* The largest window size up to the one n_total would get whose plan, for
 * chunks of `chunk` scalars, fits the context's scratch; 0 when none. */
static unsigned msm_chunked_c(const cuda_msm_ctx *ctx, cuda_msm_group g, size_t n_total,
                              size_t chunk)
{
    const msm_group_ops *ops = msm_ops(g);
    for (unsigned c = msm_ctx_c(ctx, g, n_total); c >= CUDA_MSM_MIN_WINDOW_BITS; c--) {
        msm_plan pl;
        msm_plan_make(&pl, c, chunk, ctx->batch_entries);
        if (msm_plan_fits(ctx, ops, &pl))
            return c;
    }
    return 0;
}

cuzk_status msm_chunked_begin(cuda_msm_ctx *ctx, cuda_msm_group g, size_t n_total, size_t chunk,
                              unsigned *c)
{
    if (!ctx || !c || !msm_group_ok(g) || !chunk || chunk > ctx->max_n[g] || n_total < chunk)
        return CUZK_ERR_INVALID_ARGUMENT;
    *c = msm_chunked_c(ctx, g, n_total, chunk);
    if (!*c)
        return CUZK_ERR_INTERNAL;
    msm_plan pl;
    msm_plan_make(&pl, *c, chunk, ctx->batch_entries);
    cudaStream_t s = ctx->stream;
    cuzk_status st = msm_order_after_last(ctx, s);
    if (st == CUZK_OK)
        st = msm_ops(g)->clear(ctx, &pl, s);
    return st;
}

cuzk_status msm_chunked_add(cuda_msm_ctx *ctx, cuda_msm_group g, unsigned c,
                            const cuda_msm_points *points, const void *d_scalars, size_t n)
{
    if (!ctx || !msm_group_ok(g) || n > ctx->max_n[g] || c < CUDA_MSM_MIN_WINDOW_BITS)
        return CUZK_ERR_INVALID_ARGUMENT;
    if (n == 0)
        return CUZK_OK;
    if (!points || !d_scalars || points->group != g || points->device != ctx->device ||
        n > points->n)
        return CUZK_ERR_INVALID_ARGUMENT;
    const msm_group_ops *ops = msm_ops(g);
    msm_plan pl;
    msm_plan_make(&pl, c, n, ctx->batch_entries);
    if (!msm_plan_fits(ctx, ops, &pl))
        return CUZK_ERR_INTERNAL;
    cudaStream_t s = ctx->stream;
    cuzk_status st = msm_order_after_last(ctx, s);
    if (st == CUZK_OK)
        st = msm_scalars_canonical(ctx, msm_group_bn254(g), d_scalars, n, s);
    if (st == CUZK_OK)
        st = ops->pippenger(ctx, &pl, points->d, NULL, n, MSM_PIP_ADD | MSM_PIP_NO_REDUCE, s);
    return st;
}

cuzk_status msm_chunked_end(cuda_msm_ctx *ctx, cuda_msm_group g, unsigned c, void *out)
{
    if (!ctx || !out || !msm_group_ok(g) || c < CUDA_MSM_MIN_WINDOW_BITS)
        return CUZK_ERR_INVALID_ARGUMENT;
    msm_plan pl;
    msm_plan_make(&pl, c, ctx->max_n[g], ctx->batch_entries);
    cudaStream_t s = ctx->stream;
    cuzk_status st = msm_order_after_last(ctx, s);
    if (st == CUZK_OK)
        st = msm_ops(g)->pippenger(ctx, &pl, NULL, NULL, 0, MSM_PIP_REDUCE_ONLY, s);
    if (st == CUZK_OK)
        st = msm_finish_on_host(ctx, g, &pl, false, out, s);
    return msm_mark_done(ctx, s, st);
}

cuzk_status cuda_msm(cuda_msm_ctx *ctx, cuda_msm_group group, const cuda_msm_points *points,
                     const void *scalars, size_t n, void *out, struct CUstream_st *stream)
{
    return msm_run(ctx, group, points, scalars, n, false, NULL, out, stream);
}

cuzk_status cuda_msm_split(cuda_msm_ctx *ctx, cuda_msm_group group, const cuda_msm_points *points,
                           const void *scalars, size_t n, void *out, struct CUstream_st *stream)
{
    return msm_run(ctx, group, points, scalars, n, true, NULL, out, stream);
}

cuzk_status cuda_msm_dense(cuda_msm_ctx *ctx, cuda_msm_group group, const cuda_msm_points *points,
                           const void *scalars, size_t n_scalars, const cuda_msm_density *density,
                           void *out, struct CUstream_st *stream)
{
    return msm_run(ctx, group, points, scalars, n_scalars, true, density, out, stream);
}

cuzk_status cuda_msm_g1(cuda_msm_ctx *ctx, const cuda_msm_points *points, const struct fr *scalars,
                        size_t n, struct g1_jac *out, struct CUstream_st *stream)
{
    return msm_run(ctx, CUDA_MSM_G1, points, scalars, n, false, NULL, out, stream);
}

cuzk_status cuda_msm_g2(cuda_msm_ctx *ctx, const cuda_msm_points *points, const struct fr *scalars,
                        size_t n, struct g2_jac *out, struct CUstream_st *stream)
{
    return msm_run(ctx, CUDA_MSM_G2, points, scalars, n, false, NULL, out, stream);
}

cuzk_status cuda_msm_g1_split(cuda_msm_ctx *ctx, const cuda_msm_points *points,
                              const struct fr *scalars, size_t n, struct g1_jac *out,
                              struct CUstream_st *stream)
{
    return msm_run(ctx, CUDA_MSM_G1, points, scalars, n, true, NULL, out, stream);
}

cuzk_status cuda_msm_g2_split(cuda_msm_ctx *ctx, const cuda_msm_points *points,
                              const struct fr *scalars, size_t n, struct g2_jac *out,
                              struct CUstream_st *stream)
{
    return msm_run(ctx, CUDA_MSM_G2, points, scalars, n, true, NULL, out, stream);
}

cuzk_status cuda_msm_g1_dense(cuda_msm_ctx *ctx, const cuda_msm_points *points,
                              const struct fr *scalars, size_t n_scalars,
                              const cuda_msm_density *density, struct g1_jac *out,
                              struct CUstream_st *stream)
{
    return msm_run(ctx, CUDA_MSM_G1, points, scalars, n_scalars, true, density, out, stream);
}

cuzk_status cuda_msm_g2_dense(cuda_msm_ctx *ctx, const cuda_msm_points *points,
                              const struct fr *scalars, size_t n_scalars,
                              const cuda_msm_density *density, struct g2_jac *out,
                              struct CUstream_st *stream)
{
    return msm_run(ctx, CUDA_MSM_G2, points, scalars, n_scalars, true, density, out, stream);
}

cuzk_status cuda_msm_scalars_fill(cuda_msm_ctx *ctx, struct fr *device_scalars, size_t n,
                                  uint64_t seed, cuda_msm_scalar_kind kind,
                                  struct CUstream_st *stream)
{
    if (!ctx || (n && !device_scalars) || n > CUDA_MSM_MAX_N ||
        (unsigned)kind > (unsigned)CUDA_MSM_SCALARS_BN254_ZERO_ONE)
        return CUZK_ERR_INVALID_ARGUMENT;
    if (n == 0)
        return CUZK_OK;
    msm_device_scope scope;
    cuzk_status st = msm_scope_enter(&scope, ctx->device);
    if (st == CUZK_OK)
        st = msm_scalars_fill(ctx, device_scalars, n, seed, (int)kind,
                              stream ? stream : ctx->stream);
    msm_scope_leave(&scope);
    return st;
}
