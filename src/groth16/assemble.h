#ifndef CUZK_GROTH16_ASSEMBLE_H
#define CUZK_GROTH16_ASSEMBLE_H

/* The last step every Groth16 prover shares, whatever computed the MSMs
 * (bellman- or snarkjs-shaped keys, CPU or GPU backend):
 *   A = α + Σa + r·δ
 *   B = β + Σb + s·δ                  (G2, and its G1 twin B1)
 *   C = Σc + s·A + r·B1 − r·s·δ
 * where Σc is everything of C not involving r, s: the H and L queries
 * (bellman) or the H and C sections (snarkjs). Groth 2016, section 3.2. */

#include "field/fr.h"
#include "groth16/keys.h"

typedef struct groth16_sums {
    g1_jac_t a;  /* Σ w_i·A_i */
    g2_jac_t b;  /* Σ w_i·B_i in G2 */
    g1_jac_t b1; /* Σ w_i·B_i in G1 */
    g1_jac_t c;  /* Σ h_i·H_i + Σ w_j·L_j */
} groth16_sums;

void groth16_assemble(groth16_proof_t *proof, const groth16_vk_t *vk, const groth16_sums *sums,
                      const fr_t *r, const fr_t *s);

#endif
