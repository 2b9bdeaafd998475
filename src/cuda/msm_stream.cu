/* MSMs over bases streamed from host memory (msm_stream.h): chunks through
 * double buffers, chunk i + 1's copy on a stream of its own while chunk i's
 * MSM runs on the context's stream. A plain MSM (the quotient's) adds every
 * chunk into one set of buckets planned for its whole size and reduces
 * once (msm_chunked_*: chunks each a Pippenger of their own cost 27 % more
 * at 2^27, in smaller windows and a reduction each); the split ones sum
 * their chunks' results on the host. */
#include <stdlib.h>
#include <string.h>

#include "cuda/msm_combine.h"
#include "cuda/msm_internal.cuh"
#include "cuda/msm_stream.h"

struct cuda_msm_streamer {
    cuda_msm_ctx *ctx;
    size_t capacity[CUDA_MSM_GROUP_COUNT]; /* points per chunk */
    size_t vcapacity;                      /* scalars per chunk, a multiple of 64 */
    cuda_msm_points *pts[CUDA_MSM_GROUP_COUNT][2];
    void *staging[2];
    cudaStream_t load;
    cudaEvent_t loaded[2], used[2];
    size_t device_bytes;
    bool per_chunk; /* plain MSMs a Pippenger per chunk (set_shared_buckets) */
};

typedef struct streamed_chunk {
    size_t p0, np;          /* its points: [p0, p0 + np) of the host array */
    size_t v0, nv;          /* its scalars: [v0, v0 + nv) */
    cuda_msm_density *dens; /* its slice of the bitmap, or NULL */
    cuda_msm_points *pts;   /* its points, when resident */
} streamed_chunk;

struct cuda_msm_streamed {
    cuda_msm_group group;
    const char *host;
    size_t host_bytes; /* of the points, as registered */
    const void *registered;
    size_t n_scalars;
    bool dense;
    size_t nchunks, nresident; /* the first nresident chunks' points stay on the device */
    streamed_chunk *chunk;
    void *results; /* a Jacobian point per chunk */
    size_t device_bytes;
};

/* The groups a streamer serves: BLS12-381's G1 and G2 (its buffers are
 * made for each). */
#define STREAMED_GROUPS 2

static size_t group_host_bytes(cuda_msm_group g)
{
    return cuda_msm_points_host_bytes(g, 1);
}

static size_t group_device_bytes(cuda_msm_group g)
{
    return g == CUDA_MSM_G1 ? CUDA_MSM_G1_AFFINE_BYTES : CUDA_MSM_G2_AFFINE_BYTES;
}

static size_t group_jac_bytes(cuda_msm_group g)
{
    return g == CUDA_MSM_G1 ? CUDA_MSM_G1_JAC_BYTES : CUDA_MSM_G2_JAC_BYTES;
}

/* G2 chunks hold half the points of G1's: the same bytes. */
static size_t chunk_of(size_t chunk_points, cuda_msm_group g)
{
    return g == CUDA_MSM_G1 ? chunk_points : (chunk_points + 1) / 2;
}

static size_t staging_bytes_for(size_t chunk_points)
{
    const size_t g1 = cuda_msm_points_host_bytes(CUDA_MSM_G1, chunk_of(chunk_points, CUDA_MSM_G1));
    const size_t g2 = cuda_msm_points_host_bytes(CUDA_MSM_G2, chunk_of(chunk_points, CUDA_MSM_G2));
    return g1 > g2 ? g1 : g2;
}

/* Points of group g that fit the bytes of a G1 chunk buffer (the G2
 * buffers are views of the G1 ones). */
static size_t chunk_of_buffer(size_t chunk_points, cuda_msm_group g)
{
    const size_t fit = chunk_points * group_device_bytes(CUDA_MSM_G1) / group_device_bytes(g);
    const size_t want = chunk_of(chunk_points, g);
    return want < fit ? want : fit;
}

size_t cuda_msm_streamer_bytes_for(size_t chunk_points)
{
    return 2 * staging_bytes_for(chunk_points) + 2 * chunk_points * group_device_bytes(CUDA_MSM_G1);
}

