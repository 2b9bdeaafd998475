/* Fp: constants recomputed from p, field axioms, encodings, inversions, square
 * roots, powers and the known-answer vectors of tests/vectors/fp.txt, from
 * prime_field_tests_impl.h instantiated for a base field with p = 3 mod 4
 * ((p + 1)/4 roots, small multiples and lexicographic order). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "field/fp.h"
#include "field/fp_consts.h"
#include "field/limbs.h"
#include "seed.h"
#include "vector_file.h"

#define FE_(name) fp_##name
#define FE_T fp_t
#define FE_LIMBS FP_LIMBS
#define FE_BYTES FP_BYTES
#define FE_ZERO FP_ZERO
#define FE_ONE FP_ONE
#define FE_MODULUS FP_MODULUS
#define FE_R2 FP_R2
#define FE_R3 FP_R3
#define FE_N0 FP_N0
#define FE_MINUS_2 FP_P_MINUS_2
#define FE_MINUS_1_HALF FP_P_MINUS_1_HALF
#define FE_ADD_MOD_PORTABLE add_mod_384_portable
#define FE_MONT_MUL_PORTABLE mont_mul_384_portable
#define FE_NAME "fp"
#define FE_MODULUS_NAME "p"
#define FE_MODULUS_HEX                                                                             \
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f624"                             \
    "1eabfffeb153ffffb9feffffffffaaab"
#define FE_PLUS_1_QUARTER FP_P_PLUS_1_QUARTER
#define FE_BASE_FIELD 1
#include "prime_field_tests_impl.h"

int main(void)
{
    const struct CMUnitTest tests[] = {
        PRIME_FIELD_TESTS,
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
