/* The device MSM (src/cuda/msm.h) against the CPU MSM (src/msm/msm.h) on
 * seeded random inputs: G1 at 0, 1, 2, 3, 17, 2^10, 2^10 + 1, 2^16, 2^18
 * points, G2 up to 2^14; scalars random, all zero, all one, mixed 0/1/
 * random, r − 1, small, a few repeated values; points with repeats, ±P
 * pairs and infinity; plain, split and dense forms; every window size up to
 * 16 bits; windows in batches; host, pinned and device scalars; the point
 * generator of the benchmark and its closed-form check. Skipped (exit 77)
 * without a CUDA device. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#ifndef CUZK_HAVE_CUDA

int main(void)
{
    printf("SKIPPED: test_cuda_msm: no CUDA device (built without CUDA)\n");
    return 77;
}

#else

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/device.h"
#include "cuda/msm.h"
#include "curve/g1.h"
#include "curve/g2.h"
#include "field/fr.h"
#include "msm/msm.h"
#include "off_subgroup.h"
#include "seed.h"

#define G1_MAX_N ((size_t)1 << 18)
#define G2_MAX_N ((size_t)1 << 14)
#define MAX_WINDOW 16u

static uint64_t seed;
static cuda_msm_ctx *ctx;

#define assert_device_ok(st)                                                                       \
    do {                                                                                           \
        cuzk_status st_ = (st);                                                                    \
        if (st_ != CUZK_OK)                                                                        \
            fail_msg("%s: %s (%s)", #st, cuzk_status_str(st_), cuda_msm_last_error());             \
    } while (0)

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    assert_non_null(p);
    return p;
}

/* ---- inputs ---------------------------------------------------------------- */

typedef enum scalar_kind {
    SC_RANDOM,
    SC_ZERO,
    SC_ONE,
    SC_MIXED,     /* 40 % zero, 40 % one, 20 % random */
    SC_MINUS_ONE, /* all r − 1 */
    SC_EDGE,      /* r − 1, 1, and some random */
    SC_SMALL,     /* 0 .. 4 */
    SC_REPEATED,  /* two values */
    SC_KIND_COUNT
} scalar_kind;

static const char *kind_names[] = {"random",    "zero", "one",   "mixed",
                                   "minus-one", "edge", "small", "repeated"};

static void make_scalars(fr_t *s, size_t n, scalar_kind kind, rng_t *rng)
{
    fr_t minus_one, v0, v1;
    fr_neg(&minus_one, &FR_ONE);
    fr_random(&v0, rng);
    fr_random(&v1, rng);
    for (size_t i = 0; i < n; i++) {
        const uint64_t r = rng_u64(rng);
        switch (kind) {
        case SC_RANDOM:
            fr_random(&s[i], rng);
            break;
        case SC_ZERO:
            memset(&s[i], 0, sizeof(fr_t));
            break;
        case SC_ONE:
            s[i] = FR_ONE;
            break;
        case SC_MIXED:
            if (r % 10 < 4)
                memset(&s[i], 0, sizeof(fr_t));
            else if (r % 10 < 8)
                s[i] = FR_ONE;
            else
                fr_random(&s[i], rng);
            break;
        case SC_MINUS_ONE:
            s[i] = minus_one;
            break;
        case SC_EDGE:
            s[i] = r % 3 == 0 ? FR_ONE : minus_one;
            if (r % 7 == 0)
                fr_random(&s[i], rng);
            break;
        case SC_SMALL:
            fr_from_u64(&s[i], r % 5);
            break;
        default:
            s[i] = r % 3 ? v0 : v1;
            break;
        }
    }
}

static void random_raw(uint64_t k[4], rng_t *rng)
{
    fr_t f;
    fr_random(&f, rng);
    fr_to_raw(k, &f);
}

/* Points a + i·d times the generator: one scalar multiplication for the
 * start and the step, then additions. degenerate: some points repeat an
 * earlier one, some are the negation of their predecessor, some are
 * infinity. */
