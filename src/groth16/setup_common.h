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
 * polynomials of matrix m at τ, lagrange holding L_i(τ). On `threads`
 * threads, each owning a range of the aux columns (it scans every row and
 * sums the entries of its columns, so no two threads write one sum) and a
 * block of rows for the input columns (ONE is in about a third of B's rows:
 * one owner would do that third alone); the inputs' partial sums are added
 * at the end. Field addition is exact, so the result does not depend on
 * the thread count. */
void setup_column_polys(fr_t *col, const r1cs_t *r, const r1cs_matrix *m, const fr_t *lagrange,
                        unsigned threads);

/* out[j] = (β·u[j] + α·v[j] + w[j]) · factor for j < count: the IC and
 * L/C scalars (Groth 2016, §3.2: the public part over γ, the private part
 * over δ). On `threads` threads. */
void setup_ic_like(fr_t *out, const fr_t *u, const fr_t *v, const fr_t *w, uint64_t count,
                   const fr_t *alpha, const fr_t *beta, const fr_t *factor, unsigned threads);

/* out[i] = first · step^i for i < count, on `threads` threads (each chunk
 * starts from first · step^begin). */
void setup_powers(fr_t *out, const fr_t *first, const fr_t *step, uint64_t count, unsigned threads);

/* Appends src[j] for every j < count whose bit is set in bits (NULL: every
 * j) to out, in order; returns how many. On `threads` threads. */
uint64_t setup_select(fr_t *out, const fr_t *src, const uint64_t *bits, uint64_t count,
                      unsigned threads);

/* cuzk_wipe over n elements, on `threads` threads. */
void setup_wipe(fr_t *p, uint64_t n, unsigned threads);

/* vk's α1, β1, β2, γ2, δ1, δ2 (not IC) from the toxic waste. */
void setup_vk_points(groth16_vk_t *vk, const fr_t *alpha, const fr_t *beta, const fr_t *gamma,
                     const fr_t *delta);

#endif
