/* Fixed-base products (groth16/fixed_base.h) against the generic scalar
 * multiplication, for windows from 1 to 12 bits, scalars 0, 1, 2, r − 1
 * and random ones, batches of more than one chunk on 1 and 3 threads; and
 * the window chosen for a batch size. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "groth16/fixed_base.h"
#include "seed.h"

#define N 300 /* more than one chunk of 256 */

static void scalars(fr_t *s, size_t n, rng_t *rng)
{
    s[0] = FR_ZERO;
    s[1] = FR_ONE;
    fr_add(&s[2], &FR_ONE, &FR_ONE);
    fr_neg(&s[3], &FR_ONE);
    for (size_t i = 4; i < n; i++)
        fr_random(&s[i], rng);
}

static void check_g1(unsigned window, size_t n, unsigned threads, rng_t *rng)
{
    g1_fixed_base_t t;
    assert_int_equal(g1_fixed_base_init(&t, &G1_GENERATOR, window), CUZK_OK);
    fr_t *s = malloc(n * sizeof(fr_t));
    g1_affine_t *out = malloc(n * sizeof(g1_affine_t));
    assert_true(s && out);
    scalars(s, n, rng);
    atomic_uint_fast64_t done;
    atomic_init(&done, 0);
    assert_int_equal(g1_fixed_base_mul_batch(out, &t, s, n, threads, &done), CUZK_OK);
    assert_int_equal(atomic_load(&done), n);
    g1_jac_t g, j;
    g1_jac_from_affine(&g, &G1_GENERATOR);
    for (size_t i = 0; i < n; i++) {
        uint64_t k[4];
        g1_affine_t want;
        fr_to_raw(k, &s[i]);
        g1_jac_mul(&j, &g, k);
        g1_jac_to_affine(&want, &j);
        assert_true(g1_affine_eq(&out[i], &want));
    }
    assert_true(out[0].infinity);
    free(s);
    free(out);
    g1_fixed_base_free(&t);
}

static void check_g2(unsigned window, size_t n, unsigned threads, rng_t *rng)
{
    g2_fixed_base_t t;
    assert_int_equal(g2_fixed_base_init(&t, &G2_GENERATOR, window), CUZK_OK);
    fr_t *s = malloc(n * sizeof(fr_t));
    g2_affine_t *out = malloc(n * sizeof(g2_affine_t));
    assert_true(s && out);
    scalars(s, n, rng);
    assert_int_equal(g2_fixed_base_mul_batch(out, &t, s, n, threads, NULL), CUZK_OK);
    g2_jac_t g, j;
    g2_jac_from_affine(&g, &G2_GENERATOR);
    for (size_t i = 0; i < n; i++) {
        uint64_t k[4];
        g2_affine_t want;
        fr_to_raw(k, &s[i]);
        g2_jac_mul(&j, &g, k);
        g2_jac_to_affine(&want, &j);
        assert_true(g2_affine_eq(&out[i], &want));
    }
    assert_true(out[0].infinity);
    free(s);
    free(out);
    g2_fixed_base_free(&t);
}

static void test_products(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, test_seed("fixed_base_products"));
    const unsigned windows[] = {1, 2, 3, 5, 8, 11, 12};
    for (size_t i = 0; i < sizeof(windows) / sizeof(windows[0]); i++) {
        check_g1(windows[i], 16, 1, &rng);
        check_g2(windows[i], 8, 1, &rng);
    }
    check_g1(8, N, 3, &rng);
    check_g1(12, N, 1, &rng);
    check_g2(12, N, 3, &rng);
}

static void test_window(void **state)
{
    (void)state;
    g1_fixed_base_t t;
    assert_int_equal(g1_fixed_base_init(&t, &G1_GENERATOR, 0), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(g1_fixed_base_init(&t, &G1_GENERATOR, 17), CUZK_ERR_INVALID_ARGUMENT);
    /* ⌈255/w⌉·(2^w − 1 + n) at its least: 6 bits for 220 products
     * (12,169 additions against 12,801 at 5 and 12,839 at 7), the cap of
     * 12 for a million. */
    assert_int_equal(fixed_base_window(0), 1);
    assert_int_equal(fixed_base_window(220), 6);
    assert_int_equal(fixed_base_window(1u << 20), 12);
    assert_int_equal(fixed_base_window(UINT64_MAX / 1024), 12);
    unsigned prev = 1;
    for (uint64_t n = 1; n < (1u << 24); n = n * 3 / 2 + 1) {
        unsigned w = fixed_base_window(n);
        assert_true(w >= prev && w <= 12);
        prev = w;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_products),
        cmocka_unit_test(test_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
