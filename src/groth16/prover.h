#ifndef CUZK_GROTH16_PROVER_H
#define CUZK_GROTH16_PROVER_H

/* The Groth16 prover on the CPU backend (bellman's create_proof):
 *   a, b, c = A·w, B·w, C·w               (r1cs_eval)
 *   h       = (a·b − c)/Z on the coset 7  (poly_compute_h)
 *   A = α + Σ w_i·a_i + r·δ                     in G1
 *   B = β + Σ w_i·b_i + s·δ                     in G2 (and in G1 for C)
 *   C = s·A + r·B_G1 − r·s·δ + Σ h_i·H_i + Σ w_j·L_j
 * (Groth 2016, section 3.2). It is the reference every other backend is
 * checked against, and the fallback without a GPU. */

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/status.h"
#include "field/fr.h"
#include "groth16/assemble.h"
#include "groth16/keys.h"
#include "groth16/phase.h"
#include "groth16/plan.h"
#include "poly/domain.h"
#include "r1cs/density.h"
#include "r1cs/r1cs.h"
#include "util/rng.h"

/* What stays resident per circuit: the constraint system, its density
 * bitmaps and evaluation domain, the parameters (borrowed), and the proof
 * plan over them. */
typedef struct groth16_circuit {
    const r1cs_t *r1cs;
    const groth16_params_t *params;
    r1cs_density_t density;
    domain_t domain;
    groth16_plan plan;
} groth16_circuit_t;

/* Checks that params fit r (query sizes against the density bitmaps) and
 * builds the domain. On failure msg says which count disagrees. */
cuzk_status groth16_circuit_init(groth16_circuit_t *c, const r1cs_t *r,
                                 const groth16_params_t *params, unsigned threads, char *msg,
                                 size_t msg_len);
void groth16_circuit_free(groth16_circuit_t *c);

/* a_i·b_i = c_i for all i < m: the exact satisfaction check on evaluated
 * a, b, c (one multiplication a row), on `threads` threads. */
bool groth16_rows_satisfied(const fr_t *a, const fr_t *b, const fr_t *c, size_t m,
                            unsigned threads);
/* The same in the scalar field of curve (values in fr_t slots,
 * field/scalar_slots.h). */
bool groth16_rows_satisfied_over(curve_id curve, const fr_t *a, const fr_t *b, const fr_t *c,
                                 size_t m, unsigned threads);

/* Bytes of scratch one proof needs: three n-element Fr vectors. */
size_t groth16_prover_scratch_bytes(const groth16_circuit_t *c);

/* Where one proof's time went, in seconds per phase (filled when a pointer
 * is given). */
typedef struct groth16_timings {
    double seconds[PHASE_COUNT];
} groth16_timings;

/* Proves for the full assignment w (r1cs_num_vars entries, w[0] = 1) with
 * the blinding factors r and s given (tests compare backends with the same
 * r, s). scratch has groth16_prover_scratch_bytes() bytes, aligned for fr_t.
 * Returns CUZK_ERR_UNSATISFIED, before any MSM, when some row has
 * (A·w)·(B·w) ≠ C·w (r1cs_is_satisfied finds which). */
cuzk_status groth16_prove_with(groth16_proof_t *proof, const groth16_circuit_t *c, const fr_t *w,
                               const fr_t *r, const fr_t *s, void *scratch, unsigned threads,
                               groth16_timings *times);

/* Same, drawing r and s from rng (use a secure one). */
cuzk_status groth16_prove(groth16_proof_t *proof, const groth16_circuit_t *c, const fr_t *w,
                          rng_t *rng, void *scratch, unsigned threads, groth16_timings *times);

#endif
