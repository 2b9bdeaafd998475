/* The GPU fixed-base products (src/cuda/fixed_base.h) against the CPU's
 * (groth16/fixed_base.h) on random scalars with 0, 1, 2, r − 2 and r − 1
 * among them (seed printed), over more than one chunk (the copy of one
 * chunk beside the next one's kernels); and development parameters from
 * one seed made with the GPU's products against the CPU-made ones, every
 * query compared point by point. Skips without a GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#ifndef CUZK_HAVE_CUDA

int main(void)
{
    printf("SKIPPED: test_cuda_fixed_base: no CUDA device (built without CUDA)\n");
    return 77;
}

#else

#include <stdlib.h>
#include <string.h>

#include "circuits/builtin.h"
#include "cuda/device.h"
#include "cuda/fixed_base.h"
#include "groth16/fixed_base.h"
#include "groth16/setup.h"
#include "seed.h"
#include "util/rng.h"

static uint64_t seed;

#define assert_device_ok(st)                                                                       \
    do {                                                                                           \
        cuzk_status st_ = (st);                                                                    \
        if (st_ != CUZK_OK)                                                                        \
            fail_msg("%s: %s (%s)", #st, cuzk_status_str(st_), cuda_fixed_base_last_error());      \
    } while (0)

/* n scalars: the special ones first, then random ones. */
static fr_t *scalars(size_t n, rng_t *rng)
{
    fr_t *s = malloc(sizeof(fr_t) * n);
    assert_non_null(s);
    for (size_t i = 0; i < n; i++)
        fr_random(&s[i], rng);
    fr_t one;
    fr_from_u64(&one, 1);
    if (n > 5) {
        fr_from_u64(&s[0], 0);
        s[1] = one;
        fr_from_u64(&s[2], 2);
        fr_neg(&s[3], &one);       /* r − 1 */
        fr_neg(&s[4], &s[2]);      /* r − 2 */
        fr_from_u64(&s[n - 1], 0); /* a zero in the last chunk too */
    }
    return s;
}

static void check_g1(size_t n)
{
    rng_t rng;
    rng_seed(&rng, seed + n);
    fr_t *s = scalars(n, &rng);
    g1_affine_t *cpu = malloc(sizeof(g1_affine_t) * n), *gpu = malloc(sizeof(g1_affine_t) * n);
    assert_true(cpu && gpu);
    memset(gpu, 0xa5, sizeof(g1_affine_t) * n); /* nothing left over passes */
    g1_fixed_base_t t;
    assert_int_equal(g1_fixed_base_init(&t, &G1_GENERATOR, 8), CUZK_OK);
    assert_int_equal(g1_fixed_base_mul_batch(cpu, &t, s, n, 0, NULL), CUZK_OK);
    assert_device_ok(
        cuda_fixed_base_mul(0, CUDA_MSM_G1, &G1_GENERATOR, gpu, (const struct fr *)s, n));
    for (size_t i = 0; i < n; i++)
        if (!g1_affine_eq(&cpu[i], &gpu[i]) || cpu[i].infinity != gpu[i].infinity ||
            (gpu[i].infinity && (!fp_is_zero(&gpu[i].x) || !fp_is_zero(&gpu[i].y))))
            fail_msg("G1 product %zu of %zu differs", i, n);
    if (n > 5) { /* the special scalars 0 and 1 lead (scalars()) */
        assert_true(gpu[0].infinity);
        assert_true(g1_affine_eq(&gpu[1], &G1_GENERATOR));
    }
    g1_fixed_base_free(&t);
    free(s);
    free(cpu);
    free(gpu);
}

static void check_g2(size_t n)
{
    rng_t rng;
    rng_seed(&rng, seed + 7 * n);
    fr_t *s = scalars(n, &rng);
    g2_affine_t *cpu = malloc(sizeof(g2_affine_t) * n), *gpu = malloc(sizeof(g2_affine_t) * n);
    assert_true(cpu && gpu);
    memset(gpu, 0xa5, sizeof(g2_affine_t) * n);
    g2_fixed_base_t t;
    assert_int_equal(g2_fixed_base_init(&t, &G2_GENERATOR, 8), CUZK_OK);
    assert_int_equal(g2_fixed_base_mul_batch(cpu, &t, s, n, 0, NULL), CUZK_OK);
    assert_device_ok(
        cuda_fixed_base_mul(0, CUDA_MSM_G2, &G2_GENERATOR, gpu, (const struct fr *)s, n));
    for (size_t i = 0; i < n; i++)
        if (!g2_affine_eq(&cpu[i], &gpu[i]) || cpu[i].infinity != gpu[i].infinity)
            fail_msg("G2 product %zu of %zu differs", i, n);
    if (n > 5) { /* the special scalars 0 and 1 lead (scalars()) */
        assert_true(gpu[0].infinity);
        assert_true(g2_affine_eq(&gpu[1], &G2_GENERATOR));
    }
    g2_fixed_base_free(&t);
    free(s);
    free(cpu);
    free(gpu);
}

static void test_g1_small(void **state)
{
    (void)state;
    check_g1(1);
    check_g1(33);
    check_g1(10007);
}

static void test_g2_small(void **state)
{
    (void)state;
    check_g2(1);
    check_g2(33);
    check_g2(10007);
}

