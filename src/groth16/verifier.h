#ifndef CUZK_GROTH16_VERIFIER_H
#define CUZK_GROTH16_VERIFIER_H

/* Groth16 verification: e(A, B) = e(α, β) · e(Σ x_i·IC_i, γ) · e(C, δ)
 * (Groth, "On the Size of Pairing-based Non-interactive Arguments", 2016,
 * section 3.2), checked as one multi-pairing against the prepared key. */

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/status.h"
#include "field/fr.h"
#include "groth16/keys.h"
#include "util/rng.h"

/* Prepares vk: e(α, β), the lines of −γ and −δ, a copy of IC. */
cuzk_status groth16_prepare_vk(groth16_pvk_t *pvk, const groth16_vk_t *vk);
void groth16_pvk_free(groth16_pvk_t *pvk);

/* Verifies one proof for the public inputs (ONE excluded: num_inputs must
 * be pvk->num_ic − 1). Returns CUZK_OK, CUZK_ERR_VERIFY_FAILED, or
 * CUZK_ERR_INVALID_ARGUMENT for a wrong input count. The proof's points are
 * trusted to be in their subgroups (the decoders check that). */
cuzk_status groth16_verify(const groth16_pvk_t *pvk, const groth16_proof_t *proof,
                           const fr_t *inputs, size_t num_inputs);

/* Verifies n proofs at once by a random linear combination (one
 * multi-pairing of n + 2 pairs and one final exponentiation); inputs holds
 * n rows of num_inputs values. rng must be secure: predictable coefficients
 * would let a forger cancel a bad proof against another. CUZK_OK means all
 * verify; CUZK_ERR_VERIFY_FAILED means at least one does not. */
cuzk_status groth16_verify_batch(const groth16_pvk_t *pvk, const groth16_proof_t *proofs,
                                 const fr_t *inputs, size_t num_inputs, size_t n, rng_t *rng);

#endif
