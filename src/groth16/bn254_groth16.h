#ifndef CUZK_GROTH16_BN254_GROTH16_H
#define CUZK_GROTH16_BN254_GROTH16_H

/* Groth16 keys, proofs and verification over BN254 (circom's and snarkjs's
 * "bn128"): the verifying key and proof of keys_decl.h with BN254's groups,
 * and the check e(A, B) = e(α, β) · e(Σ x_i·IC_i, γ) · e(C, δ) (Groth,
 * "On the Size of Pairing-based Non-interactive Arguments", 2016, section
 * 3.2) as one product of four pairings, the verification equation of
 * snarkjs's groth16 verify. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "curve/bn254_curve.h"
#include "field/bn254_fr.h"

#define KD_(name) bn254_groth16_##name
#define KD_G1 bn254_g1_affine_t
#define KD_G2 bn254_g2_affine_t
#include "groth16/keys_decl.h"

/* Frees vk->ic (safe on a zeroed key). */
void bn254_groth16_vk_free(bn254_groth16_vk_t *vk);

/* Verifies one proof for the public inputs (ONE excluded: num_inputs must
 * be vk->num_ic − 1). Returns CUZK_OK, CUZK_ERR_VERIFY_FAILED, or
 * CUZK_ERR_INVALID_ARGUMENT for a wrong input count. The points are trusted
 * to be in their subgroups (the readers check that). */
cuzk_status bn254_groth16_verify(const bn254_groth16_vk_t *vk, const bn254_groth16_proof_t *proof,
                                 const bn254_fr_t *inputs, size_t num_inputs);

#endif
