#ifndef CUZK_R1CS_WITNESS_H
#define CUZK_R1CS_WITNESS_H

/* Witness vectors w = [1, inputs..., aux...] (r1cs_builder_assignment makes
 * one) and the 0 / 1 / other split the MSMs use: a zero scalar drops its
 * point, a one adds it without a Pippenger pass, the rest go to Pippenger.
 * In PoRep most aux values are bits, so the split is the big saving. */

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"

typedef enum r1cs_value_class {
    R1CS_VALUE_ZERO = 0,
    R1CS_VALUE_ONE = 1,
    R1CS_VALUE_OTHER = 2,
} r1cs_value_class;

typedef struct r1cs_value_counts {
    uint64_t zero, one, other;
} r1cs_value_counts;

/* Classifies w[0..n): cls[i] (one byte per value, may be NULL for counts
 * only) and the counts of each class. Multi-threaded. */
void r1cs_witness_classify(uint8_t *cls, r1cs_value_counts *counts, const fr_t *w, size_t n,
                           unsigned threads);

#endif
