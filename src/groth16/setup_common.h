#ifndef CUZK_GROTH16_SETUP_COMMON_H
#define CUZK_GROTH16_SETUP_COMMON_H

/* Pieces shared by the two development setups: bellman's layout
 * (setup.c) and snarkjs's (zkey_setup.c). Internal to src/groth16. */

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "field/bn254_fr.h"
#include "field/fr.h"
#include "groth16/bn254_groth16.h"
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

/* out[i] = first · step^i for i < count, on `threads` threads (each chunk
 * starts from first · step^begin). */
void setup_powers(fr_t *out, const fr_t *first, const fr_t *step, uint64_t count, unsigned threads);

/* Appends src[j] for every j < count whose bit is set in bits (NULL: every
 * j) to out, in order; returns how many. On `threads` threads. */
uint64_t setup_select(fr_t *out, const fr_t *src, const uint64_t *bits, uint64_t count,
                      unsigned threads);

/* cuzk_wipe over n elements, on `threads` threads. */
void setup_wipe(fr_t *p, uint64_t n, unsigned threads);

#define SD_(name) setup_##name
#define SD_FE_T fr_t
#define SD_VK_T groth16_vk_t
#include "groth16/setup_common_decl.h"

#define SD_(name) bn254_setup_##name
#define SD_FE_T bn254_fr_t
#define SD_VK_T bn254_groth16_vk_t
#include "groth16/setup_common_decl.h"

#endif
