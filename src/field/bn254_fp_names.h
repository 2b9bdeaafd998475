/* The names the prime-field templates are instantiated with for BN254 Fp:
 * prime_field_impl.h in bn254_fp.c and prime_field_tests_impl.h in
 * tests/field/test_bn254_fp.c (the _PORTABLE primitives and the FE_NAME /
 * FE_MODULUS_ strings are the tests'). No include guard; include it after
 * the field's header and its constants' header. */
#define FE_(name) bn254_fp_##name
#define FE_T bn254_fp_t
#define FE_LIMBS BN254_FP_LIMBS
#define FE_BYTES BN254_FP_BYTES
#define FE_BITS 254
#define FE_ZERO BN254_FP_ZERO
#define FE_ONE BN254_FP_ONE
#define FE_MODULUS BN254_FP_MODULUS
#define FE_R2 BN254_FP_R2
#define FE_R3 BN254_FP_R3
#define FE_N0 BN254_FP_N0
#define FE_MINUS_2 BN254_FP_P_MINUS_2
#define FE_MINUS_1_HALF BN254_FP_P_MINUS_1_HALF
#define FE_ADD_MOD add_mod_256
#define FE_SUB_MOD sub_mod_256
#define FE_MONT_MUL mont_mul_256
#define FE_MONT_SQR mont_sqr_256
#define FE_FROM_MONT from_mont_256
#define FE_PLUS_1_QUARTER BN254_FP_P_PLUS_1_QUARTER
#define FE_BASE_FIELD 1
#define FE_ADD_MOD_PORTABLE add_mod_256_portable
#define FE_MONT_MUL_PORTABLE mont_mul_256_portable
#define FE_NAME "bn254_fp"
#define FE_MODULUS_NAME "p"
#define FE_MODULUS_HEX "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47"
