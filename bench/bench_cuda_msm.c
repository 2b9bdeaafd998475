/* Device MSM timings (src/cuda/msm.h): one JSON line per case,
 *   {"bench":"cuda_msm","curve":"bls12-381|bn254","group":"g1|g2","kind":"random|01","log_n":k,
 *    "median_ms":..,"min_ms":..,"max_ms":..,"runs":..,"checked":..,
 *    "check":"cpu|dlog","c":..,"floor_ms":..,"device":..,"commit":..}
 * Cases: G1 random at 2^20, 2^22, 2^24, 2^26; G1 0/1 (the split) at 2^26;
 * G2 random at 2^20, 2^22. Points and scalars are made on the device and
 * stay there (points i = [a + i·d]·G, random a, d); each case is warmed up
 * once and timed with CUDA events over `runs` calls (the timed region is the
 * whole call: scalar preparation, sort, accumulation, reduction, the result
 * copy to pinned memory).
 * Checks: n ≤ 2^18 against the CPU MSM ("cpu"); larger n against the closed
 * form [a·Σk_i + d·Σ i·k_i]·G computed on the CPU from the scalars ("dlog").
 * floor_ms: the field multiplications of the accumulation (one mixed
 * addition per nonzero digit) and of the bucket reduction (two additions per
 * bucket) at 2.6e10 Fp multiplications per second (this H200, bench_cuda_field);
 * null for BN254, whose Fp's rate is not measured.
 *
 * Usage: bench_cuda_msm [--runs R] [--group g1|g2] [--kind random|01]
 *                       [--log-n K] [--c BITS] [--seed S] [--batch-entries N]
 *                       [--split] [--curve bls12-381|bn254]
 * (--curve bn254: the same cases over BN254's groups and Fr, checked
 * against msm/bn254_msm.h and BN254's generators)
 * (--split: random scalars through the split call, cuda_msm_g*_split, as a
 * witness that is mostly not 0 or 1 meets it; kind "random-split")
 * (--batch-entries: sorted entries per batch of windows, the context's
 * max_batch_entries; printed as batch_entries, 0 for the default)
 * (--stream-chunk K: the random cases' points copied back to the host and
 * streamed through cuda/msm_stream.h in chunks of 2^K, as a device budget
 * makes the engine do; "stream" says how: "shared", the chunks added into
 * one set of buckets, or with --per-chunk "per-chunk", a Pippenger per
 * chunk; --stream-resident: the chunks uploaded once, no copy per run;
 * timed on the host's clock around the synchronous call)
 * Without CUDA, or without a GPU, prints one line and exits 0. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef CUZK_HAVE_CUDA

#include <cuda_runtime_api.h>

#include "cuda/device.h"
#include "cuda/msm.h"
#include "cuda/msm_stream.h"
#include "curve/bn254_curve.h"
#include "curve/g1.h"
#include "curve/g2.h"
#include "field/bn254_fr.h"
#include "field/fr.h"
#include "field/scalar_slots.h"
#include "msm/bn254_msm.h"
#include "msm/msm.h"

#define MAX_RUNS 64
#define FP_MULS_PER_SEC 2.6e10
#define CPU_CHECK_MAX ((size_t)1 << 18)

typedef struct bench_case {
    cuda_msm_group group;
    int zero_one;
    unsigned log_n;
} bench_case;

static const bench_case default_cases[] = {
    {CUDA_MSM_G1, 0, 20}, {CUDA_MSM_G1, 0, 22}, {CUDA_MSM_G1, 0, 24}, {CUDA_MSM_G1, 0, 26},
    {CUDA_MSM_G1, 1, 26}, {CUDA_MSM_G2, 0, 20}, {CUDA_MSM_G2, 0, 22},
};

static int cmp_float(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

static void json_safe(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++)
        if (*r != '"' && *r != '\\' && (unsigned char)*r >= 0x20)
            *w++ = *r;
    *w = 0;
}

#define TRY(what, st)                                                                              \
    do {                                                                                           \
        cuzk_status st_ = (st);                                                                    \
        if (st_ != CUZK_OK) {                                                                      \
            fprintf(stderr, "bench_cuda_msm: %s: %s (%s)\n", what, cuzk_status_str(st_),           \
                    cuda_msm_last_error());                                                        \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

#define TRY_CUDA(what, e)                                                                          \
    do {                                                                                           \
        cudaError_t e_ = (e);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "bench_cuda_msm: %s: %s\n", what, cudaGetErrorString(e_));             \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

/* Field multiplications of one mixed and one full XYZZ addition (a square
 * counted as a multiplication; an Fp2 multiplication is three of Fp, a
 * square two). */
