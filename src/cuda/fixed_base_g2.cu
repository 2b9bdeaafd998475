/* The GPU fixed-base products over G2 (fixed_base_impl.cuh). */

#include "cuda/ec_g2.cuh"
#include "cuda/msm.h"

#define EC(name) dg2_##name
#define FBK(name) fixed_base_g2_##name
#define FB_FE_T dfp2_t
#define FB_FE_MUL dfp2_mul
#define FB_FE_SQR dfp2_sqr
#define FB_FE_INV ec_fp2_inv
#define FB_FE_IS_ZERO ec_fp2_is_zero
#define FB_FE_SET_ONE ec_fp2_set_one
#define FB_HOST_AFF_BYTES CUDA_MSM_G2_AFFINE_BYTES

#include "cuda/fixed_base_impl.cuh"
