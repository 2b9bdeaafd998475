#ifndef CUZK_FIELD_FP2_H
#define CUZK_FIELD_FP2_H

/* Fp2 = Fp[u] / (u² + 1); an element is c0 + c1·u. The higher tower
 * (fp6.h, fp12.h) is Fp6 = Fp2[v] / (v³ − (u + 1)), Fp12 = Fp6[w] / (w² − v). */

#include "field/fp.h"

#include "field/tower_names_bls12_381.h"
#include "field/fp2_decl.h"
#include "field/tower_names_undef.h"

#endif
