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
} groth16_zkey_circuit_t;

/* Decodes z's sections with the given point check (FORMATS_CHECK_SUBGROUP
 * for keys from elsewhere). msg names the section and point on failure. */
cuzk_status groth16_zkey_circuit_init(groth16_zkey_circuit_t *c, const zkey_t *z,
                                      formats_check check, unsigned threads, char *msg,
                                      size_t msg_len);
/* Same without the coefficients, for a caller that evaluates a, b, c
 * itself (the engine's CPU backend): only groth16_zkey_msm_sums with the
 * rows given works on it. */
cuzk_status groth16_zkey_circuit_init_points(groth16_zkey_circuit_t *c, const zkey_t *z,
                                             formats_check check, unsigned threads, char *msg,
                                             size_t msg_len);
void groth16_zkey_circuit_free(groth16_zkey_circuit_t *c);

/* Bytes of scratch one proof needs (three domain-sized Fr vectors, or
 * one and the C section's scalars when those are more). */
size_t groth16_zkey_scratch_bytes(const groth16_zkey_circuit_t *c);

/* The steps of groth16_zkey_msm_sums, for timing: the quotient (a, b, c
 * evaluated on the coset, after evaluating a, b, c from the coefficients
 * when asked), then the MSM over H and C (one MSM), A, B1 and B2. */
typedef enum groth16_zkey_step {
    GROTH16_ZKEY_STEP_H = 0,
    GROTH16_ZKEY_STEP_MSM_HC,
    GROTH16_ZKEY_STEP_MSM_A,
    GROTH16_ZKEY_STEP_MSM_B1,
    GROTH16_ZKEY_STEP_MSM_B2,
    GROTH16_ZKEY_STEP_COUNT
} groth16_zkey_step;
/* Called as a step starts (end false) and as it ends (end true), from the
 * thread that runs it: with two threads or more, steps of the two groups
 * run at the same time, so calls come from two threads at once. */
typedef void (*groth16_zkey_step_fn)(void *ctx, groth16_zkey_step step, bool end);

/* rows for groth16_zkey_msm_sums: evaluate a, b, c from the coefficients. */
#define GROTH16_ZKEY_EVAL_ABC UINT64_MAX

/* The MSM sums of one proof for the witness w: the sequence of
 * groth16_zkey_prove_with before the assembly. scratch has
 * groth16_zkey_scratch_bytes; with rows = GROTH16_ZKEY_EVAL_ABC a, b, c are
 * evaluated there from the coefficients, otherwise it already holds them
 * (three domain-sized vectors, rows <= domain size of each evaluated, the
 * rest ignored). step may be NULL; on failure *failed (when not NULL) says
 * which step failed. */
cuzk_status groth16_zkey_msm_sums(groth16_sums *sums, const groth16_zkey_circuit_t *c,
                                  const fr_t *w, fr_t *scratch, uint64_t rows, unsigned threads,
                                  groth16_zkey_step_fn step, void *step_ctx,
                                  groth16_zkey_step *failed);

/* Proves for the witness w (zkey->num_vars values, w[0] = 1, as a .wtns
 * holds them) with the blinding factors r, s given. */
cuzk_status groth16_zkey_prove_with(groth16_proof_t *proof, const groth16_zkey_circuit_t *c,
                                    const fr_t *w, const fr_t *r, const fr_t *s, void *scratch,
                                    unsigned threads);
/* Same, r and s drawn from rng (use a secure one). */
cuzk_status groth16_zkey_prove(groth16_proof_t *proof, const groth16_zkey_circuit_t *c,
                               const fr_t *w, rng_t *rng, void *scratch, unsigned threads);

#endif