static bool group_is_g1(cuda_msm_group g)
{
    return g == CUDA_MSM_G1 || g == CUDA_MSM_BN254_G1;
}

static void addition_muls(cuda_msm_group g, double *madd, double *add)
{
    *madd = group_is_g1(g) ? 10.0 : 8 * 3.0 + 2 * 2.0;
    *add = group_is_g1(g) ? 14.0 : 12 * 3.0 + 2 * 2.0;
}

static double floor_ms(cuda_msm_group g, size_t n, int zero_one, unsigned c)
{
    double madd, add;
    addition_muls(g, &madd, &add);
    if (zero_one) /* about half are ones: n/2 mixed additions, no Pippenger */
        return (double)n / 2 * madd / FP_MULS_PER_SEC * 1e3;
    const double nwin = (256 + c - 1) / c, buckets = nwin * (double)(1u << (c - 1));
    return ((double)n * nwin * madd + 2 * buckets * add) / FP_MULS_PER_SEC * 1e3;
}

/* The same over BN254 (k: BN254 scalars in fr_t slots). */
static void bn254_closed_form(void *want, cuda_msm_group g, const fr_t *slots, size_t n,
                              const uint64_t a[4], const uint64_t d[4])
{
    const bn254_fr_t *k = bn254_fr_slots_const(slots);
    bn254_fr_t s0, s1, fi, t, fa, fd;
    memset(&s0, 0, sizeof(s0));
    memset(&s1, 0, sizeof(s1));
    memset(&fi, 0, sizeof(fi));
    for (size_t i = 0; i < n; i++) {
        bn254_fr_add(&s0, &s0, &k[i]);
        bn254_fr_mul(&t, &fi, &k[i]);
        bn254_fr_add(&s1, &s1, &t);
        bn254_fr_add(&fi, &fi, &BN254_FR_ONE);
    }
    bn254_fr_from_raw(&fa, a);
    bn254_fr_from_raw(&fd, d);
    bn254_fr_mul(&s0, &s0, &fa);
    bn254_fr_mul(&s1, &s1, &fd);
    bn254_fr_add(&s0, &s0, &s1);
    uint64_t raw[4];
    bn254_fr_to_raw(raw, &s0);
    if (g == CUDA_MSM_BN254_G1) {
        bn254_g1_jac_t base;
        bn254_g1_jac_from_affine(&base, &BN254_G1_GENERATOR);
        bn254_g1_jac_mul_var(want, &base, raw);
    } else {
        bn254_g2_jac_t base;
        bn254_g2_jac_from_affine(&base, &BN254_G2_GENERATOR);
        bn254_g2_jac_mul_var(want, &base, raw);
    }
}

/* Whether two Jacobian points of group g are equal. */
static bool jac_eq(cuda_msm_group g, const void *x, const void *y)
{
    switch (g) {
    case CUDA_MSM_G1:
        return g1_jac_eq(x, y);
    case CUDA_MSM_G2:
        return g2_jac_eq(x, y);
    case CUDA_MSM_BN254_G1:
        return bn254_g1_jac_eq(x, y);
    default:
        return bn254_g2_jac_eq(x, y);
    }
}

/* The CPU's MSM of group g into out (a Jacobian point of the group). */
static bool cpu_msm(cuda_msm_group g, void *out, const void *pts, const fr_t *k, size_t n)
{
    switch (g) {
    case CUDA_MSM_G1:
        return msm_g1(out, pts, k, n, 0) == CUZK_OK;
    case CUDA_MSM_G2:
        return msm_g2(out, pts, k, n, 0) == CUZK_OK;
    case CUDA_MSM_BN254_G1:
        return bn254_msm_g1(out, pts, bn254_fr_slots_const(k), n, 0) == CUZK_OK;
    default:
        return bn254_msm_g2(out, pts, bn254_fr_slots_const(k), n, 0) == CUZK_OK;
    }
}

