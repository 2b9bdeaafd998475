#ifndef CUZK_CUDA_MSM_G2_DEFS_CUH
#define CUZK_CUDA_MSM_G2_DEFS_CUH

/* The macros that make msm_group.cuh and its three templates the device
 * MSM over G2: the point layer of ec_g2.cuh, coordinates in Fp2. */

#include "cuda/ec_g2.cuh"
#include "cuda/msm_internal.cuh"

static_assert(sizeof(dg2_jac_t) == CUDA_MSM_G2_JAC_BYTES, "dg2_jac_t is not g2_jac_t");
static_assert(sizeof(dg2_xyzz_t) == CUDA_MSM_G2_XYZZ_BYTES, "dg2_xyzz_t is not g2_xyzz_t");

#define EC(name) dg2_##name
#define MSMK(name) msm_g2_##name
#define MSM_FE_T dfp2_t
#define MSM_FE_LOAD dfp2_load
#define MSM_FE_STORE dfp2_store
#define MSM_FE_IS_ZERO ec_fp2_is_zero
#define MSM_FE_SET_ZERO ec_fp2_set_zero
#define MSM_HOST_AFF_BYTES CUDA_MSM_G2_AFFINE_BYTES
#define MSM_OPS msm_g2_ops
/* As for G1 (msm_g1_defs.cuh), with buckets of 384 bytes. */
#define MSM_MAX_AUTO_C 20u
#define MSM_BUCKET_COST 4.0

/* The level-1 reduction's addition, out of line: inlined, the Fp2
 * addition spills about twice as much. */
/* The accumulation's registers are not capped (msm_g1_defs.cuh). */
/* The accumulation's blocks per SM (its second launch bound); the compile
 * definition CUZK_MSM_ACC_MIN_BLOCKS_G2 (in CMAKE_CUDA_FLAGS) overrides
 * it, for measuring other caps. */
#ifdef CUZK_MSM_ACC_MIN_BLOCKS_G2
#define MSM_ACC_MIN_BLOCKS CUZK_MSM_ACC_MIN_BLOCKS_G2
#else
#define MSM_ACC_MIN_BLOCKS 1
#endif

#define MSM_REDUCE_ADD EC(xyzz_add)

static const cuda_msm_group msm_g2_group = CUDA_MSM_G2;

/* The subgroup test (Scott 2021, as for G1): P ∈ G2 iff ψ(P) = [x]P =
 * −[|x|]P, ψ(x, y) = (conj(x)·PSI_X, conj(y)·PSI_Y); consts: PSI_X, PSI_Y
 * (curve/g2.h). PSI_X = c·u, so conj(x)·PSI_X = x1·c + x0·c·u. */
#define MSM_SUBGROUP_X_POWER 1
#define MSM_ENDO_CONSTS 2
static __device__ __forceinline__ void msm_g2_endo(dg2_aff_t *r, const dg2_aff_t *a,
                                                   const dfp2_t *consts)
{
    dfp2_t psi_x, psi_y, y;
    dfp2_load(&psi_x, &consts[0]);
    dfp2_load(&psi_y, &consts[1]);
    dfp_t t;
    dfp_mul(&t, &a->x.c1, &psi_x.c1);
    dfp_mul(&r->x.c1, &a->x.c0, &psi_x.c1);
    r->x.c0 = t;
    y.c0 = a->y.c0;
    dfp_neg(&y.c1, &a->y.c1);
    dfp2_mul(&r->y, &y, &psi_y);
}

#endif
