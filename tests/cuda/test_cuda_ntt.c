/* The GPU NTT family and quotient (cuda/ntt.h) against the CPU's
 * (poly/ntt.h, poly/quotient.h), bit for bit, on seeded random inputs: every
 * direction and coset for sizes 2^0 .. 2^20 and 2^24, both root choices,
 * forced pass splits (2 to 6 passes at small sizes, compact twiddles),
 * round trips, batched against one by one, and h of satisfied systems.
 *
 * Without a GPU the same kernel code runs in the host emulation on small
 * sizes (which also checks that no two threads share a shared-memory slot
 * between barriers), then the test reports SKIPPED (exit 77). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#ifndef CUZK_HAVE_CUDA

int main(void)
{
    printf("SKIPPED: test_cuda_ntt: no CUDA device (built without CUDA)\n");
    return 77;
}

#else

#include <stdlib.h>
#include <string.h>

#include "cuda/device.h"
#include "cuda/ntt.h"
#include "field/fr.h"
#include "poly/domain.h"
#include "poly/ntt.h"
#include "poly/quotient.h"
#include "seed.h"

static uint64_t seed;
static rng_t rng;
static int device;       /* 0, or CUDA_NTT_HOST_EMULATION */
static unsigned max_log; /* largest size of the default-plan checks */

#define assert_ok(expr)                                                                            \
    do {                                                                                           \
        cuzk_status st_ = (expr);                                                                  \
        if (st_ != CUZK_OK)                                                                        \
            fail_msg("%s: %s (%s)", #expr, cuzk_status_str(st_), cuda_ntt_last_error());           \
    } while (0)

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    assert_non_null(p);
    return p;
}

static void random_vec(fr_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fr_random(&v[i], &rng);
}

static const char *roots_name(int r)
{
    return r == CUDA_NTT_ROOTS_SNARKJS ? "snarkjs" : "bellman";
}

/* Counts differing elements; prints the first few. */
static size_t compare(const char *what, const fr_t *got, const fr_t *want, size_t n)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (fr_eq(&got[i], &want[i]))
            continue;
        if (bad < 3)
            printf("  %s: element %zu of %zu differs\n", what, i, n);
        bad++;
    }
    if (bad)
        printf("  %s: %zu of %zu elements differ\n", what, bad, n);
    return bad;
}

/* ---- one configuration ------------------------------------------------------ */

typedef struct config {
    const char *name;
    cuda_ntt_options opt;
} config;

static const config configs[] = {
    {"default", {0, 0, 0, CUDA_NTT_BLS12_381}},
    {"compact", {CUDA_NTT_TWIDDLES_COMPACT, 0, 0, CUDA_NTT_BLS12_381}},
    {"p3s2", {0, 3, 2, CUDA_NTT_BLS12_381}}, /* up to 5 passes of 2-3 points at 2^13 */
    {"p4s5c", {CUDA_NTT_TWIDDLES_COMPACT, 4, 5, CUDA_NTT_BLS12_381}},
    {"p5s1", {0, 5, 1, CUDA_NTT_BLS12_381}}, /* two passes from 2^2 */
    {"p7s6", {0, 7, 6, CUDA_NTT_BLS12_381}},
    {"p9s8", {0, 9, 8, CUDA_NTT_BLS12_381}},
};

/* Every direction and coset at 2^k against ntt_transform (NTT_NN). */
static size_t check_transforms(cuda_ntt_ctx *ctx, const domain_t *d, void *dv, fr_t *x, fr_t *got,
                               fr_t *want, const char *tag)
{
    size_t bad = 0, n = d->n;
    for (int dir = 0; dir < 2; dir++) {
        for (int coset = 0; coset < 2; coset++) {
            random_vec(x, n);
            memcpy(want, x, n * sizeof(fr_t));
            ntt_transform(want, d, NTT_NN, (ntt_direction)dir, (ntt_coset)coset, 0);
            assert_ok(cuda_ntt_upload(ctx, dv, x, n, NULL));
            assert_ok(
                cuda_ntt(ctx, dv, d->log_n, (cuda_ntt_direction)dir, (cuda_ntt_coset)coset, NULL));
            assert_ok(cuda_ntt_download(ctx, got, dv, n, NULL));
            assert_ok(cuda_ntt_sync(ctx, NULL));
            char what[96];
            snprintf(what, sizeof(what), "%s 2^%u %s %s%s", tag, d->log_n,
                     dir ? "inverse" : "forward", coset ? "coset " : "", roots_name(d->roots));
            bad += compare(what, got, want, n);
        }
    }
    return bad;
}

