#ifndef CUZK_CUDA_MSM_G1_DEFS_CUH
#define CUZK_CUDA_MSM_G1_DEFS_CUH

/* The macros that make msm_group.cuh and its three templates the device
 * MSM over G1: the point layer of ec_g1.cuh, coordinates in Fp. */

#include "cuda/ec_g1.cuh"
#include "cuda/msm_internal.cuh"

static_assert(sizeof(dg1_jac_t) == CUDA_MSM_G1_JAC_BYTES, "dg1_jac_t is not g1_jac_t");
static_assert(sizeof(dg1_xyzz_t) == CUDA_MSM_G1_XYZZ_BYTES, "dg1_xyzz_t is not g1_xyzz_t");

#define EC(name) dg1_##name
#define MSMK(name) msm_g1_##name
#define MSM_FE_T dfp_t
#define MSM_FE_LOAD dfp_load
#define MSM_FE_STORE dfp_store
#define MSM_FE_IS_ZERO ec_fp_is_zero
#define MSM_FE_SET_ZERO ec_fp_set_zero
#define MSM_HOST_AFF_BYTES CUDA_MSM_G1_AFFINE_BYTES
#define MSM_OPS msm_g1_ops
/* The window-size model: buckets cost about this many mixed additions each
 * (two XYZZ additions in the reduction, its lower occupancy, and the
 * bucket's share of the sort), and windows above 22 bits hold too much
 * memory (2^21 buckets of 192 bytes per window). */
#define MSM_MAX_AUTO_C 22u
#define MSM_BUCKET_COST 4.0

/* The level-1 reduction's addition, inline and reading the bucket where it
 * is (no copy in registers): fewer spills than the out-of-line call. */
#define MSM_REDUCE_ADD EC(xyzz_add_in)

/* The accumulation with its registers capped so that four blocks of 128
 * threads fit on an SM (128 registers, a few spills) where three fit
 * uncapped: 2.2 % faster at 2^24, 2.4 % at 2^26 (h200, commit e300a54). */
/* The accumulation's blocks per SM (its second launch bound); the compile
 * definition CUZK_MSM_ACC_MIN_BLOCKS_G1 (in CMAKE_CUDA_FLAGS) overrides
 * it, for measuring other caps. */
#ifdef CUZK_MSM_ACC_MIN_BLOCKS_G1
#define MSM_ACC_MIN_BLOCKS CUZK_MSM_ACC_MIN_BLOCKS_G1
#else
#define MSM_ACC_MIN_BLOCKS 4
#endif

static const cuda_msm_group msm_g1_group = CUDA_MSM_G1;

/* The subgroup test (Scott, "A note on group membership tests for G1, G2
 * and GT on BLS pairing-friendly curves", 2021): P ∈ G1 iff φ(P) =
 * −[x²]P, φ(x, y) = (β·x, y); consts: β (Montgomery form, curve/g1.h's
 * G1_BETA). */
#define MSM_SUBGROUP_X_POWER 2
#define MSM_ENDO_CONSTS 1
static __device__ __forceinline__ void msm_g1_endo(dg1_aff_t *r, const dg1_aff_t *a,
                                                   const dfp_t *consts)
{
    dfp_t beta;
    dfp_load(&beta, &consts[0]);
    dfp_mul(&r->x, &a->x, &beta);
    r->y = a->y;
}

#endif
