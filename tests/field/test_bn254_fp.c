/* BN254 Fp: constants recomputed from p, field axioms, encodings, inversions, square
 * roots, powers and the known-answer vectors of tests/vectors/bn254_fp.txt, from
 * prime_field_tests_impl.h instantiated for a base field with p = 3 mod 4
 * ((p + 1)/4 roots, small multiples and lexicographic order). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "field/bn254_fp.h"
#include "field/bn254_consts.h"
#include "field/limbs.h"
#include "seed.h"
#include "vector_file.h"

#define FE_(name) bn254_fp_##name
#define FE_T bn254_fp_t
#define FE_LIMBS BN254_FP_LIMBS
#define FE_BYTES BN254_FP_BYTES
#define FE_ZERO BN254_FP_ZERO
#define FE_ONE BN254_FP_ONE
#define FE_MODULUS BN254_FP_MODULUS
#define FE_R2 BN254_FP_R2
#define FE_R3 BN254_FP_R3
#define FE_N0 BN254_FP_N0
#define FE_MINUS_2 BN254_FP_P_MINUS_2
#define FE_MINUS_1_HALF BN254_FP_P_MINUS_1_HALF
#define FE_ADD_MOD_PORTABLE add_mod_256_portable
#define FE_MONT_MUL_PORTABLE mont_mul_256_portable
#define FE_NAME "bn254_fp"
#define FE_MODULUS_NAME "p"
#define FE_MODULUS_HEX "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47"
#define FE_PLUS_1_QUARTER BN254_FP_P_PLUS_1_QUARTER
#define FE_BASE_FIELD 1
#include "prime_field_tests_impl.h"

int main(void)
{
    const struct CMUnitTest tests[] = {
        PRIME_FIELD_TESTS,
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