/* want = [a·Σk_i + d·Σ i·k_i]·G over the first n scalars. */
static void closed_form(void *want, cuda_msm_group g, const fr_t *k, size_t n, const uint64_t a[4],
                        const uint64_t d[4])
{
    if (g == CUDA_MSM_BN254_G1 || g == CUDA_MSM_BN254_G2) {
        bn254_closed_form(want, g, k, n, a, d);
        return;
    }
    fr_t s0, s1, fi, t, fa, fd;
    memset(&s0, 0, sizeof(s0));
    memset(&s1, 0, sizeof(s1));
    memset(&fi, 0, sizeof(fi));
    for (size_t i = 0; i < n; i++) {
        fr_add(&s0, &s0, &k[i]);
        fr_mul(&t, &fi, &k[i]);
        fr_add(&s1, &s1, &t);
        fr_add(&fi, &fi, &FR_ONE);
    }
    fr_from_raw(&fa, a);
    fr_from_raw(&fd, d);
    fr_mul(&s0, &s0, &fa);
    fr_mul(&s1, &s1, &fd);
    fr_add(&s0, &s0, &s1);
    uint64_t raw[4];
    fr_to_raw(raw, &s0);
    if (g == CUDA_MSM_G1) {
        g1_jac_t base;
        g1_jac_from_affine(&base, &G1_GENERATOR);
        g1_jac_mul_var(want, &base, raw);
    } else {
        g2_jac_t base;
        g2_jac_from_affine(&base, &G2_GENERATOR);
        g2_jac_mul_var(want, &base, raw);
    }
}

typedef struct bench_state {
    cuda_msm_ctx *ctx;
    cuda_msm_points *points[CUDA_MSM_GROUP_COUNT];
    uint64_t a[4], d[4];
    fr_t *d_scalars;
    void *out; /* pinned: one G2 Jacobian point */
    cudaStream_t stream;
    cuda_device_info info;
    int runs;
    uint64_t seed;
    size_t batch_entries; /* the context's sort batch; 0: its default */
    bool force_split;     /* --split: random scalars through the split call */
    bool bn254;           /* --curve bn254: BN254's groups */
    unsigned stream_log;  /* --stream-chunk K: the points streamed in chunks of 2^K */
    bool per_chunk;       /* --per-chunk: a Pippenger per chunk, not shared buckets */
    bool stream_resident; /* --stream-resident: the chunks uploaded once, no copies */
} bench_state;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* The case's MSM through the streamer (cuda/msm_stream.h): the points
 * copied back to the host once, then every run streams them in chunks of
 * 2^stream_log (or runs over chunks uploaded once, stream_resident). The
 * call is synchronous: timed on the host's clock. */
static int run_streamed(bench_state *b, cuda_msm_group g, size_t n, float *ms)
{
    const size_t chunk = (size_t)1 << b->stream_log;
    void *host = malloc(cuda_msm_points_host_bytes(g, n));
    if (!host) {
        fprintf(stderr, "bench_cuda_msm: out of host memory\n");
        return 1;
    }
    cuda_msm_streamer *s = NULL;
    cuda_msm_streamed *sb = NULL;
    TRY("download points", cuda_msm_points_download(b->ctx, b->points[g], host, n));
    TRY("streamer", cuda_msm_streamer_create(b->ctx, chunk, &s));
    cuda_msm_streamer_set_shared_buckets(s, !b->per_chunk);
    TRY("streamed",
        cuda_msm_streamed_create(s, g, host, n, NULL, n, b->stream_resident ? SIZE_MAX : 0, &sb));
    TRY_CUDA("sync", cudaStreamSynchronize(b->stream));
    for (int r = -1; r < b->runs; r++) {
        const double t0 = now_ms();
        TRY("streamed msm", cuda_msm_streamed_run(s, sb, b->d_scalars, n, false, b->out));
        if (r >= 0)
            ms[r] = (float)(now_ms() - t0);
    }
    cuda_msm_streamed_free(sb);
    cuda_msm_streamer_destroy(s);
    free(host);
    return 0;
}

