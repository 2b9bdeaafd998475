/* MSM over G2: the template msm_impl.h instantiated with the G2 types. */
#include "msm/msm.h"

#define MSM_G(name) g2_##name
#define MSM_F(suffix) msm_g2##suffix
#define MSM_AFF g2_affine_t
#define MSM_JAC g2_jac_t
#define MSM_XYZZ g2_xyzz_t
#define MSM_FE(name) fp2_##name
#define MSM_FE_T fp2_t
#define MSM_FE_ONE FP2_ONE
/* add-2008-s (12M + 2S) over madd-2008-s (8M + 2S) in Fp2, as timed. */
#define MSM_ADD_RATIO 1.38
#define MSM_AFFINE_MIN_POINTS MSM_G2_AFFINE_MIN_POINTS

#include "msm/msm_impl.h"