/* The lean quotient's c: its first m rows uploaded into the vector it
 * frees (the rest stays what the transform of b left there). */
typedef struct fill_c_arg {
    cuda_ntt_ctx *ctx;
    const fr_t *c;
    size_t m;
    unsigned calls;
} fill_c_arg;

static cuzk_status fill_c_upload(void *arg, void *d_c)
{
    fill_c_arg *f = arg;
    f->calls++;
    return cuda_ntt_upload(f->ctx, d_c, f->c, f->m, NULL);
}

static cuzk_status fill_c_refuse(void *arg, void *d_c)
{
    (void)arg;
    (void)d_c;
    return CUZK_ERR_UNSATISFIED;
}

/* h and the coset evaluations of a satisfied system (first m rows random,
 * c = a b there, garbage beyond m) against poly_compute_h and
 * poly_h_coset_evals, from three vectors and from two (the lean form, c
 * given when b is done). */
static size_t check_h(cuda_ntt_ctx *ctx, const domain_t *d, size_t m, void *const *dv,
                      fr_t *const *h, fr_t *const *w, const char *tag)
{
    size_t bad = 0, n = d->n;
    for (int coset = 0; coset < 2; coset++) {
        for (int evals = 0; evals < 2; evals++) {
            for (size_t i = 0; i < n; i++) {
                fr_random(&h[0][i], &rng);
                fr_random(&h[1][i], &rng);
                if (i < m)
                    fr_mul(&h[2][i], &h[0][i], &h[1][i]);
                else
                    fr_random(&h[2][i], &rng);
            }
            for (int v = 0; v < 3; v++) {
                assert_ok(cuda_ntt_upload(ctx, dv[v], h[v], n, NULL));
                memcpy(w[v], h[v], n * sizeof(fr_t));
            }
            if (evals) {
                assert_int_equal(poly_h_coset_evals(w[0], w[1], w[2], m, d, (poly_h_coset)coset, 0),
                                 CUZK_OK);
                assert_ok(cuda_h_coset_evals(ctx, dv[0], dv[1], dv[2], m, d->log_n,
                                             (cuda_h_coset)coset, NULL));
            } else {
                assert_int_equal(poly_compute_h(w[0], w[1], w[2], m, d, (poly_h_coset)coset, 0),
                                 CUZK_OK);
                assert_true(poly_h_top_is_zero(w[0], d));
                assert_ok(cuda_compute_h(ctx, dv[0], dv[1], dv[2], m, d->log_n, (cuda_h_coset)coset,
                                         NULL));
            }
            fr_t *a = malloc(n * sizeof(fr_t));
            assert_non_null(a);
            memcpy(a, h[0], n * sizeof(fr_t));
            assert_ok(cuda_ntt_download(ctx, h[0], dv[0], n, NULL));
            assert_ok(cuda_ntt_sync(ctx, NULL));
            char what[96];
            snprintf(what, sizeof(what), "%s 2^%u m=%zu %s %s %s", tag, d->log_n, m,
                     evals ? "coset evals" : "h", coset ? "2n-root" : "generator",
                     roots_name(d->roots));
            bad += compare(what, h[0], w[0], n);

            /* the lean form: garbage in b beyond m too */
            for (size_t i = m; i < n; i++)
                fr_random(&h[1][i], &rng);
            assert_ok(cuda_ntt_upload(ctx, dv[0], a, n, NULL));
            assert_ok(cuda_ntt_upload(ctx, dv[1], h[1], n, NULL));
            fill_c_arg f = {ctx, h[2], m, 0};
            if (evals)
                assert_ok(cuda_h_coset_evals_lean(ctx, dv[0], dv[1], m, d->log_n,
                                                  (cuda_h_coset)coset, fill_c_upload, &f, NULL));
            else
                assert_ok(cuda_compute_h_lean(ctx, dv[0], dv[1], m, d->log_n, (cuda_h_coset)coset,
                                              fill_c_upload, &f, NULL));
            assert_int_equal(f.calls, 1);
            assert_ok(cuda_ntt_download(ctx, h[0], dv[0], n, NULL));
            assert_ok(cuda_ntt_sync(ctx, NULL));
            strncat(what, " lean", sizeof(what) - strlen(what) - 1);
            bad += compare(what, h[0], w[0], n);
            free(a);
        }
    }
    return bad;
}

