#ifndef CUZK_GROTH16_SETUP_H
#define CUZK_GROTH16_SETUP_H

/* Development setup: Groth16 parameters from random toxic waste
 * (τ, α, β, γ, δ), following bellman's generate_parameters.
 *
 * NOT FOR PRODUCTION. Whoever runs it knows the toxic waste while it runs
 * and could forge proofs; real deployments use parameters from a
 * multi-party ceremony (a bellman params file or a snarkjs zkey). The toxic
 * waste is wiped before returning. */

#include <stdint.h>

#include "cuzk/status.h"
#include "groth16/keys.h"
#include "r1cs/r1cs.h"
#include "util/rng.h"

/* Called about every 200 ms from a monitor thread while points are made. */
typedef void (*groth16_progress_fn)(void *ctx, uint64_t done, uint64_t total);

typedef struct groth16_setup_opts {
    unsigned threads; /* 0: all CPUs */
    groth16_progress_fn progress; /* may be NULL */
    void *progress_ctx;
} groth16_setup_opts;

/* Makes parameters for r (which should include bellman's input rows, see
 * r1cs_builder_enforce_input_rows), drawing the toxic waste from rng (use a
 * secure one: rng_seed_secure). On success *out owns its arrays
 * (groth16_params_free). */
cuzk_status groth16_setup_dev(groth16_params_t *out, const r1cs_t *r, rng_t *rng,
                              const groth16_setup_opts *opts);

#endif
