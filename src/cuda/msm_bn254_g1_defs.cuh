#ifndef CUZK_CUDA_MSM_BN254_G1_DEFS_CUH
#define CUZK_CUDA_MSM_BN254_G1_DEFS_CUH

/* The macros that make msm_group.cuh and its three templates the device
 * MSM over BN254's G1: the point layer of ec_bn254_g1.cuh, coordinates in
 * BN254's Fp (msm_g1_defs.cuh says what each macro is). */

#include "cuda/ec_bn254_g1.cuh"
#include "cuda/msm_internal.cuh"

static_assert(sizeof(dbn254_g1_jac_t) == CUDA_MSM_BN254_G1_JAC_BYTES,
              "dbn254_g1_jac_t is not bn254_g1_jac_t");
static_assert(sizeof(dbn254_g1_xyzz_t) == CUDA_MSM_BN254_G1_XYZZ_BYTES,
              "dbn254_g1_xyzz_t is not bn254_g1_xyzz_t");

#define EC(name) dbn254_g1_##name
#define MSMK(name) msm_bn254_g1_##name
#define MSM_FE_T dbn254_fp_t
#define MSM_FE_LOAD dbn254_fp_load
#define MSM_FE_STORE dbn254_fp_store
#define MSM_FE_IS_ZERO ec_bn254_fp_is_zero
#define MSM_FE_SET_ZERO ec_bn254_fp_set_zero
#define MSM_HOST_AFF_BYTES CUDA_MSM_BN254_G1_AFFINE_BYTES
#define MSM_OPS msm_bn254_g1_ops
/* The window model of BLS12-381's G1 (msm_g1_defs.cuh); buckets of 128
 * bytes, not yet tuned for this curve. */
#define MSM_MAX_AUTO_C 22u
#define MSM_BUCKET_COST 4.0
#define MSM_REDUCE_ADD EC(xyzz_add_in)
/* The accumulation's blocks per SM (its second launch bound); the compile
 * definition CUZK_MSM_ACC_MIN_BLOCKS_BN254_G1 (in CMAKE_CUDA_FLAGS) overrides
 * it, for measuring other caps. */
#ifdef CUZK_MSM_ACC_MIN_BLOCKS_BN254_G1
#define MSM_ACC_MIN_BLOCKS CUZK_MSM_ACC_MIN_BLOCKS_BN254_G1
#else
#define MSM_ACC_MIN_BLOCKS 4
#endif

static const cuda_msm_group msm_bn254_g1_group = CUDA_MSM_BN254_G1;

/* G1 = E(Fp) (cofactor 1): every point on the curve is in the subgroup,
 * so the test has nothing to check. */
#define MSM_SUBGROUP_NONE 1
#define MSM_ENDO_CONSTS 0

#endif
