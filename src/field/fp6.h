#ifndef CUZK_FIELD_FP6_H
#define CUZK_FIELD_FP6_H

/* Fp6 = Fp2[v] / (v³ − ξ), ξ = u + 1; an element is c0 + c1·v + c2·v².
 * Constant time; outputs first, and outputs may alias inputs. */

#include "field/fp2.h"

#include "field/tower_names_bls12_381.h"
#include "field/fp6_decl.h"
#include "field/tower_names_undef.h"

#endif
