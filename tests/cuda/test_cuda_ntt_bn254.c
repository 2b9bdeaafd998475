/* The GPU NTT family and quotient over BN254's Fr (cuda/ntt.h with the
 * option curve = CUDA_NTT_BN254) against the CPU's (poly/bn254_ntt.h,
 * poly/bn254_quotient.h), bit for bit, on seeded random inputs: every
 * direction and coset at every size up to 2^20 (2^12 emulated), both root
 * choices, forced pass splits and compact twiddles, h and the coset
 * evaluations of satisfied systems from three vectors and from two, a
 * BLS12-381 context beside a BN254 one, and the refusals at the
 * two-adicity (2^28: no 2n-th root coset, nothing larger).
 *
 * Without a GPU the same kernel code runs in the host emulation on small
 * sizes, then the test reports SKIPPED (exit 77). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#ifndef CUZK_HAVE_CUDA

int main(void)
{
    printf("SKIPPED: test_cuda_ntt_bn254: no CUDA device (built without CUDA)\n");
    return 77;
}

#else

#include <stdlib.h>
#include <string.h>

#include "cuda/device.h"
#include "cuda/ntt.h"
#include "field/bn254_fr.h"
#include "field/fr.h"
#include "poly/bn254_domain.h"
#include "poly/bn254_ntt.h"
#include "poly/bn254_quotient.h"
#include "poly/domain.h"
#include "poly/ntt.h"
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

static void random_vec(bn254_fr_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        bn254_fr_random(&v[i], &rng);
}

static const char *roots_name(int r)
{
    return r == CUDA_NTT_ROOTS_SNARKJS ? "snarkjs" : "bellman";
}

/* Counts differing elements; prints the first few. */
static size_t compare(const char *what, const bn254_fr_t *got, const bn254_fr_t *want, size_t n)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (bn254_fr_eq(&got[i], &want[i]))
            continue;
        if (bad < 3)
            printf("  %s: element %zu of %zu differs\n", what, i, n);
        bad++;
    }
    if (bad)
        printf("  %s: %zu of %zu elements differ\n", what, bad, n);
    return bad;
}

/* The device buffers' element type is declared as struct fr (cuda/ntt.h);
 * BN254's elements have its layout. */
#define FR(p) ((const struct fr *)(p))
#define FRW(p) ((struct fr *)(p))

typedef struct config {
    const char *name;
    cuda_ntt_options opt;
} config;

static const config configs[] = {
    {"default", {.curve = CUDA_NTT_BN254}},
    {"compact", {.flags = CUDA_NTT_TWIDDLES_COMPACT, .curve = CUDA_NTT_BN254}},
    {"p3s2", {.max_pass_log = 3, .max_single_log = 2, .curve = CUDA_NTT_BN254}},
    {"p4s5c",
     {.flags = CUDA_NTT_TWIDDLES_COMPACT,
      .max_pass_log = 4,
      .max_single_log = 5,
      .curve = CUDA_NTT_BN254}},
};

/* Every direction and coset at 2^k against bn254_ntt_transform (NTT_NN). */
static size_t check_transforms(cuda_ntt_ctx *ctx, const bn254_domain_t *d, void *dv, bn254_fr_t *x,
                               bn254_fr_t *got, bn254_fr_t *want, const char *tag)
{
    size_t bad = 0, n = d->n;
    for (int dir = 0; dir < 2; dir++)
        for (int coset = 0; coset < 2; coset++) {
            random_vec(x, n);
            memcpy(want, x, n * sizeof(bn254_fr_t));
            bn254_ntt_transform(want, d, NTT_NN, (ntt_direction)dir, (ntt_coset)coset, 0);
            assert_ok(cuda_ntt_upload(ctx, dv, FR(x), n, NULL));
            assert_ok(
                cuda_ntt(ctx, dv, d->log_n, (cuda_ntt_direction)dir, (cuda_ntt_coset)coset, NULL));
            assert_ok(cuda_ntt_download(ctx, FRW(got), dv, n, NULL));
            assert_ok(cuda_ntt_sync(ctx, NULL));
            char what[96];
            snprintf(what, sizeof(what), "%s 2^%u %s %s%s", tag, d->log_n,
                     dir ? "inverse" : "forward", coset ? "coset " : "", roots_name(d->roots));
            bad += compare(what, got, want, n);
        }
    return bad;
}

