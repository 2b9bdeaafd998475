#ifndef CUZK_CIRCUITS_POREP_LIKE_WITNESS_H
#define CUZK_CIRCUITS_POREP_LIKE_WITNESS_H

/* The seeded witness of the PoRep-shaped circuit (porep_like.h), computed
 * with the plain SHA-256 and Poseidon: internal to src/circuits. */

#include <stdint.h>

#include "circuits/porep_like.h"
#include "field/fr.h"

typedef struct porep_witness {
    porep_like_params p;
    fr_t replica_id;
    fr_t root;
    uint64_t *index; /* K challenge indices */
    fr_t *leaf;      /* K leaves (the labels) */
    fr_t *siblings;  /* K · depth · (arity - 1), challenge by challenge */
} porep_witness;

cuzk_status porep_witness_build(porep_witness *w, const porep_like_params *p, uint64_t seed);
void porep_witness_free(porep_witness *w);

/* The parent labels of the leaf at `index`: parents·32 bytes. */
void porep_witness_parents(uint8_t *out, const porep_like_params *p, uint64_t seed, uint64_t index);

/* Number of leaves, arity^depth. */
uint64_t porep_witness_leaves(const porep_like_params *p);

#endif
