#ifndef CUZK_CIRCUITS_BUILTIN_H
#define CUZK_CIRCUITS_BUILTIN_H

/* The built-in benchmark circuit as the prover sees it: its compiled
 * constraint system (with bellman's input rows, so parameters made for it
 * are bellman-compatible) and, per partition, its witness and public
 * inputs from a seed. Partition i of a job uses seed + i. */

#include <stddef.h>
#include <stdint.h>

#include "circuits/porep_like.h"
#include "cuzk/status.h"
#include "r1cs/r1cs.h"

/* Synthesizes the shape (the challenges in parallel) and compiles it, on
 * `threads` threads (0: all CPUs); the result does not depend on them. */
cuzk_status builtin_compile(r1cs_t *out, const porep_like_params *p, unsigned threads);

/* The full assignment w (num_vars values, w[0] = 1) for seed, the
 * challenges on `threads` threads (0: all CPUs); the same for any count. */
cuzk_status builtin_witness(fr_t *w, size_t num_vars, const porep_like_params *p, uint64_t seed,
                            unsigned threads);

/* A short name for files made for these parameters, e.g.
 * "porep-like-k2-d20-a8-p4-sha". */
void builtin_name(char *out, size_t len, const porep_like_params *p);

#endif
