#ifndef CUZK_CUDA_EC_BN254_G1_CUH
#define CUZK_CUDA_EC_BN254_G1_CUH

/* BN254 G1 on the device: y² = x³ + 3 over Fp, the group law of ec_impl.cuh with the
 * dbn254_g1_ prefix (dbn254_g1_aff_t, dbn254_g1_xyzz_t, ...).
 * dbn254_g1_jac_t is byte for byte the CPU's bn254_g1_jac_t. */

#include "cuda/ec_field.cuh"

#define EC_(name) dbn254_g1_##name
#define FE_T dbn254_fp_t
#define FE_ADD dbn254_fp_add
#define FE_SUB dbn254_fp_sub
#define FE_DBL dbn254_fp_dbl
#define FE_NEG dbn254_fp_neg
#define FE_MUL dbn254_fp_mul
#define FE_SQR dbn254_fp_sqr
#define FE_IS_ZERO ec_bn254_fp_is_zero
#define FE_SET_ZERO ec_bn254_fp_set_zero
#define FE_SET_ONE ec_bn254_fp_set_one
#define FE_INV ec_bn254_fp_inv
#define FE_LOAD dbn254_fp_load
#define FE_STORE dbn254_fp_store
#define FE_SHFL_DOWN ec_bn254_fp_shfl_down

#include "cuda/ec_impl.cuh"

#include "cuda/ec_impl_undef.cuh"

#endif
