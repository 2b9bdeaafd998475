/* The names the prime-field templates are instantiated with for BN254 Fr:
 * prime_field_impl.h in bn254_fr.c and prime_field_tests_impl.h in
 * tests/field/test_bn254_fr.c (the _PORTABLE primitives and the FE_NAME /
 * FE_MODULUS_ strings are the tests'). No include guard; include it after
 * the field's header and its constants' header. */
#define FE_(name) bn254_fr_##name
#define FE_T bn254_fr_t
#define FE_LIMBS BN254_FR_LIMBS
#define FE_BYTES BN254_FR_BYTES
#define FE_BITS 254
#define FE_ZERO BN254_FR_ZERO
#define FE_ONE BN254_FR_ONE
#define FE_MODULUS BN254_FR_MODULUS
#define FE_R2 BN254_FR_R2
#define FE_R3 BN254_FR_R3
#define FE_N0 BN254_FR_N0
#define FE_MINUS_2 BN254_FR_R_MINUS_2
#define FE_MINUS_1_HALF BN254_FR_R_MINUS_1_HALF
#define FE_ADD_MOD add_mod_256
#define FE_SUB_MOD sub_mod_256
#define FE_MONT_MUL mont_mul_256
#define FE_MONT_SQR mont_sqr_256
#define FE_FROM_MONT from_mont_256
#define FE_TWO_ADICITY BN254_FR_TWO_ADICITY
#define FE_T_MINUS_1_HALF BN254_FR_T_MINUS_1_HALF
#define FE_ROOT_OF_UNITY BN254_FR_ROOT_OF_UNITY
#define FE_ADD_MOD_PORTABLE add_mod_256_portable
#define FE_MONT_MUL_PORTABLE mont_mul_256_portable
#define FE_NAME "bn254_fr"
#define FE_MODULUS_NAME "r"
#define FE_MODULUS_HEX "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001"
#define FE_GENERATOR BN254_FR_GENERATOR
#define FE_ODD_T BN254_FR_T
