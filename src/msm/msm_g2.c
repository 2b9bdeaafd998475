/* MSM over G2: the template msm_impl.h instantiated with the G2 types. */
#include "msm/msm.h"

#define MSM_G(name) g2_##name
#define MSM_F(suffix) msm_g2##suffix
#define MSM_AFF g2_affine_t
#define MSM_JAC g2_jac_t
#define MSM_XYZZ g2_xyzz_t
#define MSM_FE(name) fp2_##name
#define MSM_FE_T fp2_t
#define MSM_BASE(name) fp_##name
#define MSM_BASE_T fp_t
#define MSM_BASE_ONE FP_ONE
/* Over Fp2 the batch inverts norms in Fp (msm_impl.h). */
#define MSM_FE_HAS_NORM 1
#define MSM_SC(name) fr_##name
#define MSM_SC_T fr_t
#define MSM_SC_ONE FR_ONE
#define MSM_SC_MODULUS FR_MODULUS
/* add-2008-s (12M + 2S) over madd-2008-s (8M + 2S) in Fp2, as timed. */
#define MSM_ADD_RATIO 1.38
#define MSM_AFFINE_MIN_POINTS MSM_G2_AFFINE_MIN_POINTS
/* A batched affine addition over a mixed XYZZ one (15 Fp products against 28 for madd-2008-s over
 * Fp2), as timed by the window it makes the plan pick. */
#define MSM_AFFINE_POINT_COST 0.55
/* The affine reduction beyond its two additions a bucket (its smaller
 * batches' inversions, the segments' sums), as timed by the window. */
#define MSM_AFFINE_REDUCE_EXTRA 0.2

#define MSM_HAS_GLV 1
/* The endomorphism split: [x²]Q = ψ²(Q) = (β²·x, −y) on G2, β² the other
 * cube root of unity,
 * 0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaac
 * (Montgomery form below), multiplying both Fp coordinates of x. */
static const fp_t G2_MSM_BETA = {{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL,
                                  0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL,
                                  0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}};

static inline void g2_msm_mul_beta(fp2_t *r, const fp2_t *a)
{
    fp_mul(&r->c0, &a->c0, &G2_MSM_BETA);
    fp_mul(&r->c1, &a->c1, &G2_MSM_BETA);
}
#define MSM_GLV_MUL_BETA(r, a) g2_msm_mul_beta(r, a)
/* Two Fp products and the scalar's division, over a mixed XYZZ addition. */
#define MSM_GLV_POINT_COST 0.1

#include "msm/msm_impl.h"