/* Two chunks and a bit: the second output buffer and the overlap. */
static void test_g1_chunks(void **state)
{
    (void)state;
    check_g1(2 * CUDA_FIXED_BASE_CHUNK + 999);
}

static void test_g2_chunks(void **state)
{
    (void)state;
    check_g2(CUDA_FIXED_BASE_CHUNK + 999);
}

static void test_arguments(void **state)
{
    (void)state;
    g1_affine_t out;
    fr_t s;
    fr_from_u64(&s, 1);
    assert_int_equal(cuda_fixed_base_mul(0, CUDA_MSM_G1, NULL, &out, (const struct fr *)&s, 1),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(
        cuda_fixed_base_mul(0, CUDA_MSM_GROUP_COUNT, &G1_GENERATOR, &out, (const struct fr *)&s, 1),
        CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(cuda_fixed_base_mul(0, CUDA_MSM_G1, &G1_GENERATOR, NULL, NULL, 0), CUZK_OK);
}

/* ---- development parameters made with the GPU's products ------------------ */

static cuzk_status gpu_g1(void *ctx, g1_affine_t *out, const fr_t *s, size_t n, char *msg,
                          size_t msg_len)
{
    (void)ctx;
    cuzk_status st =
        cuda_fixed_base_mul(0, CUDA_MSM_G1, &G1_GENERATOR, out, (const struct fr *)s, n);
    if (st != CUZK_OK)
        snprintf(msg, msg_len, "%s", cuda_fixed_base_last_error());
    return st;
}

static cuzk_status gpu_g2(void *ctx, g2_affine_t *out, const fr_t *s, size_t n, char *msg,
                          size_t msg_len)
{
    (void)ctx;
    cuzk_status st =
        cuda_fixed_base_mul(0, CUDA_MSM_G2, &G2_GENERATOR, out, (const struct fr *)s, n);
    if (st != CUZK_OK)
        snprintf(msg, msg_len, "%s", cuda_fixed_base_last_error());
    return st;
}

static void same_g1(const char *what, const g1_affine_t *a, const g1_affine_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!g1_affine_eq(&a[i], &b[i]))
            fail_msg("%s[%zu] differs", what, i);
}

static void test_dev_params_gpu_equals_cpu(void **state)
{
    (void)state;
    porep_like_params shape;
    assert_int_equal(porep_like_params_for_constraints(&shape, 12, 8), CUZK_OK);
    r1cs_t r;
    assert_int_equal(builtin_compile(&r, &shape, 0), CUZK_OK);
    groth16_params_t cpu, gpu;
    rng_t rng;
    rng_seed_chacha(&rng, seed);
    assert_int_equal(groth16_setup_dev(&cpu, &r, &rng, NULL), CUZK_OK);
    char why[256] = "";
    groth16_fixed_base_ops fb = {.g1 = gpu_g1, .g2 = gpu_g2};
    groth16_setup_opts so = {.fixed_base = &fb, .msg = why, .msg_len = sizeof(why)};
    rng_seed_chacha(&rng, seed);
    cuzk_status st = groth16_setup_dev(&gpu, &r, &rng, &so);
    if (st != CUZK_OK)
        fail_msg("GPU setup: %s: %s", cuzk_status_str(st), why);
    assert_int_equal(cpu.vk.num_ic, gpu.vk.num_ic);
    assert_int_equal(cpu.num_h, gpu.num_h);
    assert_int_equal(cpu.num_l, gpu.num_l);
    assert_int_equal(cpu.num_a, gpu.num_a);
    assert_int_equal(cpu.num_b_g1, gpu.num_b_g1);
    assert_int_equal(cpu.num_b_g2, gpu.num_b_g2);
    same_g1("ic", cpu.vk.ic, gpu.vk.ic, cpu.vk.num_ic);
    same_g1("h", cpu.h, gpu.h, cpu.num_h);
    same_g1("l", cpu.l, gpu.l, cpu.num_l);
    same_g1("a", cpu.a, gpu.a, cpu.num_a);
    same_g1("b_g1", cpu.b_g1, gpu.b_g1, cpu.num_b_g1);
    for (size_t i = 0; i < cpu.num_b_g2; i++)
        if (!g2_affine_eq(&cpu.b_g2[i], &gpu.b_g2[i]))
            fail_msg("b_g2[%zu] differs", i);
    assert_true(g1_affine_eq(&cpu.vk.alpha_g1, &gpu.vk.alpha_g1));
    assert_true(g2_affine_eq(&cpu.vk.delta_g2, &gpu.vk.delta_g2));
    groth16_params_free(&cpu);
    groth16_params_free(&gpu);
    r1cs_free(&r);
}

int main(void)
{
    const char *why = "unknown reason";
    if (cuda_device_count(&why) == 0) {
        printf("SKIPPED: test_cuda_fixed_base: no CUDA device (%s)\n", why);
        return 77;
    }
    seed = test_seed("test_cuda_fixed_base");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arguments), cmocka_unit_test(test_g1_small),
        cmocka_unit_test(test_g2_small),  cmocka_unit_test(test_g1_chunks),
        cmocka_unit_test(test_g2_chunks), cmocka_unit_test(test_dev_params_gpu_equals_cpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#endif