typedef struct fill_c_arg {
    cuda_ntt_ctx *ctx;
    const bn254_fr_t *c;
    size_t m;
} fill_c_arg;

static cuzk_status fill_c_upload(void *arg, void *d_c)
{
    const fill_c_arg *f = arg;
    return cuda_ntt_upload(f->ctx, d_c, FR(f->c), f->m, NULL);
}

/* h and the coset evaluations of a satisfied system (first m rows random,
 * c = a b there, garbage beyond m) against bn254_poly_compute_h and
 * bn254_poly_h_coset_evals, from three vectors and from two. */
static size_t check_h(cuda_ntt_ctx *ctx, const bn254_domain_t *d, size_t m, void *const *dv,
                      bn254_fr_t *const *h, bn254_fr_t *const *w, const char *tag)
{
    size_t bad = 0, n = d->n;
    for (int coset = 0; coset < 2; coset++)
        for (int evals = 0; evals < 2; evals++) {
            for (size_t i = 0; i < n; i++) {
                bn254_fr_random(&h[0][i], &rng);
                bn254_fr_random(&h[1][i], &rng);
                if (i < m)
                    bn254_fr_mul(&h[2][i], &h[0][i], &h[1][i]);
                else
                    bn254_fr_random(&h[2][i], &rng);
            }
            for (int v = 0; v < 3; v++) {
                assert_ok(cuda_ntt_upload(ctx, dv[v], FR(h[v]), n, NULL));
                memcpy(w[v], h[v], n * sizeof(bn254_fr_t));
            }
            if (evals) {
                assert_int_equal(
                    bn254_poly_h_coset_evals(w[0], w[1], w[2], m, d, (poly_h_coset)coset, 0),
                    CUZK_OK);
                assert_ok(cuda_h_coset_evals(ctx, dv[0], dv[1], dv[2], m, d->log_n,
                                             (cuda_h_coset)coset, NULL));
            } else {
                assert_int_equal(
                    bn254_poly_compute_h(w[0], w[1], w[2], m, d, (poly_h_coset)coset, 0), CUZK_OK);
                assert_true(bn254_poly_h_top_is_zero(w[0], d));
                assert_ok(cuda_compute_h(ctx, dv[0], dv[1], dv[2], m, d->log_n, (cuda_h_coset)coset,
                                         NULL));
            }
            bn254_fr_t *a = xmalloc(n * sizeof(bn254_fr_t));
            memcpy(a, h[0], n * sizeof(bn254_fr_t));
            assert_ok(cuda_ntt_download(ctx, FRW(h[0]), dv[0], n, NULL));
            assert_ok(cuda_ntt_sync(ctx, NULL));
            char what[96];
            snprintf(what, sizeof(what), "%s 2^%u m=%zu %s %s %s", tag, d->log_n, m,
                     evals ? "coset evals" : "h", coset ? "2n-root" : "generator",
                     roots_name(d->roots));
            bad += compare(what, h[0], w[0], n);

            /* the lean form */
            assert_ok(cuda_ntt_upload(ctx, dv[0], FR(a), n, NULL));
            assert_ok(cuda_ntt_upload(ctx, dv[1], FR(h[1]), n, NULL));
            fill_c_arg f = {ctx, h[2], m};
            if (evals)
                assert_ok(cuda_h_coset_evals_lean(ctx, dv[0], dv[1], m, d->log_n,
                                                  (cuda_h_coset)coset, fill_c_upload, &f, NULL));
            else
                assert_ok(cuda_compute_h_lean(ctx, dv[0], dv[1], m, d->log_n, (cuda_h_coset)coset,
                                              fill_c_upload, &f, NULL));
            assert_ok(cuda_ntt_download(ctx, FRW(h[0]), dv[0], n, NULL));
            assert_ok(cuda_ntt_sync(ctx, NULL));
            strncat(what, " lean", sizeof(what) - strlen(what) - 1);
            bad += compare(what, h[0], w[0], n);
            free(a);
        }
    return bad;
}

