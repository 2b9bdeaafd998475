/* The names the prime-field templates are instantiated with for BLS12-381 Fr:
 * prime_field_impl.h in fr.c and prime_field_tests_impl.h in
 * tests/field/test_fr.c (the _PORTABLE primitives and the FE_NAME /
 * FE_MODULUS_ strings are the tests'). No include guard; include it after
 * the field's header and its constants' header. */
#define FE_(name) fr_##name
#define FE_T fr_t
#define FE_LIMBS FR_LIMBS
#define FE_BYTES FR_BYTES
#define FE_BITS 255
#define FE_ZERO FR_ZERO
#define FE_ONE FR_ONE
#define FE_MODULUS FR_MODULUS
#define FE_R2 FR_R2
#define FE_R3 FR_R3
#define FE_N0 FR_N0
#define FE_MINUS_2 FR_R_MINUS_2
#define FE_MINUS_1_HALF FR_R_MINUS_1_HALF
#define FE_ADD_MOD add_mod_256
#define FE_SUB_MOD sub_mod_256
#define FE_MONT_MUL mont_mul_256
#define FE_MONT_SQR mont_sqr_256
#define FE_FROM_MONT from_mont_256
#define FE_TWO_ADICITY FR_TWO_ADICITY
#define FE_T_MINUS_1_HALF FR_T_MINUS_1_HALF
#define FE_ROOT_OF_UNITY FR_ROOT_OF_UNITY
#define FE_ADD_MOD_PORTABLE add_mod_256_portable
#define FE_MONT_MUL_PORTABLE mont_mul_256_portable
#define FE_NAME "fr"
#define FE_MODULUS_NAME "r"
#define FE_MODULUS_HEX "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"
#define FE_GENERATOR FR_GENERATOR
#define FE_ODD_T FR_T
