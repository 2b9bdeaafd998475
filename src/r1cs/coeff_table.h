#ifndef CUZK_R1CS_COEFF_TABLE_H
#define CUZK_R1CS_COEFF_TABLE_H

/* The table of distinct coefficients of a constraint system under
 * construction: an append-only array of Fr values plus an open-addressing
 * hash index over them, so each enforced term costs one lookup. Entries 0
 * and 1 are +1 and -1 from the start (R1CS_COEFF_ONE / _MINUS_ONE), which
 * the evaluator special-cases. */

#include <stdint.h>

#include "curve/curve_id.h"
#include "cuzk/status.h"
#include "field/fr.h"

typedef struct coeff_table {
    fr_t *vals;
    uint64_t len, cap;
    uint32_t *slots;    /* 0: empty, else index + 1 */
    uint64_t num_slots; /* power of two, kept at least twice len */
} coeff_table;

/* A table over the scalar field of curve (its +1 and −1 first; values of
 * BN254 in fr_t slots, field/scalar_slots.h). */
cuzk_status coeff_table_init(coeff_table *t);
cuzk_status coeff_table_init_over(coeff_table *t, curve_id curve);
void coeff_table_free(coeff_table *t);

/* *idx = the index of value, appending it when new. */
cuzk_status coeff_table_intern(coeff_table *t, uint32_t *idx, const fr_t *value);

/* Hands the value array over (shrunk to fit) and frees the index. */
fr_t *coeff_table_take(coeff_table *t, uint64_t *len);

#endif
