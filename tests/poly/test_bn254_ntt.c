/* NTT over BN254's Fr: the tests of ntt_tests_impl.h (the naive DFT, Horner
 * spot checks, round trips, threads, bit reversal, scaling), and BN254's
 * roots: snarkjs's 2^28-th root is 5^t (ffjavascript's bn128 Fr.w[28]),
 * bellman's 7^t, each of order exactly 2^28. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "field/bn254_consts.h"
#include "field/bn254_fr.h"
#include "poly/bn254_domain.h"
#include "poly/bn254_ntt.h"

#include "field/bn254_fr_names.h"
#define TD_(name) bn254_domain_##name
#define TD_T bn254_domain_t
#define TN_(name) bn254_ntt_##name
#define TN_PREFIX "bn254_ntt_"
#include "ntt_tests_impl.h"

/* w^(2^27) = −1 and w^(2^28) = 1: order exactly 2^28. */
static void check_order_2_28(const bn254_fr_t *w)
{
    bn254_fr_t t = *w, minus_one;
    bn254_fr_neg(&minus_one, &BN254_FR_ONE);
    for (unsigned i = 0; i < BN254_DOMAIN_MAX_LOG - 1; i++)
        bn254_fr_sqr(&t, &t);
    assert_true(bn254_fr_eq(&t, &minus_one));
    bn254_fr_sqr(&t, &t);
    assert_true(bn254_fr_is_one(&t));
}

static void test_roots(void **state)
{
    (void)state;
    bn254_fr_t w, five_t;
    bn254_domain_root_of_unity_max(&w, DOMAIN_ROOTS_SNARKJS);
    assert_true(bn254_fr_eq(&w, &BN254_FR_ROOT_OF_UNITY));
    check_order_2_28(&w);
    bn254_fr_from_u64(&five_t, 5);
    bn254_fr_pow_var(&five_t, &five_t, BN254_FR_T, BN254_FR_LIMBS);
    assert_true(bn254_fr_eq(&w, &five_t));
    bn254_domain_root_of_unity_max(&w, DOMAIN_ROOTS_BELLMAN);
    check_order_2_28(&w);
    /* The largest domain has no 2n-th root; one beyond it is refused. */
    bn254_domain_t d;
    assert_int_equal(bn254_domain_init_log(&d, BN254_DOMAIN_MAX_LOG + 1, DOMAIN_ROOTS_SNARKJS, 1),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(
        bn254_domain_init(&d, ((size_t)1 << BN254_DOMAIN_MAX_LOG) + 1, DOMAIN_ROOTS_SNARKJS, 1),
        CUZK_ERR_INVALID_ARGUMENT);
    /* A domain's omega_2n squares to its omega, the odd coset of snarkjs. */
    assert_int_equal(bn254_domain_init_log(&d, 5, DOMAIN_ROOTS_SNARKJS, 1), CUZK_OK);
    bn254_fr_sqr(&w, &d.omega_2n);
    assert_true(bn254_fr_eq(&w, &d.omega));
    bn254_domain_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roots),        cmocka_unit_test(test_naive_dft),
        cmocka_unit_test(test_spot_checks),  cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_threads),      cmocka_unit_test(test_bit_reverse),
        cmocka_unit_test(test_scale_powers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
