#ifndef CUZK_CUDA_MSM_BN254_G2_DEFS_CUH
#define CUZK_CUDA_MSM_BN254_G2_DEFS_CUH

/* The macros that make msm_group.cuh and its three templates the device
 * MSM over BN254's G2: the point layer of ec_bn254_g2.cuh, coordinates in
 * BN254's Fp2 (msm_g2_defs.cuh says what each macro is). */

#include "cuda/ec_bn254_g2.cuh"
#include "cuda/msm_internal.cuh"

static_assert(sizeof(dbn254_g2_jac_t) == CUDA_MSM_BN254_G2_JAC_BYTES,
              "dbn254_g2_jac_t is not bn254_g2_jac_t");
static_assert(sizeof(dbn254_g2_xyzz_t) == CUDA_MSM_BN254_G2_XYZZ_BYTES,
              "dbn254_g2_xyzz_t is not bn254_g2_xyzz_t");

#define EC(name) dbn254_g2_##name
#define MSMK(name) msm_bn254_g2_##name
#define MSM_FE_T dbn254_fp2_t
#define MSM_FE_LOAD dbn254_fp2_load
#define MSM_FE_STORE dbn254_fp2_store
#define MSM_FE_IS_ZERO ec_bn254_fp2_is_zero
#define MSM_FE_SET_ZERO ec_bn254_fp2_set_zero
#define MSM_HOST_AFF_BYTES CUDA_MSM_BN254_G2_AFFINE_BYTES
#define MSM_OPS msm_bn254_g2_ops
/* The window model of BLS12-381's G2 (msm_g2_defs.cuh); buckets of 256
 * bytes, not yet tuned for this curve. */
#define MSM_MAX_AUTO_C 20u
#define MSM_BUCKET_COST 4.0
/* The accumulation's blocks per SM (its second launch bound); the compile
 * definition CUZK_MSM_ACC_MIN_BLOCKS_BN254_G2 (in CMAKE_CUDA_FLAGS) overrides
 * it, for measuring other caps. */
#ifdef CUZK_MSM_ACC_MIN_BLOCKS_BN254_G2
#define MSM_ACC_MIN_BLOCKS CUZK_MSM_ACC_MIN_BLOCKS_BN254_G2
#else
#define MSM_ACC_MIN_BLOCKS 1
#endif
#define MSM_REDUCE_ADD EC(xyzz_add)

static const cuda_msm_group msm_bn254_g2_group = CUDA_MSM_BN254_G2;

/* The subgroup test by the order: P ∈ G2 iff [r]P = O (the twist's order
 * is r·(2p − r), curve/bn254_g2.c); consts: r as four 64-bit words
 * (msm_combine.c), 254 doublings a point. */
#define MSM_SUBGROUP_BY_ORDER 1
#define MSM_ENDO_CONSTS 0
#define MSM_ORDER_BYTES 32

#endif
