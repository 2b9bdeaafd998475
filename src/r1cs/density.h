#ifndef CUZK_R1CS_DENSITY_H
#define CUZK_R1CS_DENSITY_H

/* Which variables each Groth16 query needs, as in bellman's prover
 * (DensityTracker): a point of the A query is only needed for a variable
 * that appears in A, likewise for B; the parameters store only those points,
 * in variable order, so the prover walks these bitmaps to pair scalars with
 * points.
 *  - a_aux: aux variable j appears in some row of A (the A query always
 *    takes every input, whether or not it appears);
 *  - b_input, b_aux: input i / aux variable j appears in some row of B.
 * "Appears" means a stored nonzero: merged duplicates that cancelled to
 * zero were dropped at enforce time, so they do not count.
 * Bit i of a bitmap is word i / 64, bit i % 64. */

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "r1cs/r1cs.h"

typedef struct r1cs_density_s {
    uint64_t num_inputs, num_aux;
    uint64_t *a_aux;                                  /* num_aux bits */
    uint64_t *b_input;                                /* num_inputs bits */
    uint64_t *b_aux;                                  /* num_aux bits */
    uint64_t a_aux_count, b_input_count, b_aux_count; /* popcounts */
} r1cs_density_t;

static inline bool r1cs_bit(const uint64_t *bits, uint64_t i)
{
    return (bits[i >> 6] >> (i & 63)) & 1;
}

/* Computes the three bitmaps and their popcounts (multi-threaded). */
cuzk_status r1cs_density(r1cs_density_t *out, const r1cs_t *r, unsigned threads);
void r1cs_density_free(r1cs_density_t *d);

#endif
