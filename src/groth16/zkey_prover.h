#ifndef CUZK_GROTH16_ZKEY_PROVER_H
#define CUZK_GROTH16_ZKEY_PROVER_H

/* The Groth16 prover for snarkjs proving keys (.zkey), following snarkjs's
 * groth16 prove:
 *   a, b from the key's coefficient section, c = a·b row by row;
 *   a·b − c evaluated on the odd coset of the 2n-th roots of unity (roots
 *   from 5, as ffjavascript builds them), paired with the H section
 *   undivided (the key's H points carry the 1/Z factor);
 *   Σc = Σ h_i·H_i + Σ_{i > nPublic} w_i·C_i.
 * Proofs verify with snarkjs and with groth16_verify against the key. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "formats/zkey.h"
#include "groth16/assemble.h"
#include "groth16/keys.h"
#include "groth16/plan.h"
#include "poly/domain.h"
#include "util/rng.h"

/* A key decoded for proving and kept resident: the coefficients and the
 * five point sections, plus the domain. The zkey stays mapped (borrowed).
 * C lies right after H in one allocation (c == h + domain_size). */
typedef struct groth16_zkey_circuit {
    const zkey_t *zkey;
    zkey_coeff *coeffs; /* NULL from groth16_zkey_circuit_init_points */
    g1_affine_t *a, *b1, *c, *h;
    g2_affine_t *b2;
    domain_t domain;
    groth16_plan plan; /* over the sections above */
} groth16_zkey_circuit_t;

/* Decodes z's sections with the given point check (FORMATS_CHECK_SUBGROUP
 * for keys from elsewhere). msg names the section and point on failure. */
cuzk_status groth16_zkey_circuit_init(groth16_zkey_circuit_t *c, const zkey_t *z,
                                      formats_check check, unsigned threads, char *msg,
                                      size_t msg_len);
/* Same without the coefficients, for a caller that evaluates a, b, c
 * itself (the engine): its plan works, groth16_zkey_prove_with does not. */
cuzk_status groth16_zkey_circuit_init_points(groth16_zkey_circuit_t *c, const zkey_t *z,
                                             formats_check check, unsigned threads, char *msg,
                                             size_t msg_len);
void groth16_zkey_circuit_free(groth16_zkey_circuit_t *c);

/* Bytes of scratch one proof needs: three domain-sized Fr vectors. */
size_t groth16_zkey_scratch_bytes(const groth16_zkey_circuit_t *c);

/* Proves for the witness w (zkey->num_vars values, w[0] = 1, as a .wtns
 * holds them) with the blinding factors r, s given. */
cuzk_status groth16_zkey_prove_with(groth16_proof_t *proof, const groth16_zkey_circuit_t *c,
                                    const fr_t *w, const fr_t *r, const fr_t *s, void *scratch,
                                    unsigned threads);
/* Same, r and s drawn from rng (use a secure one). */
cuzk_status groth16_zkey_prove(groth16_proof_t *proof, const groth16_zkey_circuit_t *c,
                               const fr_t *w, rng_t *rng, void *scratch, unsigned threads);

#endif