void cuda_msm_streamer_destroy(cuda_msm_streamer *s)
{
    if (!s)
        return;
    int prev = 0;
    (void)cudaGetDevice(&prev);
    (void)cudaSetDevice(s->ctx->device);
    if (s->load)
        (void)cudaStreamSynchronize(s->load);
    for (int i = 0; i < 2; i++) {
        for (int g = CUDA_MSM_GROUP_COUNT - 1; g >= 0; g--) /* the views before their owner */
            cuda_msm_points_free(s->pts[g][i]);
        if (s->staging[i])
            (void)cudaFree(s->staging[i]);
        if (s->loaded[i])
            (void)cudaEventDestroy(s->loaded[i]);
        if (s->used[i])
            (void)cudaEventDestroy(s->used[i]);
    }
    if (s->load)
        (void)cudaStreamDestroy(s->load);
    (void)cudaSetDevice(prev);
    free(s);
}

cuzk_status cuda_msm_streamer_create(cuda_msm_ctx *ctx, size_t chunk_points,
                                     cuda_msm_streamer **out)
{
    if (!ctx || !out || chunk_points < 128 || chunk_points > CUDA_MSM_MAX_N)
        return CUZK_ERR_INVALID_ARGUMENT;
    cuda_msm_streamer *s = (cuda_msm_streamer *)calloc(1, sizeof(*s));
    if (!s)
        return CUZK_ERR_OUT_OF_MEMORY;
    s->ctx = ctx;
    s->vcapacity = chunk_points / 64 * 64;
    int prev = 0;
    cuzk_status st = CUZK_OK;
    CUDA_CHECK(st, cudaGetDevice(&prev));
    CUDA_CHECK(st, cudaSetDevice(ctx->device));
    /* The loads convert each chunk's layout on the device: at the
     * context's priority, so that a high-priority context's chunks are not
     * held up behind another's kernels. */
    int priority = 0;
    CUDA_CHECK(st, cudaStreamGetPriority(ctx->stream, &priority));
    CUDA_CHECK(st, cudaStreamCreateWithPriority(&s->load, cudaStreamNonBlocking, priority));
    const size_t staging = staging_bytes_for(chunk_points);
    for (int i = 0; i < 2 && st == CUZK_OK; i++) {
        CUDA_CHECK(st, cudaEventCreateWithFlags(&s->loaded[i], cudaEventDisableTiming));
        CUDA_CHECK(st, cudaEventCreateWithFlags(&s->used[i], cudaEventDisableTiming));
        CUDA_CHECK(st, cudaMalloc(&s->staging[i], staging));
        /* One MSM runs at a time: a G2 chunk travels through the G1
         * chunk's buffer (G2 chunks hold half the points, 200 bytes each
         * against 104). */
        for (int g = 0; g < STREAMED_GROUPS; g++)
            s->capacity[g] = chunk_of_buffer(chunk_points, (cuda_msm_group)g);
        if (st == CUZK_OK)
            st = cuda_msm_points_alloc(ctx, CUDA_MSM_G1, s->capacity[CUDA_MSM_G1],
                                       &s->pts[CUDA_MSM_G1][i]);
        if (st == CUZK_OK)
            st = msm_points_view(s->pts[CUDA_MSM_G1][i], CUDA_MSM_G2, s->capacity[CUDA_MSM_G2],
                                 &s->pts[CUDA_MSM_G2][i]);
    }
    /* The "used" events start recorded: the first loads wait for nothing. */
    for (int i = 0; i < 2; i++)
        CUDA_CHECK(st, cudaEventRecord(s->used[i], s->load));
    (void)cudaSetDevice(prev);
    if (st != CUZK_OK) {
        cuda_msm_streamer_destroy(s);
        return st;
    }
    s->device_bytes = cuda_msm_streamer_bytes_for(chunk_points);
    *out = s;
    return CUZK_OK;
}

size_t cuda_msm_streamer_device_bytes(const cuda_msm_streamer *s)
{
    return s ? s->device_bytes : 0;
}

/* The chunks: consecutive ranges of at most `cap` points and `vcap`
 * scalars (a multiple of 64); with a bitmap, cut at multiples of 64
 * variables (a word of the bitmap). */
