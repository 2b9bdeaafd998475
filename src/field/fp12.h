#ifndef CUZK_FIELD_FP12_H
#define CUZK_FIELD_FP12_H

/* Fp12 = Fp6[w] / (w² − v); an element is c0 + c1·w, and GT (the pairing's
 * target group, order r) lives in its cyclotomic subgroup. Constant time
 * unless the name ends in _var; outputs first, and outputs may alias inputs. */

#include "field/fp6.h"

/* 12 Fp coefficients of 48 bytes: c0.c0.c0 c0.c0.c1 c0.c1.c0 … c1.c2.c1. */
#define FP12_BYTES (12 * FP_BYTES)

#include "field/tower_names_bls12_381.h"
#include "field/fp12_decl.h"
#include "field/tower_names_undef.h"

#endif
