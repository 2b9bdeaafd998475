/* Evaluation domains: roots of unity of both stacks, coset constants,
 * twiddle tables, sizing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "field/fr.h"
#include "poly/domain.h"

static void fr_from_hex(fr_t *r, const char *hex)
{
    uint8_t be[FR_BYTES] = {0};
    size_t len = strlen(hex);
    for (size_t i = 0; i < len; i++) {
        char ch = hex[len - 1 - i];
        unsigned v = ch <= '9' ? (unsigned)(ch - '0') : (unsigned)(ch - 'a' + 10);
        be[FR_BYTES - 1 - i / 2] |= (uint8_t)(v << (4 * (i % 2)));
    }
    assert_true(fr_from_bytes_be(r, be));
}

static void fr_pow_u64(fr_t *r, const fr_t *a, uint64_t e)
{
    fr_pow_var(r, a, &e, 1);
}

/* (r - 1) / 2 as little-endian limbs. */
static void half_order(uint64_t e[FR_LIMBS])
{
    for (size_t i = 0; i < FR_LIMBS; i++) {
        uint64_t hi = i + 1 < FR_LIMBS ? FR_MODULUS[i + 1] : 0;
        e[i] = (FR_MODULUS[i] >> 1) | (hi << 63);
    }
}

static void test_non_residues(void **state)
{
    (void)state;
    uint64_t e[FR_LIMBS];
    half_order(e);
    fr_t minus_one, x, y;
    fr_neg(&minus_one, &FR_ONE);
    /* Euler's criterion: 5 and 7 are non-residues, 2 and 3 are residues, so
     * 5 is the smallest non-residue (the one ffjavascript/wasmcurves pick). */
    const uint64_t nonres[] = {5, 7}, res[] = {2, 3, 4};
    for (size_t i = 0; i < 2; i++) {
        fr_from_u64(&x, nonres[i]);
        fr_pow_var(&y, &x, e, FR_LIMBS);
        assert_true(fr_eq(&y, &minus_one));
    }
    for (size_t i = 0; i < 3; i++) {
        fr_from_u64(&x, res[i]);
        fr_pow_var(&y, &x, e, FR_LIMBS);
        assert_true(fr_is_one(&y));
    }
}

static void test_root_known_answers(void **state)
{
    (void)state;
    /* pow(7, (r-1) >> 32, r) and pow(5, (r-1) >> 32, r), computed with
     * Python's built-in pow; the first is blstrs' Scalar::ROOT_OF_UNITY. */
    fr_t want, got;
    fr_from_hex(&want, "16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b");
    domain_root_of_unity_max(&got, DOMAIN_ROOTS_BELLMAN);
    assert_true(fr_eq(&got, &want));
    fr_from_hex(&want, "0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f");
    domain_root_of_unity_max(&got, DOMAIN_ROOTS_SNARKJS);
    assert_true(fr_eq(&got, &want));
}

/* w^(n/2) = -1 and w^n = 1 for every n = 2^k, k = 1..32, both stacks. */
static void test_root_orders(void **state)
{
    (void)state;
    fr_t minus_one;
    fr_neg(&minus_one, &FR_ONE);
    for (int roots = 0; roots < 2; roots++) {
        for (unsigned k = 1; k <= DOMAIN_MAX_LOG; k++) {
            fr_t w;
            domain_root_of_unity(&w, k, (domain_roots)roots);
            for (unsigned i = 0; i + 1 < k; i++)
                fr_sqr(&w, &w);
            assert_true(fr_eq(&w, &minus_one)); /* w^(n/2) */
            fr_sqr(&w, &w);
            assert_true(fr_is_one(&w)); /* w^n */
        }
    }
}

