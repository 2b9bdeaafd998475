/* BN254 Fr: constants recomputed from r, field axioms, encodings, inversions, square
 * roots, powers and the known-answer vectors of tests/vectors/bn254_fr.txt, from
 * prime_field_tests_impl.h instantiated for a 2-adic field (t, the generator
 * 5, the 2^28-th root of unity and the square roots Tonelli-Shanks meets). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "field/bn254_fr.h"
#include "field/bn254_consts.h"
#include "field/limbs.h"
#include "seed.h"
#include "vector_file.h"

#define FE_(name) bn254_fr_##name
#define FE_T bn254_fr_t
#define FE_LIMBS BN254_FR_LIMBS
#define FE_BYTES BN254_FR_BYTES
#define FE_ZERO BN254_FR_ZERO
#define FE_ONE BN254_FR_ONE
#define FE_MODULUS BN254_FR_MODULUS
#define FE_R2 BN254_FR_R2
#define FE_R3 BN254_FR_R3
#define FE_N0 BN254_FR_N0
#define FE_MINUS_2 BN254_FR_R_MINUS_2
#define FE_MINUS_1_HALF BN254_FR_R_MINUS_1_HALF
#define FE_ADD_MOD_PORTABLE add_mod_256_portable
#define FE_MONT_MUL_PORTABLE mont_mul_256_portable
#define FE_NAME "bn254_fr"
#define FE_MODULUS_NAME "r"
#define FE_MODULUS_HEX "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001"
#define FE_TWO_ADICITY BN254_FR_TWO_ADICITY
#define FE_GENERATOR BN254_FR_GENERATOR
#define FE_ODD_T BN254_FR_T
#define FE_T_MINUS_1_HALF BN254_FR_T_MINUS_1_HALF
#define FE_ROOT_OF_UNITY BN254_FR_ROOT_OF_UNITY
#include "prime_field_tests_impl.h"

int main(void)
{
    const struct CMUnitTest tests[] = {
        PRIME_FIELD_TESTS,
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
