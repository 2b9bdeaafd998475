/* The device MSM over BN254's G1 and G2 (src/cuda/msm.h, groups
 * CUDA_MSM_BN254_G1 / CUDA_MSM_BN254_G2) against the CPU's BN254 MSM
 * (src/msm/bn254_msm.h) on seeded random inputs: G1 at 0, 1, 2, 3, 17,
 * 2^10 + 1, 2^16 points, G2 up to 2^12; scalars random, all zero, all one,
 * mixed 0/1/random, r − 1; points with repeats, ±P pairs and infinity;
 * plain, split and dense forms; several window sizes; the point generator
 * and the subgroup test. One context serves BLS12-381's G1 beside BN254's
 * groups, and a BLS12-381 MSM in between must still agree with the CPU.
 * Skipped (exit 77) without a CUDA device. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#ifndef CUZK_HAVE_CUDA

int main(void)
{
    printf("SKIPPED: test_cuda_msm_bn254: no CUDA device (built without CUDA)\n");
    return 77;
}

#else

#include <stdlib.h>
#include <string.h>

#include "cuda/device.h"
#include "cuda/msm.h"
#include "curve/bn254_curve.h"
#include "curve/g1.h"
#include "curve/g2.h"
#include "field/bn254_fr.h"
#include "field/fr.h"
#include "msm/bn254_msm.h"
#include "msm/msm.h"
#include "seed.h"

#define G1_MAX_N ((size_t)1 << 16)
#define G2_MAX_N ((size_t)1 << 12)
#define MAX_WINDOW 14u

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
    SC_KIND_COUNT
} scalar_kind;

static const char *kind_names[] = {"random", "zero", "one", "mixed", "minus-one"};

static void make_scalars(bn254_fr_t *s, size_t n, scalar_kind kind, rng_t *rng)
{
    bn254_fr_t minus_one;
    bn254_fr_neg(&minus_one, &BN254_FR_ONE);
    for (size_t i = 0; i < n; i++) {
        const uint64_t r = rng_u64(rng);
        switch (kind) {
        case SC_RANDOM:
            bn254_fr_random(&s[i], rng);
            break;
        case SC_ZERO:
            memset(&s[i], 0, sizeof(bn254_fr_t));
            break;
        case SC_ONE:
            s[i] = BN254_FR_ONE;
            break;
        case SC_MIXED:
            if (r % 10 < 4)
                memset(&s[i], 0, sizeof(bn254_fr_t));
            else if (r % 10 < 8)
                s[i] = BN254_FR_ONE;
            else
                bn254_fr_random(&s[i], rng);
            break;
        default:
            s[i] = minus_one;
            break;
        }
    }
}

static void random_raw(uint64_t k[4], rng_t *rng)
{
    bn254_fr_t f;
    bn254_fr_random(&f, rng);
    bn254_fr_to_raw(k, &f);
}

/* Points a + i·d times the group's generator; degenerate: some repeat an
 * earlier point, some negate their predecessor, some are infinity. */
#define MAKE_POINTS(G, GEN)                                                                        \
    static void G##_make_points(G##_affine_t *out, size_t n, int degenerate, rng_t *rng)           \
    {                                                                                              \
        if (!n)                                                                                    \
            return;                                                                                \
        uint64_t a[4], d[4];                                                                       \
        random_raw(a, rng);                                                                        \
        random_raw(d, rng);                                                                        \
        G##_jac_t g, p, q;                                                                         \
        G##_jac_from_affine(&g, &GEN);                                                             \
        G##_jac_mul_var(&p, &g, a);                                                                \
        G##_jac_mul_var(&q, &g, d);                                                                \
        G##_jac_t *j = xmalloc(n * sizeof(G##_jac_t));                                             \
        for (size_t i = 0; i < n; i++) {                                                           \
            j[i] = p;                                                                              \
            G##_jac_add_var(&p, &p, &q);                                                           \
        }                                                                                          \
        G##_jac_batch_to_affine(out, j, n);                                                        \
        free(j);                                                                                   \
        for (size_t i = 1; degenerate && i < n; i++) {                                             \
            const uint64_t r = rng_u64(rng) % 8;                                                   \
            if (r == 0)                                                                            \
                out[i] = out[rng_u64(rng) % i];                                                    \
            else if (r == 1)                                                                       \
                G##_affine_neg(&out[i], &out[i - 1]);                                              \
            else if (r == 2)                                                                       \
                G##_affine_set_infinity(&out[i]);                                                  \
        }                                                                                          \
    }
