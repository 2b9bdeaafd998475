/* GPU NTT and Groth16 quotient timings (cuda/ntt.h): one JSON line per
 * (kind, size), kinds forward, inverse, coset_forward, coset_inverse (NN
 * order, in place) and h (cuda_compute_h on three vectors). Data stays on
 * the device; each kind gets warm-up runs, then every run is timed alone
 * with CUDA events around it on one stream; median, min and max are
 * reported.
 *
 * "checked": one run of each kind is compared with the CPU (ntt_transform,
 * poly_compute_h) for sizes up to 2^22 ("check":"cpu"); above, where the
 * CPU is too slow, the transforms are checked by a round trip on the device
 * (forward then inverse, or coset forward then coset inverse, gives the
 * input back: "round_trip") and h by its top coefficient, which is zero for
 * a satisfied system ("top_coefficient").
 *
 * Usage: bench_cuda_ntt [--runs R] [--logs K[,K...]] [--compact]
 *                       [--curve bls12-381|bn254]
 * Defaults: 10 runs, sizes 2^20, 2^22, 2^24, 2^26, 2^27, full twiddle
 * tables, BLS12-381's Fr (bn254: BN254's, up to 2^28; the same roots 7^t
 * and coset shift 7, checked against poly/bn254_*.h). Without CUDA, or
 * without a GPU, prints one line and exits 0. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CUZK_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "cuda/device.h"
#include "cuda/ntt.h"
#include "field/bn254_fr.h"
#include "field/fr.h"
#include "field/scalar_slots.h"
#include "poly/bn254_domain.h"
#include "poly/bn254_ntt.h"
#include "poly/bn254_quotient.h"
#include "poly/domain.h"
#include "poly/ntt.h"
#include "poly/quotient.h"
#endif

#ifdef CUZK_HAVE_CUDA

#define BENCH_MAX_RUNS 100
#define BENCH_MAX_LOGS 16
#define BENCH_WARMUP 2
#define BENCH_CPU_CHECK_MAX_LOG 22

enum { K_FORWARD, K_INVERSE, K_COSET_FORWARD, K_COSET_INVERSE, K_H, K_COUNT };
static const char *const kind_name[K_COUNT] = {"forward", "inverse", "coset_forward",
                                               "coset_inverse", "h"};

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

/* Reduced field elements (raw words below r: valid Montgomery forms), fast
 * enough for 2^27 elements; never zero vectors. BN254's r is above 2^253,
 * BLS12-381's above 2^254. */
static void fill_random(fr_t *v, size_t n, rng_t *rng, int bn254)
{
    for (size_t i = 0; i < n; i++) {
        for (int l = 0; l < FR_LIMBS; l++)
            v[i].l[l] = rng_u64(rng);
        v[i].l[FR_LIMBS - 1] &= bn254 ? 0x0fffffffffffffffULL : 0x3fffffffffffffffULL;
    }
}

