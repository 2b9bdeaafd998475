/* MSM over G1: the template msm_impl.h instantiated with the G1 types. */
#include "msm/msm.h"

#define MSM_G(name) g1_##name
#define MSM_F(suffix) msm_g1##suffix
#define MSM_AFF g1_affine_t
#define MSM_JAC g1_jac_t
#define MSM_XYZZ g1_xyzz_t
#define MSM_FE(name) fp_##name
#define MSM_FE_T fp_t
#define MSM_BASE(name) fp_##name
#define MSM_BASE_T fp_t
#define MSM_BASE_ONE FP_ONE
/* Over Fp the batch inverts the denominators themselves. */
#define MSM_FE_HAS_NORM 0
#define MSM_SC(name) fr_##name
#define MSM_SC_T fr_t
#define MSM_SC_ONE FR_ONE
#define MSM_SC_MODULUS FR_MODULUS
/* add-2008-s (12M + 2S) over madd-2008-s (8M + 2S), as timed. */
#define MSM_ADD_RATIO 1.38
#define MSM_AFFINE_MIN_POINTS MSM_G1_AFFINE_MIN_POINTS
/* A batched affine addition over a mixed XYZZ one (5M + 1S and a share of the inversion against 8M + 2S), as timed
 * by the window it makes the plan pick. */
#define MSM_AFFINE_POINT_COST 0.7
/* The affine reduction beyond its two additions a bucket (its smaller
 * batches' inversions, the segments' sums), as timed by the window. */
#define MSM_AFFINE_REDUCE_EXTRA 0.2

#define MSM_HAS_GLV 1
/* The endomorphism split: [x²]P = (β·x, −y) with β = G1_BETA (φ = [−x²]). */
#define MSM_GLV_MUL_BETA(r, a) fp_mul(r, a, &G1_BETA)
/* One Fp product and the scalar's division, over a mixed XYZZ addition. */
#define MSM_GLV_POINT_COST 0.2

#include "msm/msm_impl.h"