MAKE_POINTS(bn254_g1, BN254_G1_GENERATOR)
MAKE_POINTS(bn254_g2, BN254_G2_GENERATOR)

/* A density over n variables with about two thirds set (bits past n set
 * too: the device must ignore them); the selected points into sub. */
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

/* ---- one case: plain, split and dense against the CPU ---------------------- */

/* G: bn254_g1 or bn254_g2; GROUP its device group; CPU_MSM, CPU_DENSE the
 * CPU's plain and dense MSMs. The result at infinity must also be the
 * CPU's bytes (1, 1, 0). */
#define MSM_CASE(G, GROUP, CPU_MSM, CPU_DENSE)                                                     \
    static void G##_check(const G##_jac_t *got, const G##_jac_t *want, const char *what, size_t n, \
                          scalar_kind kind, unsigned c)                                            \
    {                                                                                              \
        if (!G##_jac_eq(got, want))                                                                \
            fail_msg(#G " %s: n = %zu, scalars %s, window %u bits: the device and the CPU differ", \
                     what, n, kind_names[kind], c);                                                \
        if (G##_jac_is_infinity(got)) {                                                            \
            G##_jac_t inf;                                                                         \
            G##_jac_set_infinity(&inf);                                                            \
            assert_memory_equal(got, &inf, sizeof(inf));                                           \
        }                                                                                          \
    }                                                                                              \
    static void G##_case(size_t n, scalar_kind kind, int degenerate, unsigned c, int dense,        \
                         rng_t *rng)                                                               \
    {                                                                                              \
        G##_affine_t *pts = xmalloc(n * sizeof(G##_affine_t));                                     \
        bn254_fr_t *sc = xmalloc(n * sizeof(bn254_fr_t));                                          \
        G##_make_points(pts, n, degenerate, rng);                                                  \
        make_scalars(sc, n, kind, rng);                                                            \
        G##_jac_t want, got;                                                                       \
        assert_int_equal(CPU_MSM(&want, pts, sc, n, 0), CUZK_OK);                                  \
        cuda_msm_points *h = NULL;                                                                 \
        assert_device_ok(cuda_msm_points_upload(ctx, GROUP, pts, n, &h));                          \
        assert_device_ok(cuda_msm_set_window_bits(ctx, GROUP, c));                                 \
        const unsigned used = cuda_msm_window_bits(ctx, GROUP, n);                                 \
        memset(&got, 0x5a, sizeof(got));                                                           \
        assert_device_ok(cuda_msm(ctx, GROUP, h, sc, n, &got, NULL));                              \
        assert_device_ok(cuda_msm_wait(ctx));                                                      \
        G##_check(&got, &want, "plain", n, kind, used);                                            \
        memset(&got, 0x5a, sizeof(got));                                                           \
        assert_device_ok(cuda_msm_split(ctx, GROUP, h, sc, n, &got, NULL));                        \
        assert_device_ok(cuda_msm_wait(ctx));                                                      \
        G##_check(&got, &want, "split", n, kind, used);                                            \
        if (dense) {                                                                               \
            uint64_t *bits = xmalloc((n / 64 + 1) * sizeof(uint64_t));                             \
            uint64_t *clean = xmalloc((n / 64 + 1) * sizeof(uint64_t));                            \
            G##_affine_t *sub = xmalloc(n * sizeof(G##_affine_t));                                 \
            const size_t m = make_density(bits, clean, n, pts, sub, sizeof(G##_affine_t), rng);    \
            assert_int_equal(CPU_DENSE(&want, sub, m, sc, n, clean, 0), CUZK_OK);                  \
            cuda_msm_points *hs = NULL;                                                            \
            cuda_msm_density *dn = NULL;                                                           \
            assert_device_ok(cuda_msm_points_upload(ctx, GROUP, sub, m, &hs));                     \
            assert_device_ok(cuda_msm_density_upload(ctx, bits, n, &dn));                          \
            memset(&got, 0x5a, sizeof(got));                                                       \
            assert_device_ok(cuda_msm_dense(ctx, GROUP, hs, sc, n, dn, &got, NULL));               \
            assert_device_ok(cuda_msm_wait(ctx));                                                  \
            G##_check(&got, &want, "dense", n, kind, used);                                        \
            cuda_msm_points_free(hs);                                                              \
            cuda_msm_density_free(dn);                                                             \
            free(bits);                                                                            \
            free(clean);                                                                           \
            free(sub);                                                                             \
        }                                                                                          \
        cuda_msm_points_free(h);                                                                   \
        assert_device_ok(cuda_msm_set_window_bits(ctx, GROUP, 0));                                 \
        free(pts);                                                                                 \
        free(sc);                                                                                  \
    }
MSM_CASE(bn254_g1, CUDA_MSM_BN254_G1, bn254_msm_g1, bn254_msm_g1_dense)
MSM_CASE(bn254_g2, CUDA_MSM_BN254_G2, bn254_msm_g2, bn254_msm_g2_dense)

/* ---- tests ------------------------------------------------------------------- */

static void test_g1(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, seed ^ 0x11);
    static const size_t sizes[] = {0, 1, 2, 3, 17, (1u << 10) + 1, G1_MAX_N};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        bn254_g1_case(sizes[i], SC_RANDOM, 0, 0, 1, &rng);
    for (int k = 0; k < SC_KIND_COUNT; k++)
        bn254_g1_case((1u << 10) + 1, (scalar_kind)k, 1, 0, 1, &rng);
    bn254_g1_case(G1_MAX_N, SC_MIXED, 1, 0, 1, &rng);
    for (unsigned c = CUDA_MSM_MIN_WINDOW_BITS; c <= MAX_WINDOW; c += 5)
        bn254_g1_case(5000, SC_RANDOM, 1, c, 0, &rng);
}

static void test_g2(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, seed ^ 0x21);
    static const size_t sizes[] = {0, 1, 2, 17, (1u << 10) + 1, G2_MAX_N};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        bn254_g2_case(sizes[i], SC_RANDOM, 0, 0, 0, &rng);
    for (int k = 0; k < SC_KIND_COUNT; k++)
        bn254_g2_case(1000, (scalar_kind)k, 1, 0, 1, &rng);
    bn254_g2_case(G2_MAX_N, SC_MIXED, 1, 0, 1, &rng);
    bn254_g2_case(2000, SC_RANDOM, 1, 7, 0, &rng);
}

