#ifndef CUZK_GROTH16_KEYS_H
#define CUZK_GROTH16_KEYS_H

/* Groth16 keys and proofs over BLS12-381, in the shape of bellman's
 * Parameters / VerifyingKey / Proof (the layout Filecoin's parameter files
 * use; src/formats/ reads and writes them).
 *
 * Query layout (bellman's generate_parameters and prover):
 *   ic[i]    = (β·u_i(τ) + α·v_i(τ) + w_i(τ)) / γ · G1   for each input i (ONE included)
 *   l[j]     = (β·u_j(τ) + α·v_j(τ) + w_j(τ)) / δ · G1   for each aux variable j
 *   h[i]     = τ^i · (τ^n − 1) / δ · G1                  for i < n − 1
 *   a[k]     = u(τ)·G1 for every input, then for each aux variable in A's density
 *   b_g1[k]  = v(τ)·G1, b_g2[k] = v(τ)·G2 for the inputs, then the aux
 *              variables, in B's density (r1cs/density.h)
 * where u, v, w are the A, B, C column polynomials over the domain. */

#include <stddef.h>
#include <stdint.h>

#include "curve/g1.h"
#include "curve/g2.h"
#include "pairing/pairing.h"

#define KD_(name) groth16_##name
#define KD_G1 g1_affine_t
#define KD_G2 g2_affine_t
#include "groth16/keys_decl.h"

typedef struct groth16_params {
    groth16_vk_t vk;
    g1_affine_t *h;
    size_t num_h;
    g1_affine_t *l;
    size_t num_l;
    g1_affine_t *a;
    size_t num_a;
    g1_affine_t *b_g1;
    size_t num_b_g1;
    g2_affine_t *b_g2;
    size_t num_b_g2;
} groth16_params_t;

#define GROTH16_PROOF_BYTES 192 /* compressed A (48), B (96), C (48) */

/* The verifying key with G2 lines precomputed and e(α, β) computed once. */
typedef struct groth16_pvk {
    fp12_t alpha_beta;       /* e(α, β) */
    g2_prepared_t neg_gamma; /* lines of −γ */
    g2_prepared_t neg_delta; /* lines of −δ */
    g1_affine_t *ic;
    size_t num_ic;
} groth16_pvk_t;

/* Whether every point of the key is in its order-r subgroup (the points
 * on their curves already: the decoder's check). */
bool groth16_vk_in_subgroup(const groth16_vk_t *vk);

/* Whether two keys are the same points, IC included. */
bool groth16_vk_eq(const groth16_vk_t *a, const groth16_vk_t *b);

/* Frees the arrays (safe on zeroed structures). */
void groth16_vk_free(groth16_vk_t *vk);
void groth16_params_free(groth16_params_t *params);

#endif