static void g1_make_points(g1_affine_t *out, size_t n, int degenerate, rng_t *rng)
{
    if (!n)
        return;
    uint64_t a[4], d[4];
    random_raw(a, rng);
    random_raw(d, rng);
    g1_jac_t g, p, q;
    g1_jac_from_affine(&g, &G1_GENERATOR);
    g1_jac_mul_var(&p, &g, a);
    g1_jac_mul_var(&q, &g, d);
    g1_jac_t *j = xmalloc(n * sizeof(g1_jac_t));
    for (size_t i = 0; i < n; i++) {
        j[i] = p;
        g1_jac_add_var(&p, &p, &q);
    }
    g1_jac_batch_to_affine(out, j, n);
    free(j);
    for (size_t i = 1; degenerate && i < n; i++) {
        const uint64_t r = rng_u64(rng) % 8;
        if (r == 0)
            out[i] = out[rng_u64(rng) % i];
        else if (r == 1)
            g1_affine_neg(&out[i], &out[i - 1]);
        else if (r == 2)
            g1_affine_set_infinity(&out[i]);
    }
}

static void g2_make_points(g2_affine_t *out, size_t n, int degenerate, rng_t *rng)
{
    if (!n)
        return;
    uint64_t a[4], d[4];
    random_raw(a, rng);
    random_raw(d, rng);
    g2_jac_t g, p, q;
    g2_jac_from_affine(&g, &G2_GENERATOR);
    g2_jac_mul_var(&p, &g, a);
    g2_jac_mul_var(&q, &g, d);
    g2_jac_t *j = xmalloc(n * sizeof(g2_jac_t));
    for (size_t i = 0; i < n; i++) {
        j[i] = p;
        g2_jac_add_var(&p, &p, &q);
    }
    g2_jac_batch_to_affine(out, j, n);
    free(j);
    for (size_t i = 1; degenerate && i < n; i++) {
        const uint64_t r = rng_u64(rng) % 8;
        if (r == 0)
            out[i] = out[rng_u64(rng) % i];
        else if (r == 1)
            g2_affine_neg(&out[i], &out[i - 1]);
        else if (r == 2)
            g2_affine_set_infinity(&out[i]);
    }
}

/* A density over n variables with about two thirds set; the bits past n
 * are set too (the device must ignore them). points: the selected subset of
 * all (elem bytes each) into sub; returns its size. */
static size_t make_density(uint64_t *bits, uint64_t *clean, size_t n, const void *all, void *sub,
                           size_t elem, rng_t *rng)
{
    const size_t words = n / 64 + 1;
    memset(bits, 0, words * sizeof(uint64_t));
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (rng_u64(rng) % 3) {
            bits[i / 64] |= UINT64_C(1) << (i % 64);
            memcpy((char *)sub + m * elem, (const char *)all + i * elem, elem);
            m++;
        }
    memcpy(clean, bits, words * sizeof(uint64_t));
    bits[n / 64] |= ~UINT64_C(0) << (n % 64);
    return m;
}

/* ---- G1 -------------------------------------------------------------------- */

static void g1_check_result(const g1_jac_t *got, const g1_jac_t *want, const char *what, size_t n,
                            const char *kind, unsigned c)
{
    if (!g1_jac_eq(got, want))
        fail_msg("G1 %s: n = %zu, scalars %s, window %u bits: the device and the CPU differ", what,
                 n, kind, c);
    if (g1_jac_is_infinity(got)) {
        g1_jac_t inf;
        g1_jac_set_infinity(&inf);
        assert_memory_equal(got, &inf, sizeof(inf));
    }
}

