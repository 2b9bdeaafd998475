/* The middle of the BLS12-381 tower (the shared template fp6_impl.h):
 *
 *   Fp2  = Fp[u]  / (u² + 1)
 *   Fp6  = Fp2[v] / (v³ − ξ),  ξ = u + 1      <- this file
 *   Fp12 = Fp6[w] / (w² − v)
 *
 * An element is c0 + c1·v + c2·v², so a product's v³ terms fold back as ξ.
 * The Frobenius map lives in fp12_frobenius.c with its constants. */

#include "field/fp6.h"

#include "field/tower_names_bls12_381.h"
#include "field/fp6_impl.h"
