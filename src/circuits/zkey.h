#ifndef CUZK_CIRCUITS_ZKEY_H
#define CUZK_CIRCUITS_ZKEY_H

/* A snarkjs proving key (.zkey) as a circuit, following snarkjs's groth16
 * prove:
 *   a, b = A·w, B·w from the key's coefficient section, compiled once into
 *   the constraint system's sparse form (r1cs.h); c = a·b row by row;
 *   a·b − c evaluated on the odd coset of the 2n-th roots of unity (roots
 *   from 5, as ffjavascript builds them), paired with the H section
 *   undivided (the key's H points carry the 1/Z factor);
 *   Σc = Σ h_i·H_i + Σ_{i > nPublic} w_i·C_i.
 * The proof plan (groth16/plan.h) says this to every backend. Proofs verify
 * with snarkjs and with groth16_verify against the key. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "formats/zkey.h"
#include "groth16/assemble.h"
#include "groth16/keys.h"
#include "groth16/plan.h"
#include "poly/domain.h"
#include "r1cs/r1cs.h"
#include "util/rng.h"

/* A key decoded for proving and kept resident: the constraint system, the
 * five point sections, the domain and the plan over them. The zkey stays
 * mapped (borrowed). C lies right after H in one allocation
 * (c == h + domain_size), so the plan's H-and-C MSM is one run. */
typedef struct zkey_circuit {
    const zkey_t *zkey;
    r1cs_t cs; /* A and B; C has no entries (c = a·b) */
    g1_affine_t *a, *b1, *c, *h;
    g2_affine_t *b2;
    /* A, B1, B2 without their points at infinity: the bitmaps over the
     * variables mark those with a point (NULL: none was at infinity, every
     * variable has one), *_points count them. */
    uint64_t *a_density, *b1_density, *b2_density;
    uint64_t a_points, b1_points, b2_points;
    domain_t domain;
    groth16_plan plan;
} zkey_circuit_t;

/* Decodes z's sections with the given point check (FORMATS_CHECK_SUBGROUP
 * for keys from elsewhere) and compiles its coefficients. msg names the
 * section and entry or point on failure. */
cuzk_status zkey_circuit_init(zkey_circuit_t *c, const zkey_t *z, formats_check check,
                              unsigned threads, char *msg, size_t msg_len);
void zkey_circuit_free(zkey_circuit_t *c);

/* Bytes of host memory the circuit holds (points, matrices, domain). */
uint64_t zkey_circuit_bytes(const zkey_circuit_t *c);

/* a, b, c (three domain-sized vectors in abc) for the witness w
 * (zkey->num_vars values, w[0] = 1), on `threads` threads. */
void zkey_circuit_eval_abc(const zkey_circuit_t *c, const fr_t *w, fr_t *abc, unsigned threads);

/* Bytes of scratch one proof needs: three domain-sized Fr vectors. */
size_t zkey_circuit_scratch_bytes(const zkey_circuit_t *c);

/* Proves for the witness w (zkey->num_vars values, w[0] = 1, as a .wtns
 * holds them) with the blinding factors r, s given. */
cuzk_status zkey_circuit_prove_with(groth16_proof_t *proof, const zkey_circuit_t *c, const fr_t *w,
                                    const fr_t *r, const fr_t *s, void *scratch, unsigned threads);
/* Same, r and s drawn from rng (use a secure one). */
cuzk_status zkey_circuit_prove(groth16_proof_t *proof, const zkey_circuit_t *c, const fr_t *w,
                               rng_t *rng, void *scratch, unsigned threads);

#endif