/* Plain and split against msm_g1, and dense against msm_g1_dense. */
static void g1_case(size_t n, scalar_kind kind, int degenerate, unsigned c, int dense, rng_t *rng)
{
    g1_affine_t *pts = xmalloc(n * sizeof(g1_affine_t));
    fr_t *sc = xmalloc(n * sizeof(fr_t));
    g1_make_points(pts, n, degenerate, rng);
    make_scalars(sc, n, kind, rng);
    g1_jac_t want, got;
    assert_int_equal(msm_g1(&want, pts, sc, n, 0), CUZK_OK);
    cuda_msm_points *h = NULL;
    assert_device_ok(cuda_msm_points_upload(ctx, CUDA_MSM_G1, pts, n, &h));
    assert_device_ok(cuda_msm_set_window_bits(ctx, CUDA_MSM_G1, c));
    const unsigned used = cuda_msm_window_bits(ctx, CUDA_MSM_G1, n);

    memset(&got, 0x5a, sizeof(got));
    assert_device_ok(cuda_msm_g1(ctx, h, sc, n, &got, NULL));
    assert_device_ok(cuda_msm_wait(ctx));
    g1_check_result(&got, &want, "plain", n, kind_names[kind], used);
    memset(&got, 0x5a, sizeof(got));
    assert_device_ok(cuda_msm_g1_split(ctx, h, sc, n, &got, NULL));
    assert_device_ok(cuda_msm_wait(ctx));
    g1_check_result(&got, &want, "split", n, kind_names[kind], used);

    if (dense) {
        uint64_t *bits = xmalloc((n / 64 + 1) * sizeof(uint64_t));
        uint64_t *clean = xmalloc((n / 64 + 1) * sizeof(uint64_t));
        g1_affine_t *sub = xmalloc(n * sizeof(g1_affine_t));
        const size_t m = make_density(bits, clean, n, pts, sub, sizeof(g1_affine_t), rng);
        assert_int_equal(msm_g1_dense(&want, sub, m, sc, n, clean, 0), CUZK_OK);
        cuda_msm_points *hs = NULL;
        cuda_msm_density *dn = NULL;
        assert_device_ok(cuda_msm_points_upload(ctx, CUDA_MSM_G1, sub, m, &hs));
        assert_device_ok(cuda_msm_density_upload(ctx, bits, n, &dn));
        assert_int_equal(cuda_msm_density_count(dn), m);
        memset(&got, 0x5a, sizeof(got));
        assert_device_ok(cuda_msm_g1_dense(ctx, hs, sc, n, dn, &got, NULL));
        assert_device_ok(cuda_msm_wait(ctx));
        g1_check_result(&got, &want, "dense", n, kind_names[kind], used);
        cuda_msm_points_free(hs);
        cuda_msm_density_free(dn);
        free(bits);
        free(clean);
        free(sub);
    }
    cuda_msm_points_free(h);
    assert_device_ok(cuda_msm_set_window_bits(ctx, CUDA_MSM_G1, 0));
    free(pts);
    free(sc);
}

static void test_g1_sizes(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, seed ^ 0x11);
    static const size_t sizes[] = {0, 1, 2, 3, 17, 1u << 10, (1u << 10) + 1, 1u << 16, 1u << 18};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        g1_case(sizes[i], SC_RANDOM, 0, 0, sizes[i] <= (1u << 16), &rng);
}

static void test_g1_kinds(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, seed ^ 0x12);
    for (int k = 0; k < SC_KIND_COUNT; k++) {
        g1_case((1u << 10) + 1, (scalar_kind)k, 1, 0, 1, &rng);
        g1_case(1u << 16, (scalar_kind)k, k % 2, 0, 1, &rng);
    }
    /* Mixed witness-like scalars at the largest size. */
    g1_case(G1_MAX_N, SC_MIXED, 1, 0, 1, &rng);
}

static void test_g1_windows(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, seed ^ 0x13);
    for (unsigned c = CUDA_MSM_MIN_WINDOW_BITS; c <= MAX_WINDOW; c++)
        g1_case(5000, c % 2 ? SC_RANDOM : SC_EDGE, 1, c, c % 4 == 0, &rng);
}

