#ifndef CUZK_CUDA_EC_G1_CUH
#define CUZK_CUDA_EC_G1_CUH

/* G1 on the device: y² = x³ + 4 over Fp, the group law of ec_impl.cuh with
 * the dg1_ prefix (dg1_aff_t, dg1_xyzz_t, dg1_jac_t, dg1_xyzz_madd, ...).
 * dg1_jac_t is byte for byte the CPU's g1_jac_t. */

#include "cuda/ec_field.cuh"

#define EC_(name) dg1_##name
#define FE_T dfp_t
#define FE_ADD dfp_add
#define FE_SUB dfp_sub
#define FE_DBL dfp_dbl
#define FE_NEG dfp_neg
#define FE_MUL dfp_mul
#define FE_SQR dfp_sqr
#define FE_IS_ZERO ec_fp_is_zero
#define FE_SET_ZERO ec_fp_set_zero
#define FE_SET_ONE ec_fp_set_one
#define FE_INV ec_fp_inv
#define FE_LOAD dfp_load
#define FE_STORE dfp_store
#define FE_SHFL_DOWN ec_fp_shfl_down

#include "cuda/ec_impl.cuh"

#include "cuda/ec_impl_undef.cuh"

#endif