static cuzk_status cut_chunks(cuda_msm_streamed *b, const uint64_t *density, size_t num_points,
                              size_t cap, size_t vcap)
{
    const size_t n = b->n_scalars;
    /* at most one chunk per word, or per cap points */
    size_t max_chunks = density ? (n + 63) / 64 + 1 : num_points / cap + 1;
    b->chunk = (streamed_chunk *)calloc(max_chunks, sizeof(streamed_chunk));
    if (!b->chunk)
        return CUZK_ERR_OUT_OF_MEMORY;
    if (!density) {
        for (size_t p = 0; p < num_points; p += cap) {
            const size_t np = num_points - p < cap ? num_points - p : cap;
            b->chunk[b->nchunks++] = (streamed_chunk){.p0 = p, .np = np, .v0 = p, .nv = np};
        }
        return CUZK_OK;
    }
    const size_t words = (n + 63) / 64, cap_words = vcap / 64;
    size_t p = 0, w0 = 0, np = 0;
    for (size_t w = 0; w < words; w++) {
        uint64_t v = density[w];
        if (w == words - 1 && n % 64)
            v &= (UINT64_C(1) << (n % 64)) - 1;
        const size_t k = (size_t)__builtin_popcountll(v);
        if ((np + k > cap || w - w0 >= cap_words) && w > w0) {
            b->chunk[b->nchunks++] =
                (streamed_chunk){.p0 = p, .np = np, .v0 = w0 * 64, .nv = (w - w0) * 64};
            p += np;
            np = 0;
            w0 = w;
        }
        np += k;
    }
    if (w0 < words)
        b->chunk[b->nchunks++] =
            (streamed_chunk){.p0 = p, .np = np, .v0 = w0 * 64, .nv = n - w0 * 64};
    if (p + np != num_points)
        return CUZK_ERR_INVALID_ARGUMENT; /* the bitmap does not count the points */
    return CUZK_OK;
}

void cuda_msm_streamed_free(cuda_msm_streamed *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->nchunks; i++) {
        cuda_msm_density_free(b->chunk[i].dens);
        cuda_msm_points_free(b->chunk[i].pts);
    }
    if (b->registered)
        (void)cudaHostUnregister((void *)b->registered);
    free(b->chunk);
    free(b->results);
    free(b);
}

cuzk_status cuda_msm_streamed_create(cuda_msm_streamer *s, cuda_msm_group group,
                                     const void *host_points, size_t num_points,
                                     const uint64_t *density, size_t n_scalars,
                                     size_t resident_points, cuda_msm_streamed **out)
{
    if (!s || !out || (group != CUDA_MSM_G1 && group != CUDA_MSM_G2) ||
        (num_points && !host_points) || (!density && num_points != n_scalars) ||
        n_scalars > CUDA_MSM_MAX_N)
        return CUZK_ERR_INVALID_ARGUMENT;
    cuda_msm_streamed *b = (cuda_msm_streamed *)calloc(1, sizeof(*b));
    if (!b)
        return CUZK_ERR_OUT_OF_MEMORY;
    b->group = group;
    b->host = (const char *)host_points;
    b->n_scalars = n_scalars;
    b->dense = density != NULL;
    cuzk_status st = cut_chunks(b, density, num_points, s->capacity[group], s->vcapacity);
    if (st == CUZK_OK && !(b->results = calloc(b->nchunks + 1, group_jac_bytes(group))))
        st = CUZK_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < b->nchunks && st == CUZK_OK && density; i++) {
        streamed_chunk *c = &b->chunk[i];
        st = cuda_msm_density_upload(s->ctx, density + c->v0 / 64, c->nv, &c->dens);
        if (st == CUZK_OK)
            b->device_bytes += ((c->nv + 63) / 64) * (sizeof(uint64_t) + sizeof(uint32_t));
    }
    /* The leading chunks whose points fit resident_points stay on the
     * device: a prefix, so the streamed rest is one range of host memory. */
    for (size_t i = 0, kept = 0; i < b->nchunks && st == CUZK_OK; i++) {
        streamed_chunk *c = &b->chunk[i];
        if (c->np > resident_points - kept)
            break;
        kept += c->np;
        b->nresident = i + 1;
        if (!c->np)
            continue;
        st = cuda_msm_points_upload(s->ctx, group, b->host + c->p0 * group_host_bytes(group), c->np,
                                    &c->pts);
        if (st == CUZK_OK)
            b->device_bytes += c->np * group_device_bytes(group);
    }
    if (st != CUZK_OK) {
        cuda_msm_streamed_free(b);
        return st;
    }
    if (b->nresident == b->nchunks) {
        *out = b;
        return CUZK_OK;
    }
    /* The streamed range page-locked in place, for copies by DMA that
     * overlap the kernels. A range the driver refuses (already registered
     * by a neighbour, a read-only mapping it cannot lock) is copied through
     * its staging. */
    const size_t first = b->chunk[b->nresident].p0 * group_host_bytes(group);
    b->host_bytes = num_points * group_host_bytes(group) - first;
    if (b->host_bytes) {
        void *from = (void *)(b->host + first);
        if (cudaHostRegister(from, b->host_bytes, cudaHostRegisterDefault) == cudaSuccess ||
            cudaHostRegister(from, b->host_bytes, cudaHostRegisterReadOnly) == cudaSuccess)
            b->registered = from;
        else
            (void)cudaGetLastError();
    }
    *out = b;
    return CUZK_OK;
}

