/* MSM over BN254's G2: the template msm_impl.h instantiated with BN254's
 * G2 types (over Fp2 = Fp[u]/(u² + 1), as BLS12-381's) and scalar field.
 * The costs are BLS12-381 G2's (bn254_msm_g1.c says why). */
#include "msm/bn254_msm.h"

#define MSM_G(name) bn254_g2_##name
#define MSM_F(suffix) bn254_msm_g2##suffix
#define MSM_AFF bn254_g2_affine_t
#define MSM_JAC bn254_g2_jac_t
#define MSM_XYZZ bn254_g2_xyzz_t
#define MSM_FE(name) bn254_fp2_##name
#define MSM_FE_T bn254_fp2_t
#define MSM_BASE(name) bn254_fp_##name
#define MSM_BASE_T bn254_fp_t
#define MSM_BASE_ONE BN254_FP_ONE
#define MSM_FE_HAS_NORM 1
#define MSM_SC(name) bn254_fr_##name
#define MSM_SC_T bn254_fr_t
#define MSM_SC_ONE BN254_FR_ONE
#define MSM_SC_MODULUS BN254_FR_MODULUS
#define MSM_ADD_RATIO 1.38
#define MSM_AFFINE_MIN_POINTS MSM_G2_AFFINE_MIN_POINTS
#define MSM_AFFINE_POINT_COST 0.55
#define MSM_AFFINE_REDUCE_EXTRA 0.2
#define MSM_HAS_GLV 0 /* as on G1 (bn254_msm_g1.c) */

#include "msm/msm_impl.h"