/* The benchmark's generator: point i = [a + i·d]·G, so Σ k_i·P_i =
 * [Σ k_i·(a + i·d)]·G, checked on the CPU; and its points, read back, on
 * the CPU's curve. */
static void test_generated(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, seed ^ 0x41);
    const size_t n = 3000;
    uint64_t a[4], d[4];
    random_raw(a, &rng);
    random_raw(d, &rng);
    bn254_fr_t fa, fd, acc, t, idx;
    bn254_fr_from_raw(&fa, a);
    bn254_fr_from_raw(&fd, d);
    bn254_fr_t *sc = xmalloc(n * sizeof(bn254_fr_t));
    make_scalars(sc, n, SC_RANDOM, &rng);
    memset(&acc, 0, sizeof(acc));
    for (size_t i = 0; i < n; i++) {
        bn254_fr_from_u64(&idx, i);
        bn254_fr_mul(&t, &idx, &fd);
        bn254_fr_add(&t, &t, &fa);
        bn254_fr_mul(&t, &t, &sc[i]);
        bn254_fr_add(&acc, &acc, &t);
    }
    uint64_t k[4];
    bn254_fr_to_raw(k, &acc);

    bn254_g1_jac_t g1, want1, got1;
    bn254_g1_jac_from_affine(&g1, &BN254_G1_GENERATOR);
    bn254_g1_jac_mul_var(&want1, &g1, k);
    cuda_msm_points *h = NULL;
    assert_device_ok(
        cuda_msm_points_generate(ctx, CUDA_MSM_BN254_G1, &BN254_G1_GENERATOR, a, d, n, &h));
    assert_device_ok(cuda_msm(ctx, CUDA_MSM_BN254_G1, h, sc, n, &got1, NULL));
    assert_device_ok(cuda_msm_wait(ctx));
    if (!bn254_g1_jac_eq(&got1, &want1))
        fail_msg("BN254 G1 generated points: the MSM is not [Σ k_i·(a + i·d)]·G");
    bn254_g1_affine_t *back = xmalloc(n * sizeof(bn254_g1_affine_t));
    assert_device_ok(cuda_msm_points_download(ctx, h, back, n));
    for (size_t i = 0; i < n; i += 97)
        assert_true(bn254_g1_affine_is_on_curve(&back[i]));
    free(back);
    cuda_msm_points_free(h);

    bn254_g2_jac_t g2, want2, got2;
    bn254_g2_jac_from_affine(&g2, &BN254_G2_GENERATOR);
    bn254_g2_jac_mul_var(&want2, &g2, k);
    assert_device_ok(
        cuda_msm_points_generate(ctx, CUDA_MSM_BN254_G2, &BN254_G2_GENERATOR, a, d, n, &h));
    assert_device_ok(cuda_msm(ctx, CUDA_MSM_BN254_G2, h, sc, n, &got2, NULL));
    assert_device_ok(cuda_msm_wait(ctx));
    if (!bn254_g2_jac_eq(&got2, &want2))
        fail_msg("BN254 G2 generated points: the MSM is not [Σ k_i·(a + i·d)]·G");
    cuda_msm_points_free(h);
    free(sc);
}