#define CHECK_DEV(expr)                                                                            \
    do {                                                                                           \
        cuzk_status st_ = (expr);                                                                  \
        if (st_ != CUZK_OK) {                                                                      \
            fprintf(stderr, "bench_cuda_ntt: %s: %s (%s)\n", #expr, cuzk_status_str(st_),          \
                    cuda_ntt_last_error());                                                        \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

#define CHECK_CUDA(expr)                                                                           \
    do {                                                                                           \
        cudaError_t e_ = (expr);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "bench_cuda_ntt: %s: %s\n", #expr, cudaGetErrorString(e_));            \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

typedef struct bench_state {
    int bn254; /* BN254's Fr, else BLS12-381's */
    cuda_ntt_ctx *ctx;
    cudaStream_t stream;
    unsigned k;
    size_t n;
    void *dv[3];
    fr_t *h[3]; /* host vectors, n elements each */
    rng_t rng;
} bench_state;

static int run_kind(bench_state *s, int kind)
{
    void *st = s->stream;
    switch (kind) {
    case K_FORWARD:
        CHECK_DEV(cuda_ntt(s->ctx, s->dv[0], s->k, CUDA_NTT_FORWARD, CUDA_NTT_STANDARD, st));
        break;
    case K_INVERSE:
        CHECK_DEV(cuda_ntt(s->ctx, s->dv[0], s->k, CUDA_NTT_INVERSE, CUDA_NTT_STANDARD, st));
        break;
    case K_COSET_FORWARD:
        CHECK_DEV(cuda_ntt(s->ctx, s->dv[0], s->k, CUDA_NTT_FORWARD, CUDA_NTT_COSET, st));
        break;
    case K_COSET_INVERSE:
        CHECK_DEV(cuda_ntt(s->ctx, s->dv[0], s->k, CUDA_NTT_INVERSE, CUDA_NTT_COSET, st));
        break;
    default:
        CHECK_DEV(cuda_compute_h(s->ctx, s->dv[0], s->dv[1], s->dv[2], s->n, s->k,
                                 CUDA_H_COSET_GENERATOR, st));
        break;
    }
    return 0;
}

static size_t count_diff(const fr_t *a, const fr_t *b, size_t n)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += !fr_eq(&a[i], &b[i]);
    return bad;
}

/* The CPU's result of `kind` on s->h into want (poly/ntt.h and
 * poly/quotient.h, or their BN254 twins); clobbers s->h for K_H. */
static int cpu_kind(bench_state *s, int kind, fr_t *want)
{
    const size_t n = s->n, bytes = n * sizeof(fr_t);
    const int inv = kind == K_INVERSE || kind == K_COSET_INVERSE;
    const int coset = kind == K_COSET_FORWARD || kind == K_COSET_INVERSE;
    const ntt_direction dir = inv ? NTT_INVERSE : NTT_FORWARD;
    const ntt_coset cs = coset ? NTT_COSET : NTT_STANDARD;
    cuzk_status st = CUZK_OK;
    if (s->bn254) {
        bn254_domain_t d;
        if (bn254_domain_init_log(&d, s->k, DOMAIN_ROOTS_BELLMAN, 0) != CUZK_OK)
            return 1;
        if (kind == K_H)
            st = bn254_poly_compute_h(bn254_fr_slots(s->h[0]), bn254_fr_slots(s->h[1]),
                                      bn254_fr_slots(s->h[2]), n, &d, POLY_H_COSET_GENERATOR, 0);
        memcpy(want, s->h[0], bytes);
        if (kind != K_H)
            bn254_ntt_transform(bn254_fr_slots(want), &d, NTT_NN, dir, cs, 0);
        bn254_domain_free(&d);
        return st != CUZK_OK;
    }
    domain_t d;
    if (domain_init_log(&d, s->k, DOMAIN_ROOTS_BELLMAN, 0) != CUZK_OK)
        return 1;
    if (kind == K_H)
        st = poly_compute_h(s->h[0], s->h[1], s->h[2], n, &d, POLY_H_COSET_GENERATOR, 0);
    memcpy(want, s->h[0], bytes);
    if (kind != K_H)
        ntt_transform(want, &d, NTT_NN, dir, cs, 0);
    domain_free(&d);
    return st != CUZK_OK;
}

/* One checked run of `kind`; *ok says whether it matched, *how how it was
 * checked. */
static int check_kind(bench_state *s, int kind, int *ok, const char **how)
{
    const size_t n = s->n, bytes = n * sizeof(fr_t);
    void *st = s->stream;
    fill_random(s->h[0], n, &s->rng, s->bn254);
    if (kind == K_H) {
        fill_random(s->h[1], n, &s->rng, s->bn254);
        for (size_t i = 0; i < n; i++) /* satisfied: c = a b */
            if (s->bn254)
                bn254_fr_mul(bn254_fr_slots(&s->h[2][i]), bn254_fr_slots_const(&s->h[0][i]),
                             bn254_fr_slots_const(&s->h[1][i]));
            else
                fr_mul(&s->h[2][i], &s->h[0][i], &s->h[1][i]);
    }
    const int nvec = kind == K_H ? 3 : 1;
    for (int v = 0; v < nvec; v++)
        CHECK_DEV(cuda_ntt_upload(s->ctx, s->dv[v], s->h[v], n, st));
    if (s->k <= BENCH_CPU_CHECK_MAX_LOG) {
        *how = "cpu";
        fr_t *want = malloc(bytes), *got = malloc(bytes);
        if (!want || !got || cpu_kind(s, kind, want)) {
            free(want);
            free(got);
            return 1;
        }
        if (run_kind(s, kind))
            return 1;
        CHECK_DEV(cuda_ntt_download(s->ctx, got, s->dv[0], n, st));
        CHECK_DEV(cuda_ntt_sync(s->ctx, st));
        *ok = count_diff(got, want, n) == 0;
        free(want);
        free(got);
        return 0;
    }
    if (kind == K_H) {
        *how = "top_coefficient";
        if (run_kind(s, kind))
            return 1;
        fr_t top;
        CHECK_DEV(cuda_ntt_download(s->ctx, &top, (const fr_t *)s->dv[0] + (n - 1), 1, st));
        CHECK_DEV(cuda_ntt_sync(s->ctx, st));
        *ok = fr_is_zero(&top);
        return 0;
    }
    /* forward kinds: then their inverse; inverse kinds: forward first */
    *how = "round_trip";
    const int coset = kind == K_COSET_FORWARD || kind == K_COSET_INVERSE;
    const cuda_ntt_coset c = coset ? CUDA_NTT_COSET : CUDA_NTT_STANDARD;
    const int inv = kind == K_INVERSE || kind == K_COSET_INVERSE;
    CHECK_DEV(cuda_ntt(s->ctx, s->dv[0], s->k, inv ? CUDA_NTT_FORWARD : CUDA_NTT_INVERSE, c, st));
    CHECK_DEV(cuda_ntt(s->ctx, s->dv[0], s->k, inv ? CUDA_NTT_INVERSE : CUDA_NTT_FORWARD, c, st));
    CHECK_DEV(cuda_ntt_download(s->ctx, s->h[1], s->dv[0], n, st));
    CHECK_DEV(cuda_ntt_sync(s->ctx, st));
    *ok = count_diff(s->h[1], s->h[0], n) == 0;
    return 0;
}

static int bench_size(const cuda_device_info *info, unsigned k, int runs, int compact,
                      int bn254)
{
    bench_state s;
    memset(&s, 0, sizeof(s));
    s.bn254 = bn254;
    s.k = k;
    s.n = (size_t)1 << k;
    rng_seed(&s.rng, 0x6e7474u + k);
    const cuda_ntt_options opt = {.flags = compact ? CUDA_NTT_TWIDDLES_COMPACT : 0u,
                                  .curve = bn254 ? CUDA_NTT_BN254 : CUDA_NTT_BLS12_381};
    CHECK_DEV(cuda_ntt_ctx_create(&s.ctx, 0, k, 1, CUDA_NTT_ROOTS_BELLMAN, &opt));
    CHECK_DEV(cuda_ntt_ctx_prepare(s.ctx, k));
    CHECK_CUDA(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
    for (int v = 0; v < 3; v++) {
        CHECK_DEV(cuda_ntt_alloc(s.ctx, &s.dv[v], s.n));
        s.h[v] = malloc(s.n * sizeof(fr_t));
        if (!s.h[v]) {
            fprintf(stderr, "bench_cuda_ntt: out of host memory at 2^%u\n", k);
            return 1;
        }
    }
    int failed = 0;
    cudaEvent_t ev[2 * BENCH_MAX_RUNS];
    for (int i = 0; i < 2 * runs; i++)
        CHECK_CUDA(cudaEventCreate(&ev[i]));
    for (int kind = 0; kind < K_COUNT; kind++) {
        int ok = 0;
        const char *how = "none";
        if (check_kind(&s, kind, &ok, &how))
            return 1;
        /* the timed runs go on from what the check left: results and
         * scratch of earlier runs, random-looking, never zero vectors */
        for (int w = 0; w < BENCH_WARMUP; w++)
            if (run_kind(&s, kind))
                return 1;
        for (int r = 0; r < runs; r++) {
            CHECK_CUDA(cudaEventRecord(ev[2 * r], s.stream));
            if (run_kind(&s, kind))
                return 1;
            CHECK_CUDA(cudaEventRecord(ev[2 * r + 1], s.stream));
        }
        CHECK_CUDA(cudaStreamSynchronize(s.stream));
        float ms[BENCH_MAX_RUNS];
        for (int r = 0; r < runs; r++)
            CHECK_CUDA(cudaEventElapsedTime(&ms[r], ev[2 * r], ev[2 * r + 1]));
        qsort(ms, (size_t)runs, sizeof(float), cmp_float);
        printf("{\"bench\":\"cuda_ntt\",\"kind\":\"%s\",\"log_n\":%u,\"median_ms\":%.4f,"
               "\"min_ms\":%.4f,\"max_ms\":%.4f,\"runs\":%d,\"checked\":%s,\"check\":\"%s\","
               "\"twiddles\":\"%s\",\"curve\":\"%s\",\"device\":\"%s\",\"commit\":\"%s\"}\n",
               kind_name[kind], k, ms[runs / 2], ms[0], ms[runs - 1], runs, ok ? "true" : "false",
               how, compact ? "compact" : "full", bn254 ? "bn254" : "bls12-381", info->name,
               CUZK_GIT_COMMIT);
        fflush(stdout);
        failed |= !ok;
        if (!ok)
            fprintf(stderr, "bench_cuda_ntt: %s at 2^%u FAILED its %s check\n", kind_name[kind], k,
                    how);
    }
    for (int i = 0; i < 2 * runs; i++)
        (void)cudaEventDestroy(ev[i]);
    for (int v = 0; v < 3; v++) {
        cuda_ntt_free(s.ctx, s.dv[v]);
        free(s.h[v]);
    }
    (void)cudaStreamDestroy(s.stream);
    cuda_ntt_ctx_destroy(s.ctx);
    return failed;
}

int main(int argc, char **argv)
{
    int runs = 10, compact = 0, bn254 = 0;
    unsigned logs[BENCH_MAX_LOGS] = {20, 22, 24, 26, 27}, nlogs = 5;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--logs") == 0 && i + 1 < argc) {
            char *p = argv[++i];
            nlogs = 0;
            while (*p && nlogs < BENCH_MAX_LOGS) {
                logs[nlogs++] = (unsigned)strtoul(p, &p, 10);
                if (*p == ',')
                    p++;
                else
                    break;
            }
        } else if (strcmp(argv[i], "--compact") == 0) {
            compact = 1;
        } else if (strcmp(argv[i], "--curve") == 0 && i + 1 < argc &&
                   (strcmp(argv[i + 1], "bn254") == 0 || strcmp(argv[i + 1], "bls12-381") == 0)) {
            bn254 = strcmp(argv[++i], "bn254") == 0;
        } else {
            fprintf(stderr, "usage: bench_cuda_ntt [--runs R] [--logs K[,K...]] [--compact] "
                            "[--curve bls12-381|bn254]\n");
            return 2;
        }
    }
    if (runs < 1 || runs > BENCH_MAX_RUNS) {
        fprintf(stderr, "bench_cuda_ntt: need 1 <= runs <= %d\n", BENCH_MAX_RUNS);
        return 2;
    }
    const char *why = "unknown reason";
    if (cuda_device_count(&why) == 0) {
        printf("bench_cuda_ntt: no CUDA device (%s); nothing measured\n", why);
        return 0;
    }
    cuda_device_info info;
    if (cuda_device_query(0, &info) != 0) {
        fprintf(stderr, "bench_cuda_ntt: cannot query device 0\n");
        return 1;
    }
    json_safe(info.name);
    int status = 0;
    for (unsigned i = 0; i < nlogs; i++) {
        if (logs[i] > CUDA_NTT_MAX_LOG) {
            fprintf(stderr, "bench_cuda_ntt: 2^%u is above the largest size\n", logs[i]);
            return 2;
        }
        status |= bench_size(&info, logs[i], runs, compact, bn254);
    }
    return status;
}

#else

int main(void)
{
    printf("bench_cuda_ntt: built without CUDA; nothing measured\n");
    return 0;
}

#endif