/* Transforms and h at every size lo..hi with one configuration. */
static size_t check_sizes(const config *cf, int roots, unsigned lo, unsigned hi, int with_h)
{
    cuda_ntt_ctx *ctx;
    assert_ok(cuda_ntt_ctx_create(&ctx, device, hi, 1, (cuda_ntt_roots)roots, &cf->opt));
    const size_t nmax = (size_t)1 << hi;
    fr_t *x = xmalloc(nmax * sizeof(fr_t)), *got = xmalloc(nmax * sizeof(fr_t));
    fr_t *want = xmalloc(nmax * sizeof(fr_t));
    fr_t *h[3], *w[3];
    void *dv[3];
    for (int v = 0; v < 3; v++) {
        h[v] = xmalloc(nmax * sizeof(fr_t));
        w[v] = xmalloc(nmax * sizeof(fr_t));
        assert_ok(cuda_ntt_alloc(ctx, &dv[v], nmax));
    }
    size_t bad = 0;
    for (unsigned k = lo; k <= hi; k++) {
        domain_t d;
        assert_int_equal(domain_init_log(&d, k, (domain_roots)roots, 0), CUZK_OK);
        bad += check_transforms(ctx, &d, dv[0], x, got, want, cf->name);
        if (with_h) {
            const size_t n = d.n;
            bad += check_h(ctx, &d, n, dv, h, w, cf->name);
            if (n > 1)
                bad += check_h(ctx, &d, n - n / 3 - 1, dv, h, w, cf->name);
        }
        domain_free(&d);
    }
    for (int v = 0; v < 3; v++) {
        cuda_ntt_free(ctx, dv[v]);
        free(h[v]);
        free(w[v]);
    }
    free(x);
    free(got);
    free(want);
    cuda_ntt_ctx_destroy(ctx);
    return bad;
}

/* ---- tests -------------------------------------------------------------------- */

/* Default plan: one pass up to 2^11, two to 2^18, three above. */
static void test_default_sizes(void **state)
{
    (void)state;
    rng_seed(&rng, seed ^ 0x11);
    size_t bad = 0;
    for (int roots = 0; roots < 2; roots++)
        bad += check_sizes(&configs[0], roots, 0, max_log, 1);
    assert_int_equal(bad, 0);
}

/* Forced pass splits and compact twiddles at small sizes. */
static void test_forced_plans(void **state)
{
    (void)state;
    rng_seed(&rng, seed ^ 0x12);
    const unsigned hi = device == CUDA_NTT_HOST_EMULATION ? 13 : 16;
    size_t bad = 0;
    for (size_t c = 1; c < sizeof(configs) / sizeof(configs[0]); c++)
        for (int roots = 0; roots < 2; roots++)
            bad += check_sizes(&configs[c], roots, 0, hi, roots == (int)(c & 1));
    assert_int_equal(bad, 0);
}

/* Inverse after forward (plain and coset) gives the input back; a batch of
 * three gives what one at a time gives. */