/* Calls queued before one wait, on the context's stream and on another:
 * each result is finished on the host by its own stream-ordered function,
 * from the window sums of its own call. */
static void test_g1_queued_calls(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, seed ^ 0x17);
    enum { CALLS = 4 };
    const size_t n = (1u << 12) + 3;
    g1_affine_t *pts = xmalloc(n * sizeof(g1_affine_t));
    fr_t *sc = xmalloc(CALLS * n * sizeof(fr_t));
    g1_make_points(pts, n, 0, &rng);
    g1_jac_t want[CALLS], got[CALLS];
    cuda_msm_points *h = NULL;
    assert_device_ok(cuda_msm_points_upload(ctx, CUDA_MSM_G1, pts, n, &h));
    void *other = NULL;
    assert_int_equal(cuda_stream_create(0, &other), 0);
    for (int i = 0; i < CALLS; i++) {
        make_scalars(sc + i * n, n, i % 2 ? SC_MIXED : SC_RANDOM, &rng);
        assert_int_equal(msm_g1(&want[i], pts, sc + i * n, n, 0), CUZK_OK);
        memset(&got[i], 0x5a, sizeof(got[i]));
    }
    for (int i = 0; i < CALLS; i++) {
        struct CUstream_st *s = i == 2 ? (struct CUstream_st *)other : NULL;
        if (i % 2)
            assert_device_ok(cuda_msm_g1_split(ctx, h, sc + i * n, n, &got[i], s));
        else
            assert_device_ok(cuda_msm_g1(ctx, h, sc + i * n, n, &got[i], s));
    }
    assert_device_ok(cuda_msm_wait(ctx));
    for (int i = 0; i < CALLS; i++)
        g1_check_result(&got[i], &want[i], "queued", n, i % 2 ? "mixed" : "random",
                        cuda_msm_window_bits(ctx, CUDA_MSM_G1, n));
    cuda_stream_destroy(other);
    cuda_msm_points_free(h);
    free(pts);
    free(sc);
}

/* Windows in batches: a context whose sort takes only n entries at once. */
static void test_g1_batches(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, seed ^ 0x14);
    cuda_msm_ctx *saved = ctx;
    cuda_msm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.max_n[CUDA_MSM_G1] = 1u << 14;
    cfg.max_batch_entries = 1u << 14;
    assert_device_ok(cuda_msm_ctx_create(&ctx, &cfg));
    g1_case(1u << 14, SC_RANDOM, 1, 0, 1, &rng);
    g1_case(1u << 14, SC_MIXED, 0, 0, 1, &rng);
    g1_case(3000, SC_REPEATED, 1, 0, 0, &rng);
    cuda_msm_ctx_destroy(ctx);
    ctx = saved;
}

/* Scalars in device memory and pinned host memory, results on a stream of
 * the caller's, into pinned memory; two MSMs in flight on one context. */
