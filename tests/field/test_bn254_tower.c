/* The BN254 tower Fp2 ⊂ Fp6 ⊂ Fp12 (ξ = 9 + u): the tests of
 * tower_tests_impl.h against tests/vectors/bn254_fp2.txt and bn254_fp12.txt. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "field/bn254_tower.h"
#include "seed.h"
#include "vector_file.h"

#include "field/tower_names_bn254.h"
#define TT_NAME "bn254_tower"
#define TT_FILE_FP2 "bn254_fp2.txt"
#define TT_FILE_FP12 "bn254_fp12.txt"
#define TT_XI_C0 9
#define TT_XI_C1 1
#define TT_X_ABS 0x44e992b44a6909f1ULL
#define TT_X_NEGATIVE 0
#include "tower_tests_impl.h"

int main(void)
{
    const struct CMUnitTest tests[] = {
        TOWER_TESTS,
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