/* The device group of a case's group (bench_case.group is G1 or G2). */
static cuda_msm_group dev_group(const bench_state *b, cuda_msm_group g)
{
    return cuda_msm_group_of(b->bn254, g == CUDA_MSM_G2);
}

static int run_case(bench_state *b, const bench_case *bc, unsigned force_c)
{
    const size_t n = (size_t)1 << bc->log_n;
    const cuda_msm_group g = dev_group(b, bc->group);
    TRY("window", cuda_msm_set_window_bits(b->ctx, g, force_c));
    const unsigned c = cuda_msm_window_bits(b->ctx, g, n);
    const cuda_msm_scalar_kind kind =
        b->bn254 ? (bc->zero_one ? CUDA_MSM_SCALARS_BN254_ZERO_ONE : CUDA_MSM_SCALARS_BN254_RANDOM)
                 : (bc->zero_one ? CUDA_MSM_SCALARS_ZERO_ONE : CUDA_MSM_SCALARS_RANDOM);
    TRY("scalars",
        cuda_msm_scalars_fill(b->ctx, b->d_scalars, n, b->seed + bc->log_n, kind, b->stream));
    cudaEvent_t e0, e1;
    TRY_CUDA("event", cudaEventCreate(&e0));
    TRY_CUDA("event", cudaEventCreate(&e1));
    float ms[MAX_RUNS];
    const bool streamed = b->stream_log && !bc->zero_one && !b->force_split;
    if (streamed && run_streamed(b, g, n, ms) != 0)
        return 1;
    for (int r = streamed ? b->runs : -1; r < b->runs; r++) { /* r = −1: the warm-up */
        TRY_CUDA("record", cudaEventRecord(e0, b->stream));
        if (bc->zero_one || b->force_split)
            TRY("msm", cuda_msm_split(b->ctx, g, b->points[g], b->d_scalars, n, b->out, b->stream));
        else
            TRY("msm", cuda_msm(b->ctx, g, b->points[g], b->d_scalars, n, b->out, b->stream));
        TRY_CUDA("record", cudaEventRecord(e1, b->stream));
        TRY_CUDA("sync", cudaEventSynchronize(e1));
        if (r >= 0)
            TRY_CUDA("elapsed", cudaEventElapsedTime(&ms[r], e0, e1));
    }
    TRY("wait", cuda_msm_wait(b->ctx));
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);

    /* The check, on the scalars of the timed runs. */
    fr_t *k = malloc(n * sizeof(fr_t));
    if (!k) {
        fprintf(stderr, "bench_cuda_msm: out of host memory\n");
        return 1;
    }
    TRY_CUDA("download", cudaMemcpy(k, b->d_scalars, n * sizeof(fr_t), cudaMemcpyDeviceToHost));
    g2_jac_t want; /* large enough for any group */
    closed_form(&want, g, k, n, b->a, b->d);
    int checked = jac_eq(g, b->out, &want);
    const char *check = "dlog";
    if (n <= CPU_CHECK_MAX) {
        check = "cpu";
        void *pts = malloc(cuda_msm_points_host_bytes(g, n));
        if (!pts) {
            free(k);
            fprintf(stderr, "bench_cuda_msm: out of host memory\n");
            return 1;
        }
        TRY("download points", cuda_msm_points_download(b->ctx, b->points[g], pts, n));
        g2_jac_t cpu; /* large enough for any group */
        checked &= cpu_msm(g, &cpu, pts, k, n) && jac_eq(g, b->out, &cpu);
        free(pts);
    }
    free(k);

    qsort(ms, (size_t)b->runs, sizeof(float), cmp_float);
    /* The floor's rate is BLS12-381's Fp (bench_cuda_field); BN254's
     * 4-limb Fp has no measured rate yet, so its floor is null. */
    char floor_text[32] = "null";
    if (!b->bn254)
        snprintf(floor_text, sizeof(floor_text), "%.2f", floor_ms(g, n, bc->zero_one, c));
    printf("{\"bench\":\"cuda_msm\",\"curve\":\"%s\",\"group\":\"%s\",\"kind\":\"%s\","
           "\"log_n\":%u,\"stream\":\"%s\",\"chunk_log\":%u,"
           "\"median_ms\":%.3f,\"min_ms\":%.3f,\"max_ms\":%.3f,\"runs\":%d,\"checked\":%s,"
           "\"check\":\"%s\",\"c\":%u,\"batch_entries\":%zu,\"floor_ms\":%s,\"device\":\"%s\","
           "\"commit\":\"%s\"}\n",
           b->bn254 ? "bn254" : "bls12-381", group_is_g1(g) ? "g1" : "g2",
           bc->zero_one     ? "01"
           : b->force_split ? "random-split"
                            : "random",
           bc->log_n,
           !streamed            ? "none"
           : b->stream_resident ? (b->per_chunk ? "resident-per-chunk" : "resident-shared")
           : b->per_chunk       ? "per-chunk"
                                : "shared",
           streamed ? b->stream_log : 0u, ms[b->runs / 2], ms[0], ms[b->runs - 1], b->runs,
           checked ? "true" : "false", check, c, b->batch_entries, floor_text, b->info.name,
           CUZK_GIT_COMMIT);
    fflush(stdout);
    if (!checked)
        fprintf(stderr, "bench_cuda_msm: %s %s %s 2^%u: the result is WRONG\n",
                b->bn254 ? "bn254" : "bls12-381", group_is_g1(g) ? "g1" : "g2",
                bc->zero_one ? "01" : "random", bc->log_n);
    return checked ? 0 : 1;
}