static void test_g1_memory(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, seed ^ 0x15);
    const size_t n = 1u << 15;
    g1_affine_t *pts = xmalloc(n * sizeof(g1_affine_t));
    fr_t *sc = xmalloc(n * sizeof(fr_t));
    g1_make_points(pts, n, 0, &rng);
    make_scalars(sc, n, SC_MIXED, &rng);
    g1_jac_t want;
    assert_int_equal(msm_g1(&want, pts, sc, n, 0), CUZK_OK);
    cuda_msm_points *h = NULL;
    assert_device_ok(cuda_msm_points_upload(ctx, CUDA_MSM_G1, pts, n, &h));
    fr_t *d_sc = NULL, *p_sc = NULL;
    g1_jac_t *out = NULL;
    cudaStream_t s1, s2;
    assert_int_equal(cudaMalloc((void **)&d_sc, n * sizeof(fr_t)), cudaSuccess);
    assert_int_equal(cudaMallocHost((void **)&p_sc, n * sizeof(fr_t)), cudaSuccess);
    assert_int_equal(cudaMallocHost((void **)&out, 4 * sizeof(g1_jac_t)), cudaSuccess);
    assert_int_equal(cudaStreamCreate(&s1), cudaSuccess);
    assert_int_equal(cudaStreamCreate(&s2), cudaSuccess);
    assert_int_equal(cudaMemcpy(d_sc, sc, n * sizeof(fr_t), cudaMemcpyHostToDevice), cudaSuccess);
    memcpy(p_sc, sc, n * sizeof(fr_t));
    memset(out, 0x5a, 4 * sizeof(g1_jac_t));
    assert_device_ok(cuda_msm_g1(ctx, h, d_sc, n, &out[0], s1));
    assert_device_ok(cuda_msm_g1_split(ctx, h, d_sc, n, &out[1], s2));
    assert_device_ok(cuda_msm_g1(ctx, h, p_sc, n, &out[2], s1));
    assert_device_ok(cuda_msm_g1_split(ctx, h, p_sc, n, &out[3], s1));
    assert_device_ok(cuda_msm_wait(ctx));
    assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    for (int i = 0; i < 4; i++)
        if (!g1_jac_eq(&out[i], &want))
            fail_msg("G1 memory kinds: result %d differs from the CPU", i);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaFree(d_sc);
    cudaFreeHost(p_sc);
    cudaFreeHost(out);
    cuda_msm_points_free(h);
    free(pts);
    free(sc);
}

/* The benchmark's inputs: generated points are [a + i·d]·G, and an MSM over
 * them equals [a·Σk + d·Σ i·k]·G. */
static void test_g1_generated(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, seed ^ 0x16);
    const size_t n = 1u << 16;
    uint64_t a[4], d[4];
    random_raw(a, &rng);
    random_raw(d, &rng);
    cuda_msm_points *h = NULL;
    assert_device_ok(cuda_msm_points_generate(ctx, CUDA_MSM_G1, &G1_GENERATOR, a, d, n, &h));
    g1_affine_t *pts = xmalloc(n * sizeof(g1_affine_t));
    assert_device_ok(cuda_msm_points_download(ctx, h, pts, n));
    fr_t fa, fd, fi, li;
    fr_from_raw(&fa, a);
    fr_from_raw(&fd, d);
    g1_jac_t g, w;
    g1_jac_from_affine(&g, &G1_GENERATOR);
    static const size_t idx[] = {0, 1, 2, 63, 64, 65535, 65536, 65537, 99999};
    for (size_t j = 0; j < sizeof(idx) / sizeof(idx[0]); j++) {
        const size_t i = idx[j] % n;
        uint64_t k[4];
        fr_from_u64(&fi, i);
        fr_mul(&li, &fi, &fd);
        fr_add(&li, &li, &fa);
        fr_to_raw(k, &li);
        g1_jac_mul_var(&w, &g, k);
        g1_affine_t wa;
        g1_jac_to_affine(&wa, &w);
        if (!g1_affine_eq(&wa, &pts[i]) || !g1_affine_is_on_curve(&pts[i]))
            fail_msg("generated G1 point %zu is not [a + i·d]·G", i);
    }
    fr_t *sc = xmalloc(n * sizeof(fr_t));
    make_scalars(sc, n, SC_RANDOM, &rng);
    fr_t s0, s1, t;
    memset(&s0, 0, sizeof(s0));
    memset(&s1, 0, sizeof(s1));
    for (size_t i = 0; i < n; i++) {
        fr_add(&s0, &s0, &sc[i]);
        fr_from_u64(&fi, i);
        fr_mul(&t, &fi, &sc[i]);
        fr_add(&s1, &s1, &t);
    }
    fr_mul(&s0, &s0, &fa);
    fr_mul(&s1, &s1, &fd);
    fr_add(&s0, &s0, &s1);
    uint64_t k[4];
    fr_to_raw(k, &s0);
    g1_jac_t want, got, cpu;
    g1_jac_mul_var(&want, &g, k);
    assert_int_equal(msm_g1(&cpu, pts, sc, n, 0), CUZK_OK);
    assert_true(g1_jac_eq(&cpu, &want));
    assert_device_ok(cuda_msm_g1(ctx, h, sc, n, &got, NULL));
    assert_device_ok(cuda_msm_wait(ctx));
    assert_true(g1_jac_eq(&got, &want));
    cuda_msm_points_free(h);
    free(pts);
    free(sc);
}

