#ifndef CUZK_CUDA_EC_G2_CUH
#define CUZK_CUDA_EC_G2_CUH

/* G2 on the device: y² = x³ + 4(u + 1) over Fp2, the group law of ec_impl.cuh with
 * the dg2_ prefix (dg2_aff_t, dg2_xyzz_t, dg2_jac_t, dg2_xyzz_madd, ...).
 * dg2_jac_t is byte for byte the CPU's g2_jac_t. */

#include "cuda/ec_field.cuh"

#define EC_(name) dg2_##name
#define FE_T dfp2_t
#define FE_ADD dfp2_add
#define FE_SUB dfp2_sub
#define FE_DBL dfp2_dbl
#define FE_NEG dfp2_neg
#define FE_MUL dfp2_mul
#define FE_SQR dfp2_sqr
#define FE_IS_ZERO ec_fp2_is_zero
#define FE_SET_ZERO ec_fp2_set_zero
#define FE_SET_ONE ec_fp2_set_one
#define FE_INV ec_fp2_inv
#define FE_LOAD dfp2_load
#define FE_STORE dfp2_store
#define FE_SHFL_DOWN ec_fp2_shfl_down

#include "cuda/ec_impl.cuh"

#include "cuda/ec_impl_undef.cuh"

#endif
