#ifndef CUZK_GROTH16_SETUP_COMMON_H
#define CUZK_GROTH16_SETUP_COMMON_H

/* Pieces shared by the two development setups: bellman's layout
 * (setup.c) and snarkjs's (zkey_setup.c). Internal to src/groth16. */

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "field/fr.h"
#include "groth16/keys.h"
#include "groth16/setup.h"
#include "r1cs/r1cs.h"
#include "util/rng.h"

/* Calls opts->progress about every 200 ms from a thread of its own while
 * the points are made; workers add to `done`. */
typedef struct setup_monitor {
    pthread_t thread;
    int running;
    pthread_mutex_t lock; /* with wake: stop ends the wait at once */
    pthread_cond_t wake;
    int stop;
    atomic_uint_fast64_t done;
    uint64_t total;
    groth16_progress_fn fn;
    void *ctx;
} setup_monitor;

void setup_monitor_start(setup_monitor *m, const groth16_setup_opts *opts, uint64_t total);
/* Stops the thread and reports once more (the final count). */
void setup_monitor_stop(setup_monitor *m);

/* A uniformly random nonzero element. */
void setup_random_nonzero(fr_t *x, rng_t *rng);

/* col[j] += Σ_i M[i][j] · lagrange[i] over the rows of r: the column
 * polynomials of matrix m at τ, lagrange holding L_i(τ). */
void setup_column_polys(fr_t *col, const r1cs_t *r, const r1cs_matrix *m, const fr_t *lagrange);

/* out[j] = (β·u[j] + α·v[j] + w[j]) · factor for j < count: the IC and
 * L/C scalars (Groth 2016, §3.2: the public part over γ, the private part
 * over δ). */
void setup_ic_like(fr_t *out, const fr_t *u, const fr_t *v, const fr_t *w, uint64_t count,
                   const fr_t *alpha, const fr_t *beta, const fr_t *factor);

/* vk's α1, β1, β2, γ2, δ1, δ2 (not IC) from the toxic waste. */
void setup_vk_points(groth16_vk_t *vk, const fr_t *alpha, const fr_t *beta, const fr_t *gamma,
                     const fr_t *delta);

#endif