/* ---- G2 -------------------------------------------------------------------- */

static void g2_case(size_t n, scalar_kind kind, int degenerate, unsigned c, int dense, rng_t *rng)
{
    g2_affine_t *pts = xmalloc(n * sizeof(g2_affine_t));
    fr_t *sc = xmalloc(n * sizeof(fr_t));
    g2_make_points(pts, n, degenerate, rng);
    make_scalars(sc, n, kind, rng);
    g2_jac_t want, got;
    assert_int_equal(msm_g2(&want, pts, sc, n, 0), CUZK_OK);
    cuda_msm_points *h = NULL;
    assert_device_ok(cuda_msm_points_upload(ctx, CUDA_MSM_G2, pts, n, &h));
    assert_device_ok(cuda_msm_set_window_bits(ctx, CUDA_MSM_G2, c));
    const unsigned used = cuda_msm_window_bits(ctx, CUDA_MSM_G2, n);
    memset(&got, 0x5a, sizeof(got));
    assert_device_ok(cuda_msm_g2(ctx, h, sc, n, &got, NULL));
    assert_device_ok(cuda_msm_wait(ctx));
    if (!g2_jac_eq(&got, &want))
        fail_msg("G2 plain: n = %zu, scalars %s, window %u bits: the device and the CPU differ", n,
                 kind_names[kind], used);
    memset(&got, 0x5a, sizeof(got));
    assert_device_ok(cuda_msm_g2_split(ctx, h, sc, n, &got, NULL));
    assert_device_ok(cuda_msm_wait(ctx));
    if (!g2_jac_eq(&got, &want))
        fail_msg("G2 split: n = %zu, scalars %s, window %u bits: the device and the CPU differ", n,
                 kind_names[kind], used);
    if (dense) {
        uint64_t *bits = xmalloc((n / 64 + 1) * sizeof(uint64_t));
        uint64_t *clean = xmalloc((n / 64 + 1) * sizeof(uint64_t));
        g2_affine_t *sub = xmalloc(n * sizeof(g2_affine_t));
        const size_t m = make_density(bits, clean, n, pts, sub, sizeof(g2_affine_t), rng);
        assert_int_equal(msm_g2_dense(&want, sub, m, sc, n, clean, 0), CUZK_OK);
        cuda_msm_points *hs = NULL;
        cuda_msm_density *dn = NULL;
        assert_device_ok(cuda_msm_points_upload(ctx, CUDA_MSM_G2, sub, m, &hs));
        assert_device_ok(cuda_msm_density_upload(ctx, bits, n, &dn));
        memset(&got, 0x5a, sizeof(got));
        assert_device_ok(cuda_msm_g2_dense(ctx, hs, sc, n, dn, &got, NULL));
        assert_device_ok(cuda_msm_wait(ctx));
        if (!g2_jac_eq(&got, &want))
            fail_msg("G2 dense: n = %zu, scalars %s: the device and the CPU differ", n,
                     kind_names[kind]);
        cuda_msm_points_free(hs);
        cuda_msm_density_free(dn);
        free(bits);
        free(clean);
        free(sub);
    }
    cuda_msm_points_free(h);
    assert_device_ok(cuda_msm_set_window_bits(ctx, CUDA_MSM_G2, 0));
    free(pts);
    free(sc);
}