/* A point of the twist E'(Fp2) outside G2: a random x whose x³ + b' is a
 * square (the twist's cofactor is about p, so almost surely not in G2). */
static void bn254_g2_off_subgroup(bn254_g2_affine_t *r, rng_t *rng)
{
    for (;;) {
        bn254_fp2_t x, y2;
        bn254_fp2_random(&x, rng);
        bn254_fp2_sqr(&y2, &x);
        bn254_fp2_mul(&y2, &y2, &x);
        bn254_fp2_add(&y2, &y2, &BN254_G2_B);
        if (bn254_fp2_sqrt(&r->y, &y2)) {
            r->x = x;
            r->infinity = false;
            if (!bn254_g2_affine_in_subgroup(r))
                return;
        }
    }
}

/* G2 points with infinity mixed in, bad ones planted: the device's first
 * bad index must be the CPU's. G1 (cofactor 1) has none to find. */
static void test_subgroup(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, seed ^ 0x31);
    static const size_t sizes[] = {1, 33, 1000};
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
        for (unsigned bad = 0; bad <= 2; bad++) {
            const size_t n = sizes[s];
            bn254_g2_affine_t *pts = xmalloc(n * sizeof(bn254_g2_affine_t));
            bn254_g2_make_points(pts, n, 1, &rng);
            for (unsigned k = 0; k < bad; k++)
                bn254_g2_off_subgroup(&pts[rng_u64(&rng) % n], &rng);
            size_t want = SIZE_MAX;
            for (size_t i = 0; i < n && want == SIZE_MAX; i++) {
                assert_true(bn254_g2_affine_is_on_curve(&pts[i]));
                if (!bn254_g2_affine_in_subgroup(&pts[i]))
                    want = i;
            }
            if (bad)
                assert_true(want != SIZE_MAX);
            cuda_msm_points *h = NULL;
            size_t got = 0;
            assert_device_ok(cuda_msm_points_upload(ctx, CUDA_MSM_BN254_G2, pts, n, &h));
            assert_device_ok(cuda_msm_points_check_subgroup(ctx, h, &got));
            if (got != want)
                fail_msg("BN254 G2, %zu points, %u planted: the device says %zu, the CPU %zu", n,
                         bad, got, want);
            cuda_msm_points_free(h);
            free(pts);
        }
    bn254_g1_affine_t g1[64];
    bn254_g1_make_points(g1, 64, 1, &rng);
    cuda_msm_points *h = NULL;
    size_t got = 0;
    assert_device_ok(cuda_msm_points_upload(ctx, CUDA_MSM_BN254_G1, g1, 64, &h));
    assert_device_ok(cuda_msm_points_check_subgroup(ctx, h, &got));
    assert_true(got == SIZE_MAX);
    cuda_msm_points_free(h);
}

