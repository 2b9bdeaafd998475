/* Fr: constants recomputed from r, field axioms, encodings, inversions, square
 * roots, powers and the known-answer vectors of tests/vectors/fr.txt, from
 * prime_field_tests_impl.h instantiated for a 2-adic field (t, the generator
 * 7, the 2^32-th root of unity and the square roots Tonelli-Shanks meets). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "field/fr.h"
#include "field/fr_consts.h"
#include "field/limbs.h"
#include "seed.h"
#include "vector_file.h"

#define FE_(name) fr_##name
#define FE_T fr_t
#define FE_LIMBS FR_LIMBS
#define FE_BYTES FR_BYTES
#define FE_ZERO FR_ZERO
#define FE_ONE FR_ONE
#define FE_MODULUS FR_MODULUS
#define FE_R2 FR_R2
#define FE_R3 FR_R3
#define FE_N0 FR_N0
#define FE_MINUS_2 FR_R_MINUS_2
#define FE_MINUS_1_HALF FR_R_MINUS_1_HALF
#define FE_ADD_MOD_PORTABLE add_mod_256_portable
#define FE_MONT_MUL_PORTABLE mont_mul_256_portable
#define FE_NAME "fr"
#define FE_MODULUS_NAME "r"
#define FE_MODULUS_HEX "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"
#define FE_TWO_ADICITY FR_TWO_ADICITY
#define FE_GENERATOR FR_GENERATOR
#define FE_ODD_T FR_T
#define FE_T_MINUS_1_HALF FR_T_MINUS_1_HALF
#define FE_ROOT_OF_UNITY FR_ROOT_OF_UNITY
#include "prime_field_tests_impl.h"

int main(void)
{
    const struct CMUnitTest tests[] = {
        PRIME_FIELD_TESTS,
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
