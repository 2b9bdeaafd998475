/* Groth16 verification over BN254 (bn254_groth16.h). */
#include <stdlib.h>
#include <string.h>

#include "groth16/bn254_groth16.h"
#include "msm/bn254_msm.h"
#include "pairing/bn254_pairing.h"

void bn254_groth16_vk_free(bn254_groth16_vk_t *vk)
{
    free(vk->ic);
    vk->ic = NULL;
    vk->num_ic = 0;
}

cuzk_status bn254_groth16_verify(const bn254_groth16_vk_t *vk, const bn254_groth16_proof_t *proof,
                                 const bn254_fr_t *inputs, size_t num_inputs)
{
    if (vk->num_ic < 1 || num_inputs + 1 != vk->num_ic)
        return CUZK_ERR_INVALID_ARGUMENT;
    /* vk_x = IC_0 + Σ x_i·IC_{i+1}: public inputs, so the MSM's variable
     * time is fine. */
    bn254_g1_jac_t sum, ic0;
    cuzk_status st = bn254_msm_g1(&sum, vk->ic + 1, inputs, num_inputs, 1);
    if (st != CUZK_OK)
        return st;
    bn254_g1_jac_from_affine(&ic0, &vk->ic[0]);
    bn254_g1_jac_add_var(&sum, &sum, &ic0);
    /* e(A, B) · e(−α, β) · e(−vk_x, γ) · e(−C, δ) = 1. */
    bn254_g1_affine_t ps[4];
    bn254_g2_affine_t qs[4] = {proof->b, vk->beta_g2, vk->gamma_g2, vk->delta_g2};
    ps[0] = proof->a;
    bn254_g1_affine_neg(&ps[1], &vk->alpha_g1);
    bn254_g1_jac_to_affine(&ps[2], &sum);
    bn254_g1_affine_neg(&ps[2], &ps[2]);
    bn254_g1_affine_neg(&ps[3], &proof->c);
    return bn254_pairing_product_is_one(ps, qs, 4) ? CUZK_OK : CUZK_ERR_VERIFY_FAILED;
}