size_t cuda_msm_streamed_resident_points(const cuda_msm_streamed *b)
{
    size_t n = 0;
    for (size_t i = 0; b && i < b->nresident; i++)
        n += b->chunk[i].np;
    return n;
}

size_t cuda_msm_streamed_chunks(const cuda_msm_streamed *b)
{
    return b ? b->nchunks : 0;
}

size_t cuda_msm_streamed_device_bytes(const cuda_msm_streamed *b)
{
    return b ? b->device_bytes : 0;
}

/* Enqueues chunk c's load into buffer i, after the MSM that last read it. */
static cuzk_status load_chunk(cuda_msm_streamer *s, const cuda_msm_streamed *b,
                              const streamed_chunk *c, int i)
{
    cuzk_status st = CUZK_OK;
    CUDA_CHECK(st, cudaStreamWaitEvent(s->load, s->used[i], 0));
    if (st == CUZK_OK)
        st = cuda_msm_points_load_async(s->pts[b->group][i],
                                        b->host + c->p0 * group_host_bytes(b->group), c->np,
                                        s->staging[i], s->load);
    CUDA_CHECK(st, cudaEventRecord(s->loaded[i], s->load));
    return st;
}

cuzk_status cuda_msm_streamed_check_subgroup(cuda_msm_streamer *s, const cuda_msm_streamed *b,
                                             size_t *first_bad)
{
    if (!s || !b || !first_bad)
        return CUZK_ERR_INVALID_ARGUMENT;
    *first_bad = SIZE_MAX;
    int prev = 0;
    cuzk_status st = CUZK_OK;
    CUDA_CHECK(st, cudaGetDevice(&prev));
    CUDA_CHECK(st, cudaSetDevice(s->ctx->device));
    for (size_t i = 0; i < b->nchunks && st == CUZK_OK && *first_bad == SIZE_MAX; i++) {
        const streamed_chunk *c = &b->chunk[i];
        if (!c->np)
            continue;
        if (!c->pts) {
            st = load_chunk(s, b, c, 0);
            CUDA_CHECK(st, cudaStreamSynchronize(s->load));
        }
        size_t bad = SIZE_MAX;
        if (st == CUZK_OK)
            st =
                cuda_msm_points_check_subgroup(s->ctx, c->pts ? c->pts : s->pts[b->group][0], &bad);
        if (st == CUZK_OK && bad != SIZE_MAX)
            *first_bad = c->p0 + bad;
    }
    (void)cudaSetDevice(prev);
    return st;
}

void cuda_msm_streamer_set_shared_buckets(cuda_msm_streamer *s, bool shared)
{
    if (s)
        s->per_chunk = !shared;
}

/* Whether the MSM adds its chunks into one set of buckets. */
static bool run_chunked(const cuda_msm_streamer *s, const cuda_msm_streamed *b, bool split)
{
    return !split && !b->dense && !s->per_chunk;
}

