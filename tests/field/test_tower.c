/* The BLS12-381 tower Fp2 ⊂ Fp6 ⊂ Fp12 (ξ = u + 1): the tests of
 * tower_tests_impl.h against tests/vectors/fp2.txt and fp12.txt. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "field/fp12.h"
#include "seed.h"
#include "vector_file.h"

#include "field/tower_names_bls12_381.h"
#define TT_NAME "tower"
#define TT_FILE_FP2 "fp2.txt"
#define TT_FILE_FP12 "fp12.txt"
#define TT_XI_C0 1
#define TT_XI_C1 1
#define TT_X_ABS 0xd201000000010000ULL
#define TT_X_NEGATIVE 1
#include "tower_tests_impl.h"

int main(void)
{
    const struct CMUnitTest tests[] = {
        TOWER_TESTS,
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
