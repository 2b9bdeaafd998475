/* The names the prime-field templates are instantiated with for BLS12-381 Fp:
 * prime_field_impl.h in fp.c and prime_field_tests_impl.h in
 * tests/field/test_fp.c (the _PORTABLE primitives and the FE_NAME /
 * FE_MODULUS_ strings are the tests'). No include guard; include it after
 * the field's header and its constants' header. */
#define FE_(name) fp_##name
#define FE_T fp_t
#define FE_LIMBS FP_LIMBS
#define FE_BYTES FP_BYTES
#define FE_BITS 381
#define FE_ZERO FP_ZERO
#define FE_ONE FP_ONE
#define FE_MODULUS FP_MODULUS
#define FE_R2 FP_R2
#define FE_R3 FP_R3
#define FE_N0 FP_N0
#define FE_MINUS_2 FP_P_MINUS_2
#define FE_MINUS_1_HALF FP_P_MINUS_1_HALF
#define FE_ADD_MOD add_mod_384
#define FE_SUB_MOD sub_mod_384
#define FE_MONT_MUL mont_mul_384
#define FE_MONT_SQR mont_sqr_384
#define FE_FROM_MONT from_mont_384
#define FE_PLUS_1_QUARTER FP_P_PLUS_1_QUARTER
#define FE_BASE_FIELD 1
#define FE_ADD_MOD_PORTABLE add_mod_384_portable
#define FE_MONT_MUL_PORTABLE mont_mul_384_portable
#define FE_NAME "fp"
#define FE_MODULUS_NAME "p"
#define FE_MODULUS_HEX                                                                             \
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f624"                             \
    "1eabfffeb153ffffb9feffffffffaaab"