/* k < 2^253, below both curves' r. */
static void random_below_r(uint64_t k[4], uint64_t *state)
{
    for (int i = 0; i < 4; i++) {
        uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        k[i] = z ^ (z >> 31);
    }
    k[3] &= (UINT64_C(1) << 61) - 1;
}

int main(int argc, char **argv)
{
    bench_state b;
    memset(&b, 0, sizeof(b));
    b.runs = 7;
    b.seed = 0x6d736d;
    int only_group = -1, only_kind = -1, only_log = -1;
    unsigned force_c = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            b.runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--group") == 0 && i + 1 < argc)
            only_group = strcmp(argv[++i], "g2") == 0 ? CUDA_MSM_G2 : CUDA_MSM_G1;
        else if (strcmp(argv[i], "--kind") == 0 && i + 1 < argc)
            only_kind = strcmp(argv[++i], "01") == 0;
        else if (strcmp(argv[i], "--split") == 0)
            b.force_split = true;
        else if (strcmp(argv[i], "--log-n") == 0 && i + 1 < argc)
            only_log = atoi(argv[++i]);
        else if (strcmp(argv[i], "--c") == 0 && i + 1 < argc)
            force_c = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            b.seed = strtoull(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--batch-entries") == 0 && i + 1 < argc)
            b.batch_entries = (size_t)strtoull(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--curve") == 0 && i + 1 < argc &&
                 (strcmp(argv[i + 1], "bn254") == 0 || strcmp(argv[i + 1], "bls12-381") == 0))
            b.bn254 = strcmp(argv[++i], "bn254") == 0;
        else if (strcmp(argv[i], "--stream-chunk") == 0 && i + 1 < argc)
            b.stream_log = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--per-chunk") == 0)
            b.per_chunk = true;
        else if (strcmp(argv[i], "--stream-resident") == 0)
            b.stream_resident = true;
        else {
            fprintf(stderr, "usage: bench_cuda_msm [--runs R] [--group g1|g2] [--kind random|01]"
                            " [--log-n K] [--c BITS] [--seed S] [--batch-entries N] [--split]"
                            " [--curve bls12-381|bn254] [--stream-chunk K [--per-chunk]"
                            " [--stream-resident]]\n");
            return 2;
        }
    }
    if (b.stream_log && (b.stream_log < 8 || b.stream_log > 28 || b.bn254)) {
        fprintf(stderr, "bench_cuda_msm: --stream-chunk needs 8 <= K <= 28 and BLS12-381\n");
        return 2;
    }
    if (b.runs < 1 || b.runs > MAX_RUNS || (only_log >= 0 && (only_log < 1 || only_log > 28))) {
        fprintf(stderr, "bench_cuda_msm: need 1 <= runs <= %d, 1 <= log-n <= 28\n", MAX_RUNS);
        return 2;
    }
    const char *why = "unknown reason";
    if (cuda_device_count(&why) == 0) {
        printf("bench_cuda_msm: no CUDA device (%s); nothing measured\n", why);
        return 0;
    }
    if (cuda_device_query(0, &b.info) != 0) {
        fprintf(stderr, "bench_cuda_msm: cannot query device 0\n");
        return 1;
    }
    json_safe(b.info.name);

    bench_case cases[16];
    size_t n_cases = 0, max_n[CUDA_MSM_GROUP_COUNT] = {0};
    for (size_t i = 0; i < sizeof(default_cases) / sizeof(default_cases[0]); i++) {
        bench_case bc = default_cases[i];
        if ((only_group >= 0 && (int)bc.group != only_group) ||
            (only_kind >= 0 && bc.zero_one != only_kind))
            continue;
        if (only_log >= 0) {
            bc.log_n = (unsigned)only_log;
            int dup = 0;
            for (size_t j = 0; j < n_cases; j++)
                dup |= cases[j].group == bc.group && cases[j].zero_one == bc.zero_one;
            if (dup)
                continue;
        }
        cases[n_cases++] = bc;
        const size_t n = (size_t)1 << bc.log_n;
        const cuda_msm_group g = dev_group(&b, bc.group);
        if (n > max_n[g])
            max_n[g] = n;
    }

    cuda_msm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    size_t n_all = 0;
    for (int g = 0; g < CUDA_MSM_GROUP_COUNT; g++) {
        cfg.max_n[g] = max_n[g];
        n_all = max_n[g] > n_all ? max_n[g] : n_all;
    }
    cfg.max_window_bits = force_c;
    cfg.max_batch_entries = b.batch_entries;
    TRY("context", cuda_msm_ctx_create(&b.ctx, &cfg));
    uint64_t state = b.seed;
    random_below_r(b.a, &state);
    random_below_r(b.d, &state);
    TRY_CUDA("scalars", cudaMalloc((void **)&b.d_scalars, n_all * sizeof(fr_t)));
    TRY_CUDA("out", cudaMallocHost(&b.out, sizeof(g2_jac_t)));
    TRY_CUDA("stream", cudaStreamCreateWithFlags(&b.stream, cudaStreamNonBlocking));
    const void *generator[CUDA_MSM_GROUP_COUNT] = {&G1_GENERATOR, &G2_GENERATOR,
                                                   &BN254_G1_GENERATOR, &BN254_G2_GENERATOR};
    for (int g = 0; g < CUDA_MSM_GROUP_COUNT; g++)
        if (max_n[g])
            TRY("points", cuda_msm_points_generate(b.ctx, (cuda_msm_group)g, generator[g], b.a, b.d,
                                                   max_n[g], &b.points[g]));
    fprintf(stderr, "bench_cuda_msm: %s, context %.2f GiB\n", b.info.name,
            (double)cuda_msm_ctx_device_bytes(b.ctx) / (1u << 30));

    int status = 0;
    for (size_t i = 0; i < n_cases; i++)
        status |= run_case(&b, &cases[i], force_c);

    for (int g = 0; g < CUDA_MSM_GROUP_COUNT; g++)
        cuda_msm_points_free(b.points[g]);
    cudaFree(b.d_scalars);
    cudaFreeHost(b.out);
    cudaStreamDestroy(b.stream);
    cuda_msm_ctx_destroy(b.ctx);
    return status;
}

#else

int main(void)
{
    printf("bench_cuda_msm: built without CUDA; nothing measured\n");
    return 0;
}

#endif
