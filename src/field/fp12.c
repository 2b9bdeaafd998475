/* The top of the BLS12-381 tower (the shared template fp12_impl.h):
 *
 *   Fp2  = Fp[u]  / (u² + 1)
 *   Fp6  = Fp2[v] / (v³ − ξ),  ξ = u + 1
 *   Fp12 = Fp6[w] / (w² − v)                  <- this file
 *
 * An element is c0 + c1·w with c0, c1 in Fp6; w⁶ = ξ. As a vector over Fp2
 * in powers of w: c0.c0 + c1.c0 w + c0.c1 w² + c1.c1 w³ + c0.c2 w⁴ + c1.c2 w⁵.
 * Frobenius maps: fp12_frobenius.c. Cyclotomic subgroup: fp12_cyclotomic.c. */

#include "field/fp12.h"

#include "field/tower_names_bls12_381.h"
#include "field/fp12_impl.h"
