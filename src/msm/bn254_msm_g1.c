/* MSM over BN254's G1: the template msm_impl.h instantiated with BN254's
 * G1 types and scalar field. The costs are BLS12-381 G1's (the same
 * formulas; only the field's width differs, which moves both sides of each
 * ratio alike). */
#include "msm/bn254_msm.h"

#define MSM_G(name) bn254_g1_##name
#define MSM_F(suffix) bn254_msm_g1##suffix
#define MSM_AFF bn254_g1_affine_t
#define MSM_JAC bn254_g1_jac_t
#define MSM_XYZZ bn254_g1_xyzz_t
#define MSM_FE(name) bn254_fp_##name
#define MSM_FE_T bn254_fp_t
#define MSM_BASE(name) bn254_fp_##name
#define MSM_BASE_T bn254_fp_t
#define MSM_BASE_ONE BN254_FP_ONE
#define MSM_FE_HAS_NORM 0
#define MSM_SC(name) bn254_fr_##name
#define MSM_SC_T bn254_fr_t
#define MSM_SC_ONE BN254_FR_ONE
#define MSM_SC_MODULUS BN254_FR_MODULUS
#define MSM_ADD_RATIO 1.38
#define MSM_AFFINE_MIN_POINTS MSM_G1_AFFINE_MIN_POINTS
#define MSM_AFFINE_POINT_COST 0.7
#define MSM_AFFINE_REDUCE_EXTRA 0.2
/* BN254's endomorphism needs a lattice decomposition of the scalar (its λ
 * is not a small power of the curve's parameter), not built: plain
 * Pippenger. */
#define MSM_HAS_GLV 0

#include "msm/msm_impl.h"
