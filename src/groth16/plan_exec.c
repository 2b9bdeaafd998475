/* The CPU executor of proof plans (plan.h), plan_exec_impl.h compiled for
 * each curve; groth16_plan_sums picks the plan's. */
#include <string.h>

#include "curve/bn254_curve.h"
#include "curve/g1.h"
#include "curve/g2.h"
#include "field/scalar_slots.h"
#include "groth16/plan.h"
#include "msm/bn254_msm.h"
#include "msm/msm.h"
#include "poly/bn254_quotient.h"
#include "poly/quotient.h"
#include "util/parallel.h"

#define PX_(name) bls12_381_##name
#define PX_FR(name) fr_##name
#define PX_FR_T fr_t
#define PX_FR_ONE FR_ONE
#define PX_G1(name) g1_##name
#define PX_G2(name) g2_##name
#define PX_MSM_G1(suffix) msm_g1##suffix
#define PX_MSM_G2(suffix) msm_g2##suffix
#define PX_POLY(name) poly_##name
#define PX_DOMAIN_T domain_t
#define PX_DOMAIN(plan) ((plan)->domain)
#define PX_SUMS_T groth16_sums
#include "groth16/plan_exec_impl.h"

#define PX_(name) bn254_##name
#define PX_FR(name) bn254_fr_##name
#define PX_FR_T bn254_fr_t
#define PX_FR_ONE BN254_FR_ONE
#define PX_G1(name) bn254_g1_##name
#define PX_G2(name) bn254_g2_##name
#define PX_MSM_G1(suffix) bn254_msm_g1##suffix
#define PX_MSM_G2(suffix) bn254_msm_g2##suffix
#define PX_POLY(name) bn254_poly_##name
#define PX_DOMAIN_T bn254_domain_t
#define PX_DOMAIN(plan) ((plan)->bn254_domain)
#define PX_SUMS_T bn254_groth16_sums
#include "groth16/plan_exec_impl.h"

cuzk_status groth16_plan_sums(groth16_sums *sums, const groth16_plan *plan, const fr_t *w,
                              fr_t *abc, uint64_t rows, unsigned threads, groth16_step_fn step_fn,
                              void *step_ctx, proof_phase *failed)
{
    if (plan->curve == CURVE_BN254)
        return bn254_plan_sums(&sums->bn254, plan, bn254_fr_slots_const(w), bn254_fr_slots(abc),
                               rows, threads, step_fn, step_ctx, failed);
    return bls12_381_plan_sums(sums, plan, w, abc, rows, threads, step_fn, step_ctx, failed);
}