static void test_g2(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, seed ^ 0x21);
    static const size_t sizes[] = {0, 1, 2, 3, 17, 1u << 10, (1u << 10) + 1, 1u << 14};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        g2_case(sizes[i], SC_RANDOM, 0, 0, 0, &rng);
    for (int k = 0; k < SC_KIND_COUNT; k++)
        g2_case((1u << 10) + 1, (scalar_kind)k, 1, 0, 1, &rng);
    g2_case(1u << 14, SC_MIXED, 1, 0, 1, &rng);
    for (unsigned c = CUDA_MSM_MIN_WINDOW_BITS; c <= 13; c += 3)
        g2_case(3000, SC_RANDOM, 1, c, 0, &rng);
}

/* ---- the subgroup test -------------------------------------------------------- */

/* Valid points with infinity mixed in, then bad ones planted at random
 * places: the device's first bad index must be the CPU's. */
static void subgroup_case(cuda_msm_group group, size_t n, unsigned bad, rng_t *rng)
{
    const bool g1 = group == CUDA_MSM_G1;
    const size_t elem = g1 ? sizeof(g1_affine_t) : sizeof(g2_affine_t);
    char *pts = xmalloc(n * elem);
    if (g1)
        g1_make_points((g1_affine_t *)pts, n, 1, rng);
    else
        g2_make_points((g2_affine_t *)pts, n, 1, rng);
    for (unsigned k = 0; k < bad; k++) {
        const size_t at = rng_u64(rng) % n;
        if (g1)
            g1_off_subgroup((g1_affine_t *)(pts + at * elem), rng);
        else
            g2_off_subgroup((g2_affine_t *)(pts + at * elem), rng);
    }
    size_t want = SIZE_MAX;
    for (size_t i = 0; i < n && want == SIZE_MAX; i++) {
        const bool on = g1 ? g1_affine_is_on_curve((const g1_affine_t *)(pts + i * elem))
                           : g2_affine_is_on_curve((const g2_affine_t *)(pts + i * elem));
        assert_true(on);
        const bool in = g1 ? g1_affine_in_subgroup((const g1_affine_t *)(pts + i * elem))
                           : g2_affine_in_subgroup((const g2_affine_t *)(pts + i * elem));
        if (!in)
            want = i;
    }
    if (bad)
        assert_true(want != SIZE_MAX); /* the planted points are outside */
    cuda_msm_points *h = NULL;
    assert_device_ok(cuda_msm_points_upload(ctx, group, pts, n, &h));
    size_t got = 0;
    assert_device_ok(cuda_msm_points_check_subgroup(ctx, h, &got));
    if (got != want)
        fail_msg("%s, %zu points, %u planted: the device says %zu, the CPU %zu", g1 ? "G1" : "G2",
                 n, bad, got, want);
    cuda_msm_points_free(h);
    free(pts);
}

static void test_subgroup(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, seed ^ 0x31);
    static const size_t sizes[] = {1, 2, 33, 1u << 12};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        for (unsigned bad = 0; bad <= 2; bad++) {
            subgroup_case(CUDA_MSM_G1, sizes[i], bad, &rng);
            subgroup_case(CUDA_MSM_G2, sizes[i], bad, &rng);
        }
    subgroup_case(CUDA_MSM_G1, 1u << 17, 1, &rng);
    /* Nothing to check: no point at all. */
    cuda_msm_points *h = NULL;
    size_t got = 0;
    assert_device_ok(cuda_msm_points_upload(ctx, CUDA_MSM_G1, &G1_GENERATOR, 0, &h));
    assert_device_ok(cuda_msm_points_check_subgroup(ctx, h, &got));
    assert_true(got == SIZE_MAX);
    assert_int_equal(cuda_msm_points_check_subgroup(NULL, h, &got), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(cuda_msm_points_check_subgroup(ctx, h, NULL), CUZK_ERR_INVALID_ARGUMENT);
    cuda_msm_points_free(h);
}

/* ---- arguments --------------------------------------------------------------- */