static void test_round_trip_and_batch(void **state)
{
    (void)state;
    rng_seed(&rng, seed ^ 0x13);
    const unsigned logs[] = {3, 9, 12, 17, 20};
    cuda_ntt_ctx *ctx;
    const unsigned top = device == CUDA_NTT_HOST_EMULATION ? 12 : 20;
    assert_ok(cuda_ntt_ctx_create(&ctx, device, top, 3, CUDA_NTT_ROOTS_BELLMAN, NULL));
    size_t bad = 0;
    for (size_t li = 0; li < sizeof(logs) / sizeof(logs[0]) && logs[li] <= top; li++) {
        const unsigned k = logs[li];
        const size_t n = (size_t)1 << k;
        fr_t *x[3], *y[3];
        void *dv[3];
        for (int v = 0; v < 3; v++) {
            x[v] = xmalloc(n * sizeof(fr_t));
            y[v] = xmalloc(n * sizeof(fr_t));
            random_vec(x[v], n);
            assert_ok(cuda_ntt_alloc(ctx, &dv[v], n));
            assert_ok(cuda_ntt_upload(ctx, dv[v], x[v], n, NULL));
        }
        for (int coset = 0; coset < 2; coset++) {
            assert_ok(cuda_ntt(ctx, dv[0], k, CUDA_NTT_FORWARD, (cuda_ntt_coset)coset, NULL));
            assert_ok(cuda_ntt(ctx, dv[0], k, CUDA_NTT_INVERSE, (cuda_ntt_coset)coset, NULL));
            assert_ok(cuda_ntt_download(ctx, y[0], dv[0], n, NULL));
            assert_ok(cuda_ntt_sync(ctx, NULL));
            bad += compare(coset ? "coset round trip" : "round trip", y[0], x[0], n);
        }
        for (int dir = 0; dir < 2; dir++) {
            assert_ok(cuda_ntt_batch(ctx, dv, 3, k, (cuda_ntt_direction)dir, CUDA_NTT_COSET, NULL));
            for (int v = 0; v < 3; v++) {
                assert_ok(cuda_ntt_download(ctx, y[v], dv[v], n, NULL));
                assert_ok(cuda_ntt_upload(ctx, dv[v], x[v], n, NULL));
                assert_ok(cuda_ntt(ctx, dv[v], k, (cuda_ntt_direction)dir, CUDA_NTT_COSET, NULL));
                assert_ok(cuda_ntt_download(ctx, x[v], dv[v], n, NULL));
                assert_ok(cuda_ntt_sync(ctx, NULL));
                bad += compare("batch of 3 vs one by one", y[v], x[v], n);
            }
        }
        for (int v = 0; v < 3; v++) {
            cuda_ntt_free(ctx, dv[v]);
            free(x[v]);
            free(y[v]);
        }
    }
    cuda_ntt_ctx_destroy(ctx);
    assert_int_equal(bad, 0);
}

/* 2^24 (three passes), once: forward against the CPU, h of a satisfied
 * system against the CPU. */
static void test_2_24(void **state)
{
    (void)state;
    rng_seed(&rng, seed ^ 0x14);
    const unsigned k = 24;
    const size_t n = (size_t)1 << k;
    cuda_ntt_ctx *ctx;
    assert_ok(cuda_ntt_ctx_create(&ctx, device, k, 1, CUDA_NTT_ROOTS_BELLMAN, NULL));
    domain_t d;
    assert_int_equal(domain_init_log(&d, k, DOMAIN_ROOTS_BELLMAN, 0), CUZK_OK);
    fr_t *h[3], *w[3];
    void *dv[3];
    for (int v = 0; v < 3; v++) {
        h[v] = xmalloc(n * sizeof(fr_t));
        w[v] = xmalloc(n * sizeof(fr_t));
        assert_ok(cuda_ntt_alloc(ctx, &dv[v], n));
    }
    size_t bad = 0;
    random_vec(h[0], n);
    memcpy(w[0], h[0], n * sizeof(fr_t));
    ntt_transform(w[0], &d, NTT_NN, NTT_FORWARD, NTT_STANDARD, 0);
    assert_ok(cuda_ntt_upload(ctx, dv[0], h[0], n, NULL));
    assert_ok(cuda_ntt(ctx, dv[0], k, CUDA_NTT_FORWARD, CUDA_NTT_STANDARD, NULL));
    assert_ok(cuda_ntt_download(ctx, h[1], dv[0], n, NULL));
    assert_ok(cuda_ntt_sync(ctx, NULL));
    bad += compare("2^24 forward", h[1], w[0], n);
    const size_t m = n - 12345;
    for (size_t i = 0; i < n; i++) {
        fr_random(&h[0][i], &rng);
        fr_random(&h[1][i], &rng);
        if (i < m)
            fr_mul(&h[2][i], &h[0][i], &h[1][i]);
        else
            h[2][i] = FR_ZERO;
    }
    for (int v = 0; v < 3; v++) {
        assert_ok(cuda_ntt_upload(ctx, dv[v], h[v], n, NULL));
        memcpy(w[v], h[v], n * sizeof(fr_t));
    }
    assert_int_equal(poly_compute_h(w[0], w[1], w[2], m, &d, POLY_H_COSET_GENERATOR, 0), CUZK_OK);
    assert_ok(cuda_compute_h(ctx, dv[0], dv[1], dv[2], m, k, CUDA_H_COSET_GENERATOR, NULL));
    assert_ok(cuda_ntt_download(ctx, h[0], dv[0], n, NULL));
    assert_ok(cuda_ntt_sync(ctx, NULL));
    bad += compare("2^24 h", h[0], w[0], n);
    for (int v = 0; v < 3; v++) {
        cuda_ntt_free(ctx, dv[v]);
        free(h[v]);
        free(w[v]);
    }
    domain_free(&d);
    cuda_ntt_ctx_destroy(ctx);
    assert_int_equal(bad, 0);
}

