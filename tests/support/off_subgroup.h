#ifndef CUZK_TESTS_OFF_SUBGROUP_H
#define CUZK_TESTS_OFF_SUBGROUP_H

/* Points on the curves but outside the order-r subgroups, for the tests of
 * subgroup checks: a random x whose x³ + b is a square. The cofactors are
 * about 2^126 (G1) and 2^380 (G2), so such a point lies in the subgroup
 * with negligible probability; a test still asks the CPU's check. */

#include "curve/g1.h"
#include "curve/g2.h"
#include "util/rng.h"

void g1_off_subgroup(g1_affine_t *out, rng_t *rng);
void g2_off_subgroup(g2_affine_t *out, rng_t *rng);

#endif