static void test_arguments(void **state)
{
    (void)state;
    g1_affine_t pts[4];
    fr_t sc[4];
    rng_t rng;
    rng_seed(&rng, seed ^ 0x31);
    g1_make_points(pts, 4, 0, &rng);
    make_scalars(sc, 4, SC_RANDOM, &rng);
    cuda_msm_points *h = NULL;
    assert_device_ok(cuda_msm_points_upload(ctx, CUDA_MSM_G1, pts, 4, &h));
    g1_jac_t out;
    g2_jac_t out2;
    assert_int_equal(cuda_msm_g1(ctx, h, sc, 5, &out, NULL), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(cuda_msm_g1(ctx, h, sc, 4, NULL, NULL), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(cuda_msm_g1(ctx, NULL, sc, 4, &out, NULL), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(cuda_msm_g2(ctx, h, sc, 4, &out2, NULL), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(cuda_msm_g1(ctx, h, sc, G1_MAX_N + 1, &out, NULL), CUZK_ERR_INVALID_ARGUMENT);
    uint64_t bits = 0x7; /* three points selected, the handle has four */
    cuda_msm_density *dn = NULL;
    assert_device_ok(cuda_msm_density_upload(ctx, &bits, 5, &dn));
    assert_int_equal(cuda_msm_density_count(dn), 3);
    assert_int_equal(cuda_msm_g1_dense(ctx, h, sc, 4, dn, &out, NULL),
                     CUZK_ERR_INVALID_ARGUMENT); /* density covers 5 variables */
    assert_int_equal(cuda_msm_set_window_bits(ctx, CUDA_MSM_G1, 3), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(cuda_msm_set_window_bits(ctx, CUDA_MSM_G1, 24), CUZK_OK);
    assert_int_equal(cuda_msm_g1(ctx, h, sc, 4, &out, NULL), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(cuda_msm_set_window_bits(ctx, CUDA_MSM_G1, 0), CUZK_OK);
    assert_device_ok(cuda_msm_g1(ctx, h, sc, 0, &out, NULL));
    assert_device_ok(cuda_msm_wait(ctx));
    assert_true(g1_jac_is_infinity(&out));
    cuda_msm_density_free(dn);
    cuda_msm_points_free(h);
    cuda_msm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cuda_msm_ctx *bad = NULL;
    assert_int_equal(cuda_msm_ctx_create(&bad, &cfg), CUZK_ERR_INVALID_ARGUMENT);
}

static int group_setup(void **state)
{
    (void)state;
    cuda_msm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.max_n[CUDA_MSM_G1] = G1_MAX_N;
    cfg.max_n[CUDA_MSM_G2] = G2_MAX_N;
    cfg.max_window_bits = MAX_WINDOW;
    cuzk_status st = cuda_msm_ctx_create(&ctx, &cfg);
    if (st != CUZK_OK) {
        printf("test_cuda_msm: context: %s (%s)\n", cuzk_status_str(st), cuda_msm_last_error());
        return -1;
    }
    printf("test_cuda_msm: context holds %.1f MiB of device memory\n",
           (double)cuda_msm_ctx_device_bytes(ctx) / (1 << 20));
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    cuda_msm_ctx_destroy(ctx);
    return 0;
}

int main(void)
{
    const char *why = "unknown reason";
    if (cuda_device_count(&why) == 0) {
        printf("SKIPPED: test_cuda_msm: no CUDA device (%s)\n", why);
        return 77;
    }
    cuda_device_info info;
    if (cuda_device_query(0, &info) == 0)
        printf("test_cuda_msm: device 0: %s, %d SMs\n", info.name, info.sm_count);
    seed = test_seed("test_cuda_msm");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arguments),    cmocka_unit_test(test_g1_sizes),
        cmocka_unit_test(test_g1_kinds),     cmocka_unit_test(test_g1_windows),
        cmocka_unit_test(test_g1_batches), cmocka_unit_test(test_g1_queued_calls),   cmocka_unit_test(test_g1_memory),
        cmocka_unit_test(test_g1_generated), cmocka_unit_test(test_g2),
        cmocka_unit_test(test_subgroup),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}

#endif
