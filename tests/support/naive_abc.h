#ifndef CUZK_TESTS_NAIVE_ABC_H
#define CUZK_TESTS_NAIVE_ABC_H

/* The reference the compiled matrices are checked against: a, b, c from
 * coordinate entries one product at a time, as snarkjs's prover does:
 *   a[row] = Σ_{A entries} value·w[col], b likewise from B, c = a·b,
 * each domain_size long (rows without entries are 0); c may be NULL. */

#include <stdint.h>

#include "field/fr.h"
#include "r1cs/r1cs.h"

void naive_abc(fr_t *a, fr_t *b, fr_t *c, const r1cs_entry *entries, uint64_t n, const fr_t *w,
               uint64_t domain_size);

#endif
