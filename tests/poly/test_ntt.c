/* NTT over BLS12-381's Fr: the tests of ntt_tests_impl.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "field/fr.h"
#include "poly/domain.h"
#include "poly/ntt.h"

#include "field/fr_names.h"
#define TD_(name) domain_##name
#define TD_T domain_t
#define TN_(name) ntt_##name
#define TN_PREFIX "ntt_"
#include "ntt_tests_impl.h"

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_naive_dft),   cmocka_unit_test(test_spot_checks),
        cmocka_unit_test(test_round_trips), cmocka_unit_test(test_threads),
        cmocka_unit_test(test_bit_reverse), cmocka_unit_test(test_scale_powers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
