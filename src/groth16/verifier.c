#include "groth16/verifier.h"

#include <stdlib.h>
#include <string.h>

cuzk_status groth16_prepare_vk(groth16_pvk_t *pvk, const groth16_vk_t *vk)
{
    memset(pvk, 0, sizeof(*pvk));
    if (vk->num_ic < 1)
        return CUZK_ERR_INVALID_ARGUMENT;
    pvk->ic = malloc(sizeof(g1_affine_t) * vk->num_ic);
    if (!pvk->ic)
        return CUZK_ERR_OUT_OF_MEMORY;
    memcpy(pvk->ic, vk->ic, sizeof(g1_affine_t) * vk->num_ic);
    pvk->num_ic = vk->num_ic;
    pairing(&pvk->alpha_beta, &vk->alpha_g1, &vk->beta_g2);
    g2_affine_t neg;
    g2_affine_neg(&neg, &vk->gamma_g2);
    g2_prepare(&pvk->neg_gamma, &neg);
    g2_affine_neg(&neg, &vk->delta_g2);
    g2_prepare(&pvk->neg_delta, &neg);
    return CUZK_OK;
}

void groth16_pvk_free(groth16_pvk_t *pvk)
{
    free(pvk->ic);
    memset(pvk, 0, sizeof(*pvk));
}

/* acc = IC_0 + Σ inputs[i]·IC_{i+1} (public inputs: variable time is fine). */
static void input_combination(g1_jac_t *acc, const groth16_pvk_t *pvk, const fr_t *inputs,
                              size_t num_inputs)
{
    g1_jac_from_affine(acc, &pvk->ic[0]);
    for (size_t i = 0; i < num_inputs; i++) {
        uint64_t k[4];
        g1_jac_t t;
        fr_to_raw(k, &inputs[i]);
        g1_jac_from_affine(&t, &pvk->ic[i + 1]);
        g1_jac_mul_var(&t, &t, k);
        g1_jac_add(acc, acc, &t);
    }
}

/* e(A, B) · e(acc, −γ) · e(C, −δ) == e(α, β)^k, k = 1 for one proof or Σz
 * for a batch (alpha_beta passed already raised). */
static bool check(const groth16_pvk_t *pvk, const g1_affine_t *as, const g2_affine_t *bs,
                  size_t n, const g1_affine_t *acc, const g1_affine_t *c, const fp12_t *expect)
{
    fp12_t f, f2;
    multi_miller_loop(&f, as, bs, n);
    g1_affine_t ps[2] = {*acc, *c};
    const g2_prepared_t *qs[2] = {&pvk->neg_gamma, &pvk->neg_delta};
    multi_miller_loop_prepared(&f2, ps, qs, 2);
    fp12_mul(&f, &f, &f2);
    final_exp(&f, &f);
    return fp12_eq(&f, expect);
}

cuzk_status groth16_verify(const groth16_pvk_t *pvk, const groth16_proof_t *proof,
                           const fr_t *inputs, size_t num_inputs)
{
    if (num_inputs + 1 != pvk->num_ic)
        return CUZK_ERR_INVALID_ARGUMENT;
    g1_jac_t acc;
    g1_affine_t acc_aff;
    input_combination(&acc, pvk, inputs, num_inputs);
    g1_jac_to_affine(&acc_aff, &acc);
    return check(pvk, &proof->a, &proof->b, 1, &acc_aff, &proof->c, &pvk->alpha_beta)
               ? CUZK_OK
               : CUZK_ERR_VERIFY_FAILED;
}

cuzk_status groth16_verify_batch(const groth16_pvk_t *pvk, const groth16_proof_t *proofs,
                                 const fr_t *inputs, size_t num_inputs, size_t n, rng_t *rng)
{
    if (num_inputs + 1 != pvk->num_ic)
        return CUZK_ERR_INVALID_ARGUMENT;
    if (n == 0)
        return CUZK_OK;
    g1_affine_t *as = malloc(sizeof(g1_affine_t) * n);
    g2_affine_t *bs = malloc(sizeof(g2_affine_t) * n);
    if (!as || !bs) {
        free(as);
        free(bs);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    /* z_i: random 128-bit coefficients (Bellare-Garay-Rabin small exponents). */
    g1_jac_t acc_sum, c_sum;
    g1_jac_set_infinity(&acc_sum);
    g1_jac_set_infinity(&c_sum);
    uint64_t z_sum[3] = {0, 0, 0}; /* Σ z_i < n·2^128 fits in 192 bits */
    for (size_t i = 0; i < n; i++) {
        uint64_t z[4] = {rng_u64(rng), rng_u64(rng), 0, 0};
        if (!z[0] && !z[1])
            z[0] = 1;
        g1_jac_t t;
        g1_jac_from_affine(&t, &proofs[i].a);
        g1_jac_mul_var(&t, &t, z);
        g1_jac_to_affine(&as[i], &t);
        bs[i] = proofs[i].b;
        input_combination(&t, pvk, inputs + i * num_inputs, num_inputs);
        g1_jac_mul_var(&t, &t, z);
        g1_jac_add(&acc_sum, &acc_sum, &t);
        g1_jac_from_affine(&t, &proofs[i].c);
        g1_jac_mul_var(&t, &t, z);
        g1_jac_add(&c_sum, &c_sum, &t);
        unsigned __int128 s0 = (unsigned __int128)z_sum[0] + z[0];
        unsigned __int128 s1 = (unsigned __int128)z_sum[1] + z[1] + (uint64_t)(s0 >> 64);
        z_sum[0] = (uint64_t)s0;
        z_sum[1] = (uint64_t)s1;
        z_sum[2] += (uint64_t)(s1 >> 64);
    }
    g1_affine_t acc_aff, c_aff;
    g1_jac_to_affine(&acc_aff, &acc_sum);
    g1_jac_to_affine(&c_aff, &c_sum);
    fp12_t expect;
    fp12_cyclotomic_pow_var(&expect, &pvk->alpha_beta, z_sum, 3);
    bool ok = check(pvk, as, bs, n, &acc_aff, &c_aff, &expect);
    free(as);
    free(bs);
    return ok ? CUZK_OK : CUZK_ERR_VERIFY_FAILED;
}
