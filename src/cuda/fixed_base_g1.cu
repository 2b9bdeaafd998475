/* The GPU fixed-base products over G1 (fixed_base_impl.cuh). */

#include "cuda/ec_g1.cuh"
#include "cuda/msm.h"

#define EC(name) dg1_##name
#define FBK(name) fixed_base_g1_##name
#define FB_FE_T dfp_t
#define FB_FE_MUL dfp_mul
#define FB_FE_SQR dfp_sqr
#define FB_FE_INV ec_fp_inv
#define FB_FE_IS_ZERO ec_fp_is_zero
#define FB_FE_SET_ONE ec_fp_set_one
#define FB_HOST_AFF_BYTES CUDA_MSM_G1_AFFINE_BYTES

#include "cuda/fixed_base_impl.cuh"