/* BLS12-381's G1 and G2 on the same context, between BN254 calls. */
static void test_curves_side_by_side(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, seed ^ 0x51);
    const size_t n = 2000;
    g1_jac_t g, p, q, want, got;
    g1_jac_from_affine(&g, &G1_GENERATOR);
    g1_affine_t *pts = xmalloc(n * sizeof(g1_affine_t));
    g1_jac_t *j = xmalloc(n * sizeof(g1_jac_t));
    fr_t *sc = xmalloc(n * sizeof(fr_t));
    uint64_t a[4] = {rng_u64(&rng), rng_u64(&rng), 0, 0}, d[4] = {rng_u64(&rng), 7, 0, 0};
    g1_jac_mul_var(&p, &g, a);
    g1_jac_mul_var(&q, &g, d);
    for (size_t i = 0; i < n; i++) {
        j[i] = p;
        g1_jac_add_var(&p, &p, &q);
        fr_random(&sc[i], &rng);
    }
    g1_jac_batch_to_affine(pts, j, n);
    assert_int_equal(msm_g1(&want, pts, sc, n, 0), CUZK_OK);
    bn254_g1_case(1000, SC_RANDOM, 0, 0, 0, &rng);
    cuda_msm_points *h = NULL;
    assert_device_ok(cuda_msm_points_upload(ctx, CUDA_MSM_G1, pts, n, &h));
    assert_device_ok(cuda_msm_g1(ctx, h, sc, n, &got, NULL));
    assert_device_ok(cuda_msm_wait(ctx));
    assert_true(g1_jac_eq(&got, &want));
    bn254_g1_case(1000, SC_MIXED, 1, 0, 0, &rng);
    {
        const size_t m = 300;
        g2_jac_t g2, p2, q2, want2, got2;
        g2_jac_from_affine(&g2, &G2_GENERATOR);
        g2_jac_mul_var(&p2, &g2, a);
        g2_jac_mul_var(&q2, &g2, d);
        g2_jac_t *j2 = xmalloc(m * sizeof(g2_jac_t));
        g2_affine_t *pts2 = xmalloc(m * sizeof(g2_affine_t));
        for (size_t i = 0; i < m; i++) {
            j2[i] = p2;
            g2_jac_add_var(&p2, &p2, &q2);
        }
        g2_jac_batch_to_affine(pts2, j2, m);
        assert_int_equal(msm_g2(&want2, pts2, sc, m, 0), CUZK_OK);
        cuda_msm_points *h2 = NULL;
        assert_device_ok(cuda_msm_points_upload(ctx, CUDA_MSM_G2, pts2, m, &h2));
        assert_device_ok(cuda_msm_g2_split(ctx, h2, sc, m, &got2, NULL));
        assert_device_ok(cuda_msm_wait(ctx));
        assert_true(g2_jac_eq(&got2, &want2));
        bn254_g2_case(200, SC_MIXED, 1, 0, 0, &rng);
        cuda_msm_points_free(h2);
        free(j2);
        free(pts2);
    }
    /* A handle of one curve's group is refused by another group. */
    bn254_g1_jac_t bn;
    assert_int_equal(cuda_msm(ctx, CUDA_MSM_BN254_G1, h, sc, n, &bn, NULL),
                     CUZK_ERR_INVALID_ARGUMENT);
    cuda_msm_points_free(h);
    free(pts);
    free(j);
    free(sc);
}

static int group_setup(void **state)
{
    (void)state;
    cuda_msm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.max_n[CUDA_MSM_G1] = 1u << 12;
    cfg.max_n[CUDA_MSM_G2] = 1u << 10;
    cfg.max_n[CUDA_MSM_BN254_G1] = G1_MAX_N;
    cfg.max_n[CUDA_MSM_BN254_G2] = G2_MAX_N;
    cfg.max_window_bits = MAX_WINDOW;
    cuzk_status st = cuda_msm_ctx_create(&ctx, &cfg);
    if (st != CUZK_OK) {
        printf("test_cuda_msm_bn254: context: %s (%s)\n", cuzk_status_str(st),
               cuda_msm_last_error());
        return -1;
    }
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
        printf("SKIPPED: test_cuda_msm_bn254: no CUDA device (%s)\n", why);
        return 77;
    }
    seed = test_seed("test_cuda_msm_bn254");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_g1),       cmocka_unit_test(test_g2),
        cmocka_unit_test(test_generated), cmocka_unit_test(test_subgroup),
        cmocka_unit_test(test_curves_side_by_side),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}

#endif