/* Transforms and h at every size lo..hi with one configuration. */
static size_t check_sizes(const config *cf, int roots, unsigned lo, unsigned hi, int with_h)
{
    cuda_ntt_ctx *ctx;
    assert_ok(cuda_ntt_ctx_create(&ctx, device, hi, 1, (cuda_ntt_roots)roots, &cf->opt));
    const size_t nmax = (size_t)1 << hi;
    bn254_fr_t *x = xmalloc(nmax * sizeof(bn254_fr_t)), *got = xmalloc(nmax * sizeof(bn254_fr_t));
    bn254_fr_t *want = xmalloc(nmax * sizeof(bn254_fr_t));
    bn254_fr_t *h[3], *w[3];
    void *dv[3];
    for (int v = 0; v < 3; v++) {
        h[v] = xmalloc(nmax * sizeof(bn254_fr_t));
        w[v] = xmalloc(nmax * sizeof(bn254_fr_t));
        assert_ok(cuda_ntt_alloc(ctx, &dv[v], nmax));
    }
    size_t bad = 0;
    for (unsigned k = lo; k <= hi; k++) {
        bn254_domain_t d;
        assert_int_equal(bn254_domain_init_log(&d, k, (domain_roots)roots, 0), CUZK_OK);
        bad += check_transforms(ctx, &d, dv[0], x, got, want, cf->name);
        if (with_h) {
            bad += check_h(ctx, &d, d.n, dv, h, w, cf->name);
            if (d.n > 1)
                bad += check_h(ctx, &d, d.n - d.n / 3 - 1, dv, h, w, cf->name);
        }
        bn254_domain_free(&d);
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

static void test_default_sizes(void **state)
{
    (void)state;
    rng_seed(&rng, seed ^ 0x11);
    size_t bad = 0;
    for (int roots = 0; roots < 2; roots++)
        bad += check_sizes(&configs[0], roots, 0, max_log, 1);
    assert_int_equal(bad, 0);
}

static void test_forced_plans(void **state)
{
    (void)state;
    rng_seed(&rng, seed ^ 0x12);
    const unsigned hi = device == CUDA_NTT_HOST_EMULATION ? 11 : 16;
    size_t bad = 0;
    for (size_t c = 1; c < sizeof(configs) / sizeof(configs[0]); c++)
        bad += check_sizes(&configs[c], (int)(c & 1), 0, hi, 1);
    assert_int_equal(bad, 0);
}

/* A BLS12-381 context and a BN254 one side by side: each transform is its
 * own field's. */
static void test_curves_side_by_side(void **state)
{
    (void)state;
    rng_seed(&rng, seed ^ 0x13);
    const unsigned k = 10;
    const size_t n = (size_t)1 << k;
    cuda_ntt_ctx *bls, *bn;
    assert_ok(cuda_ntt_ctx_create(&bls, device, k, 0, CUDA_NTT_ROOTS_SNARKJS, NULL));
    assert_ok(cuda_ntt_ctx_create(&bn, device, k, 0, CUDA_NTT_ROOTS_SNARKJS, &configs[0].opt));
    fr_t *x = xmalloc(n * sizeof(fr_t)), *y = xmalloc(n * sizeof(fr_t));
    bn254_fr_t *u = xmalloc(n * sizeof(bn254_fr_t)), *v = xmalloc(n * sizeof(bn254_fr_t));
    for (size_t i = 0; i < n; i++) {
        fr_random(&x[i], &rng);
        bn254_fr_random(&u[i], &rng);
    }
    void *dx, *du;
    assert_ok(cuda_ntt_alloc(bls, &dx, n));
    assert_ok(cuda_ntt_alloc(bn, &du, n));
    assert_ok(cuda_ntt_upload(bls, dx, x, n, NULL));
    assert_ok(cuda_ntt_upload(bn, du, FR(u), n, NULL));
    assert_ok(cuda_ntt(bls, dx, k, CUDA_NTT_FORWARD, CUDA_NTT_COSET, NULL));
    assert_ok(cuda_ntt(bn, du, k, CUDA_NTT_FORWARD, CUDA_NTT_COSET, NULL));
    assert_ok(cuda_ntt_download(bls, y, dx, n, NULL));
    assert_ok(cuda_ntt_download(bn, FRW(v), du, n, NULL));
    assert_ok(cuda_ntt_sync(bls, NULL));
    assert_ok(cuda_ntt_sync(bn, NULL));
    domain_t d;
    bn254_domain_t e;
    assert_int_equal(domain_init_log(&d, k, DOMAIN_ROOTS_SNARKJS, 0), CUZK_OK);
    assert_int_equal(bn254_domain_init_log(&e, k, DOMAIN_ROOTS_SNARKJS, 0), CUZK_OK);
    ntt_transform(x, &d, NTT_NN, NTT_FORWARD, NTT_COSET, 0);
    bn254_ntt_transform(u, &e, NTT_NN, NTT_FORWARD, NTT_COSET, 0);
    for (size_t i = 0; i < n; i++)
        assert_true(fr_eq(&x[i], &y[i]));
    assert_int_equal(compare("BN254 beside BLS12-381", v, u, n), 0);
    domain_free(&d);
    bn254_domain_free(&e);
    cuda_ntt_free(bls, dx);
    cuda_ntt_free(bn, du);
    cuda_ntt_ctx_destroy(bls);
    cuda_ntt_ctx_destroy(bn);
    free(x);
    free(y);
    free(u);
    free(v);
}

/* Sizes past BN254's two-adicity, an unknown curve, and the 2n-th root
 * coset at 2^28 (no 2^29-th root of unity) are refused. */
static void test_arguments(void **state)
{
    (void)state;
    cuda_ntt_ctx *ctx = NULL;
    cuda_ntt_domain *dom = NULL;
    const cuda_ntt_options bad_curve = {.curve = (cuda_ntt_curve)7};
    assert_int_equal(cuda_ntt_ctx_create(&ctx, device, 29, 0, CUDA_NTT_ROOTS_SNARKJS,
                                         &configs[0].opt),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(cuda_ntt_ctx_create(&ctx, device, 10, 0, CUDA_NTT_ROOTS_SNARKJS, &bad_curve),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(cuda_ntt_domain_create(&dom, device, 29, CUDA_NTT_ROOTS_SNARKJS,
                                            &configs[0].opt),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_ok(cuda_ntt_ctx_create(&ctx, device, 28, 0, CUDA_NTT_ROOTS_SNARKJS, &configs[0].opt));
    void *v[3] = {(void *)(uintptr_t)256, (void *)(uintptr_t)512, (void *)(uintptr_t)768};
    assert_int_equal(cuda_compute_h(ctx, v[0], v[1], v[2], 1, 28, CUDA_H_COSET_2N_ROOT, NULL),
                     CUZK_ERR_INVALID_ARGUMENT);
    cuda_ntt_ctx_destroy(ctx);
}

/* After the emulated runs: no races, no block hazards. */
static void test_emulation_races(void **state)
{
    (void)state;
    cuda_ntt_emu_stats s;
    cuda_ntt_emu_stats_get(&s, 0);
    printf("test_cuda_ntt_bn254: emulation: %llu passes, %llu races, %llu block hazards\n",
           s.passes, s.races, s.hazards);
    assert_true(s.passes > 0);
    assert_int_equal(s.races, 0);
    assert_int_equal(s.hazards, 0);
}

int main(void)
{
    seed = test_seed("test_cuda_ntt_bn254");
    const char *why = "unknown reason";
    const int have_gpu = cuda_device_count(&why) > 0;

    device = CUDA_NTT_HOST_EMULATION;
    max_log = 12;
    const struct CMUnitTest emu_tests[] = {
        cmocka_unit_test(test_default_sizes),       cmocka_unit_test(test_forced_plans),
        cmocka_unit_test(test_curves_side_by_side), cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_emulation_races),
    };
    const int emu_failed =
        cmocka_run_group_tests_name("ntt_bn254_host_emulation", emu_tests, NULL, NULL);
    if (!have_gpu) {
        if (emu_failed)
            return 1;
        printf("SKIPPED: test_cuda_ntt_bn254: no CUDA device (%s); the host emulation passed\n",
               why);
        return 77;
    }
    device = 0;
    max_log = 20;
    const struct CMUnitTest gpu_tests[] = {
        cmocka_unit_test(test_default_sizes),
        cmocka_unit_test(test_forced_plans),
        cmocka_unit_test(test_curves_side_by_side),
        cmocka_unit_test(test_arguments),
    };
    const int gpu_failed = cmocka_run_group_tests_name("ntt_bn254_gpu", gpu_tests, NULL, NULL);
    return emu_failed || gpu_failed ? 1 : 0;
}

#endif