static void test_domain_constants(void **state)
{
    (void)state;
    fr_t x, seven, minus_two, minus_one;
    fr_from_u64(&seven, 7);
    fr_neg(&minus_one, &FR_ONE);
    fr_add(&minus_two, &minus_one, &minus_one);
    for (int roots = 0; roots < 2; roots++) {
        for (unsigned k = 0; k <= 12; k++) {
            domain_t d;
            assert_int_equal(domain_init_log(&d, k, (domain_roots)roots, 1), CUZK_OK);
            assert_int_equal(d.n, (size_t)1 << k);
            fr_pow_u64(&x, &d.omega, d.n);
            assert_true(fr_is_one(&x));
            if (k > 0) {
                fr_pow_u64(&x, &d.omega, d.n / 2);
                assert_true(fr_eq(&x, &minus_one));
            }
            fr_mul(&x, &d.omega, &d.omega_inv);
            assert_true(fr_is_one(&x));
            fr_from_u64(&x, d.n);
            fr_mul(&x, &x, &d.n_inv);
            assert_true(fr_is_one(&x));
            fr_sqr(&x, &d.omega_2n);
            assert_true(fr_eq(&x, &d.omega));
            fr_pow_u64(&x, &d.omega_2n, d.n); /* Z on the odd coset: -1 - 1 */
            fr_sub(&x, &x, &FR_ONE);
            assert_true(fr_eq(&x, &minus_two));
            fr_mul(&x, &d.omega_2n, &d.omega_2n_inv);
            assert_true(fr_is_one(&x));
            assert_true(fr_eq(&d.shift, &seven));
            fr_mul(&x, &d.shift, &d.shift_inv);
            assert_true(fr_is_one(&x));
            fr_pow_u64(&x, &seven, d.n);
            fr_sub(&x, &x, &FR_ONE);
            assert_true(fr_eq(&x, &d.z_coset));
            fr_mul(&x, &d.z_coset, &d.z_coset_inv);
            assert_true(fr_is_one(&x));
            /* Twiddles: tw[i] = w^brv(i), brv on k-1 bits. */
            for (size_t i = 0; i < d.n / 2; i++) {
                fr_pow_u64(&x, &d.omega, domain_bit_reverse(i, k - 1));
                assert_true(fr_eq(&d.tw[i], &x));
                fr_mul(&x, &d.tw[i], &d.tw_inv[i]);
                assert_true(fr_is_one(&x));
            }
            domain_free(&d);
        }
    }
}

/* Twiddles filled on several threads equal the single-threaded ones. */
static void test_twiddles_threads(void **state)
{
    (void)state;
    domain_t d1, d2;
    assert_int_equal(domain_init_log(&d1, 15, DOMAIN_ROOTS_BELLMAN, 1), CUZK_OK);
    assert_int_equal(domain_init_log(&d2, 15, DOMAIN_ROOTS_BELLMAN, 3), CUZK_OK);
    assert_memory_equal(d1.tw, d2.tw, d1.n / 2 * sizeof(fr_t));
    assert_memory_equal(d1.tw_inv, d2.tw_inv, d1.n / 2 * sizeof(fr_t));
    fr_t x;
    const size_t idx[] = {1, 2, 3, 1000, 12345, 16383};
    for (size_t i = 0; i < sizeof(idx) / sizeof(idx[0]); i++) {
        fr_pow_u64(&x, &d1.omega, domain_bit_reverse(idx[i], 14));
        assert_true(fr_eq(&d1.tw[idx[i]], &x));
    }
    domain_free(&d1);
    domain_free(&d2);
}

static void test_sizing(void **state)
{
    (void)state;
    const size_t m[] = {0, 1, 2, 3, 4, 5, 1000, 1024, 1025};
    const unsigned want[] = {0, 0, 1, 2, 2, 3, 10, 10, 11};
    for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
        domain_t d;
        assert_int_equal(domain_init(&d, m[i], DOMAIN_ROOTS_BELLMAN, 1), CUZK_OK);
        assert_int_equal(d.log_n, want[i]);
        domain_free(&d);
    }
    domain_t d;
    assert_int_equal(domain_init_log(&d, 33, DOMAIN_ROOTS_BELLMAN, 1), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(domain_init(&d, ((size_t)1 << 32) + 1, DOMAIN_ROOTS_BELLMAN, 1),
                     CUZK_ERR_INVALID_ARGUMENT);
    domain_free(&d); /* harmless on a failed init */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_non_residues),     cmocka_unit_test(test_root_known_answers),
        cmocka_unit_test(test_root_orders),      cmocka_unit_test(test_domain_constants),
        cmocka_unit_test(test_twiddles_threads), cmocka_unit_test(test_sizing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