static cuzk_status run_chunk(cuda_msm_streamer *s, const cuda_msm_streamed *b,
                             const streamed_chunk *c, int i, const struct fr *d_scalars, bool split,
                             unsigned window, void *out)
{
    cuda_msm_ctx *ctx = s->ctx;
    const cuda_msm_points *pts = c->pts ? c->pts : s->pts[b->group][i];
    const struct fr *sc = (const struct fr *)((const char *)d_scalars + c->v0 * CUDA_MSM_FR_BYTES);
    if (run_chunked(s, b, split))
        return msm_chunked_add(ctx, b->group, window, pts, sc, c->nv);
    if (b->dense)
        return cuda_msm_dense(ctx, b->group, pts, sc, c->nv, c->dens, out, ctx->stream);
    return split ? cuda_msm_split(ctx, b->group, pts, sc, c->nv, out, ctx->stream)
                 : cuda_msm(ctx, b->group, pts, sc, c->nv, out, ctx->stream);
}

cuzk_status cuda_msm_streamed_run(cuda_msm_streamer *s, const cuda_msm_streamed *b,
                                  const struct fr *d_scalars, size_t n_scalars, bool split,
                                  void *out)
{
    if (!s || !b || !out || n_scalars != b->n_scalars || (n_scalars && !d_scalars))
        return CUZK_ERR_INVALID_ARGUMENT;
    cuda_msm_ctx *ctx = s->ctx;
    int prev = 0;
    cuzk_status st = CUZK_OK;
    CUDA_CHECK(st, cudaGetDevice(&prev));
    CUDA_CHECK(st, cudaSetDevice(ctx->device));
    /* The chunks with points, the resident ones first: the copies of the
     * first two streamed ones run behind their arithmetic. The others add
     * nothing. */
    size_t *todo = (size_t *)malloc((b->nchunks + 1) * sizeof(size_t)), m = 0, nres = 0;
    if (!todo)
        st = CUZK_ERR_OUT_OF_MEMORY;
    for (int pass = 0; pass < 2 && st == CUZK_OK; pass++)
        for (size_t i = 0; i < b->nchunks; i++)
            if (b->chunk[i].np && (b->chunk[i].pts != NULL) == (pass == 0)) {
                todo[m++] = i;
                nres += pass == 0;
            }
    const size_t *streamed = todo + nres, nstreamed = m - nres;
    char *results = (char *)b->results;
    const size_t jb = group_jac_bytes(b->group);
    const bool chunked = run_chunked(s, b, split) && m > 0;
    unsigned window = 0;
    if (st == CUZK_OK && chunked) {
        size_t largest = 0;
        for (size_t j = 0; j < m; j++)
            if (b->chunk[todo[j]].nv > largest)
                largest = b->chunk[todo[j]].nv;
        st = msm_chunked_begin(ctx, b->group, n_scalars, largest, &window);
    }
    /* Streamed chunk q travels through buffer q % 2; its load waits for
     * the MSM that read chunk q − 2 there. */
    for (size_t q = 0; q < 2 && q < nstreamed && st == CUZK_OK; q++)
        st = load_chunk(s, b, &b->chunk[streamed[q]], (int)q);
    for (size_t j = 0; j < m && st == CUZK_OK; j++) {
        const bool copied = j >= nres;
        const size_t q = j - nres;
        const int i = copied ? (int)(q % 2) : 0;
        if (copied)
            CUDA_CHECK(st, cudaStreamWaitEvent(ctx->stream, s->loaded[i], 0));
        if (st == CUZK_OK)
            st = run_chunk(s, b, &b->chunk[todo[j]], i, d_scalars, split, window, results + j * jb);
        if (copied) {
            CUDA_CHECK(st, cudaEventRecord(s->used[i], ctx->stream));
            if (st == CUZK_OK && q + 2 < nstreamed)
                st = load_chunk(s, b, &b->chunk[streamed[q + 2]], i);
        }
    }
    if (st == CUZK_OK && chunked)
        st = msm_chunked_end(ctx, b->group, window, out);
    if (st == CUZK_OK)
        st = cuda_msm_wait(ctx);
    else
        (void)cudaStreamSynchronize(s->load);
    if (st == CUZK_OK && !chunked)
        msm_jac_sum_host(b->group, results, m, out);
    free(todo);
    (void)cudaSetDevice(prev);
    return st;
}