static void test_arguments(void **state)
{
    (void)state;
    cuda_ntt_ctx *ctx;
    assert_int_equal(cuda_ntt_ctx_create(&ctx, device, 29, 1, CUDA_NTT_ROOTS_BELLMAN, NULL),
                     CUZK_ERR_INVALID_ARGUMENT);
    const cuda_ntt_options bad_opt = {0, 10, 0, CUDA_NTT_BLS12_381};
    assert_int_equal(cuda_ntt_ctx_create(&ctx, device, 8, 1, CUDA_NTT_ROOTS_BELLMAN, &bad_opt),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_ok(cuda_ntt_ctx_create(&ctx, device, 8, 1, CUDA_NTT_ROOTS_BELLMAN, NULL));
    void *dv[3];
    for (int v = 0; v < 3; v++)
        assert_ok(cuda_ntt_alloc(ctx, &dv[v], 256));
    assert_int_equal(cuda_ntt(ctx, dv[0], 9, CUDA_NTT_FORWARD, CUDA_NTT_STANDARD, NULL),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(cuda_ntt(ctx, (char *)dv[0] + 8, 8, CUDA_NTT_FORWARD, CUDA_NTT_STANDARD, NULL),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(cuda_compute_h(ctx, dv[0], dv[1], dv[2], 257, 8, CUDA_H_COSET_GENERATOR, NULL),
                     CUZK_ERR_INVALID_ARGUMENT);
    /* m = 0: h = 0 */
    fr_t *z = xmalloc(256 * sizeof(fr_t));
    random_vec(z, 256);
    for (int v = 0; v < 3; v++)
        assert_ok(cuda_ntt_upload(ctx, dv[v], z, 256, NULL));
    assert_ok(cuda_compute_h(ctx, dv[0], dv[1], dv[2], 0, 8, CUDA_H_COSET_2N_ROOT, NULL));
    assert_ok(cuda_ntt_download(ctx, z, dv[0], 256, NULL));
    assert_ok(cuda_ntt_sync(ctx, NULL));
    for (int i = 0; i < 256; i++)
        assert_true(fr_is_zero(&z[i]));
    /* the lean form: no fill, a misaligned vector, a fill that fails */
    assert_int_equal(cuda_compute_h_lean(ctx, dv[0], dv[1], 256, 8, CUDA_H_COSET_GENERATOR, NULL,
                                         NULL, NULL),
                     CUZK_ERR_INVALID_ARGUMENT);
    fill_c_arg f = {ctx, z, 256, 0};
    assert_int_equal(cuda_compute_h_lean(ctx, dv[0], (char *)dv[1] + 8, 256, 8,
                                         CUDA_H_COSET_GENERATOR, fill_c_upload, &f, NULL),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(f.calls, 0);
    assert_int_equal(cuda_compute_h_lean(ctx, dv[0], dv[1], 256, 8, CUDA_H_COSET_GENERATOR,
                                         fill_c_refuse, &f, NULL),
                     CUZK_ERR_UNSATISFIED);
    for (int v = 0; v < 3; v++)
        cuda_ntt_free(ctx, dv[v]);
    cuda_ntt_ctx_destroy(ctx);

    /* no scratch: the quotient and one-pass transforms only */
    domain_t d;
    assert_int_equal(domain_init_log(&d, 12, DOMAIN_ROOTS_BELLMAN, 0), CUZK_OK);
    assert_ok(cuda_ntt_ctx_create(&ctx, device, 12, 0, CUDA_NTT_ROOTS_BELLMAN, NULL));
    assert_ok(cuda_ntt_alloc(ctx, &dv[0], 4096));
    assert_int_equal(cuda_ntt(ctx, dv[0], 12, CUDA_NTT_FORWARD, CUDA_NTT_STANDARD, NULL),
                     CUZK_ERR_UNSUPPORTED);
    assert_ok(cuda_ntt(ctx, dv[0], 11, CUDA_NTT_FORWARD, CUDA_NTT_STANDARD, NULL));
    for (int v = 1; v < 3; v++)
        assert_ok(cuda_ntt_alloc(ctx, &dv[v], 4096));
    fr_t *h[3], *w[3];
    for (int v = 0; v < 3; v++) {
        h[v] = xmalloc(4096 * sizeof(fr_t));
        w[v] = xmalloc(4096 * sizeof(fr_t));
    }
    assert_int_equal(check_h(ctx, &d, 3000, dv, h, w, "no scratch"), 0);
    for (int v = 0; v < 3; v++) {
        cuda_ntt_free(ctx, dv[v]);
        free(h[v]);
        free(w[v]);
    }
    free(z);
    domain_free(&d);
    cuda_ntt_ctx_destroy(ctx);
}

/* After the emulated runs: no races, no block hazards. Bank conflicts are
 * reported. */
static void test_emulation_races(void **state)
{
    (void)state;
    cuda_ntt_emu_stats s;
    cuda_ntt_emu_stats_get(&s, 0);
    printf("test_cuda_ntt: emulation: %llu passes, %llu races, %llu block hazards, %llu "
           "shared-memory access phases, %llu extra wavefronts (bank conflicts)\n",
           s.passes, s.races, s.hazards, s.accesses, s.extra_wavefronts);
    assert_true(s.passes > 0);
    assert_int_equal(s.races, 0);
    assert_int_equal(s.hazards, 0);
}

int main(void)
{
    seed = test_seed("test_cuda_ntt");
    const char *why = "unknown reason";
    const int have_gpu = cuda_device_count(&why) > 0;

    /* The kernel code on the host, small sizes. */
    device = CUDA_NTT_HOST_EMULATION;
    max_log = 13;
    const struct CMUnitTest emu_tests[] = {
        cmocka_unit_test(test_default_sizes),        cmocka_unit_test(test_forced_plans),
        cmocka_unit_test(test_round_trip_and_batch), cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_emulation_races),
    };
    const int emu_failed = cmocka_run_group_tests_name("ntt_host_emulation", emu_tests, NULL, NULL);
    if (!have_gpu) {
        if (emu_failed)
            return 1;
        printf("SKIPPED: test_cuda_ntt: no CUDA device (%s); the host emulation passed\n", why);
        return 77;
    }

    cuda_device_info info;
    if (cuda_device_query(0, &info) == 0)
        printf("test_cuda_ntt: device 0: %s, %d SMs, compute capability %d.%d\n", info.name,
               info.sm_count, info.cc_major, info.cc_minor);
    device = 0;
    max_log = 20;
    const struct CMUnitTest gpu_tests[] = {
        cmocka_unit_test(test_default_sizes),
        cmocka_unit_test(test_forced_plans),
        cmocka_unit_test(test_round_trip_and_batch),
        cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_2_24),
    };
    const int gpu_failed = cmocka_run_group_tests_name("ntt_gpu", gpu_tests, NULL, NULL);
    return emu_failed || gpu_failed ? 1 : 0;
}

#endif
