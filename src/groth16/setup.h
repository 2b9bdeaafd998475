#ifndef CUZK_GROTH16_SETUP_H
#define CUZK_GROTH16_SETUP_H

/* Development setup: Groth16 parameters from random toxic waste
 * (τ, α, β, γ, δ), following bellman's generate_parameters.
 *
 * NOT FOR PRODUCTION. Whoever runs it knows the toxic waste while it runs
 * and could forge proofs; real deployments use parameters from a
 * multi-party ceremony (a bellman params file or a snarkjs zkey). The toxic
 * waste is wiped before returning. */

#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "groth16/keys.h"
#include "r1cs/r1cs.h"
#include "util/rng.h"

/* Called about every 200 ms from a monitor thread while points are made. */
typedef void (*groth16_progress_fn)(void *ctx, uint64_t done, uint64_t total);

/* Batch fixed-base products done elsewhere (a GPU): out[i] = scalars[i]·G
 * for i < n, G the group's generator (G1_GENERATOR, G2_GENERATOR), the
 * results affine and exactly what g1/g2_fixed_base_mul_batch give. On
 * failure they return a status and say why in msg. This layer knows no
 * device: the caller passes these in (the engine takes them from its
 * backend, backend/backend.h). */
typedef cuzk_status (*groth16_fixed_base_g1_fn)(void *ctx, g1_affine_t *out, const fr_t *scalars,
                                                size_t n, char *msg, size_t msg_len);
typedef cuzk_status (*groth16_fixed_base_g2_fn)(void *ctx, g2_affine_t *out, const fr_t *scalars,
                                                size_t n, char *msg, size_t msg_len);

typedef struct groth16_fixed_base_ops {
    groth16_fixed_base_g1_fn g1; /* NULL: the CPU's */
    groth16_fixed_base_g2_fn g2; /* NULL: the CPU's */
    void *ctx;
} groth16_fixed_base_ops;

/* Where a setup's time went (seconds). */
typedef struct groth16_setup_times {
    double domain;   /* domain and density bitmaps */
    double lagrange; /* L_i(τ) */
    double columns;  /* u, v, w at τ (the sparse column sums) */
    double scalars;  /* the IC, L, H, A, B scalars */
    double tables;   /* the CPU's fixed-base tables */
    double points;   /* the fixed-base products */
} groth16_setup_times;

typedef struct groth16_setup_opts {
    unsigned threads;             /* 0: all CPUs */
    groth16_progress_fn progress; /* may be NULL */
    void *progress_ctx;
    const groth16_fixed_base_ops *fixed_base; /* NULL: every product on the CPU */
    /* Seconds per phase, when not NULL (measurements, the bench): wall
     * clock, and the process's CPU time (all its threads: the work, apart
     * from other processes' load on a shared machine). */
    groth16_setup_times *times;
    groth16_setup_times *cpu_times;
    char *msg; /* when not NULL: why a fixed-base callback failed */
    size_t msg_len;
} groth16_setup_opts;

/* Makes parameters for r (which should include bellman's input rows, see
 * r1cs_builder_enforce_input_rows), drawing the toxic waste from rng (use a
 * secure one: rng_seed_secure; or rng_seed_chacha for development
 * parameters that a seed reproduces). The same rng state gives the same
 * parameters whatever the thread count and wherever the fixed-base
 * products run. On success *out owns its arrays (groth16_params_free). */
cuzk_status groth16_setup_dev(groth16_params_t *out, const r1cs_t *r, rng_t *rng,
                              const groth16_setup_opts *opts);

#endif
