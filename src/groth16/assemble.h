#ifndef CUZK_GROTH16_ASSEMBLE_H
#define CUZK_GROTH16_ASSEMBLE_H

/* The last step every Groth16 prover shares, whatever computed the MSMs
 * (bellman- or snarkjs-shaped keys, CPU or GPU backend):
 *   A = α + Σa + r·δ
 *   B = β + Σb + s·δ                  (G2, and its G1 twin B1)
 *   C = Σc + s·A + r·B1 − r·s·δ
 * where Σc is everything of C not involving r, s: the H and L queries
 * (bellman) or the H and C sections (snarkjs). Groth 2016, section 3.2.
 * The same code for both curves (assemble_impl.h). */

#include "field/bn254_fr.h"
#include "field/fr.h"
#include "groth16/bn254_groth16.h"
#include "groth16/keys.h"

/* The sums of a BN254 proof plan. */
typedef struct bn254_groth16_sums {
    bn254_g1_jac_t a, b1, c;
    bn254_g2_jac_t b;
} bn254_groth16_sums;

/* The MSM sums of one partition, on the curve of the plan that made them
 * (groth16_plan.curve): a, b, b1, c for BLS12-381, bn254 for BN254. */
typedef struct groth16_sums {
    union {
        struct {
            g1_jac_t a;  /* Σ w_i·A_i */
            g2_jac_t b;  /* Σ w_i·B_i in G2 */
            g1_jac_t b1; /* Σ w_i·B_i in G1 */
            g1_jac_t c;  /* Σ h_i·H_i + Σ w_j·L_j */
        };
        bn254_groth16_sums bn254;
    };
} groth16_sums;

void groth16_assemble(groth16_proof_t *proof, const groth16_vk_t *vk, const groth16_sums *sums,
                      const fr_t *r, const fr_t *s);
void bn254_groth16_assemble(bn254_groth16_proof_t *proof, const bn254_groth16_vk_t *vk,
                            const bn254_groth16_sums *sums, const bn254_fr_t *r,
                            const bn254_fr_t *s);

#endif
