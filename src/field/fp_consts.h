#ifndef CUZK_FIELD_FP_CONSTS_H
#define CUZK_FIELD_FP_CONSTS_H

/* Fp constants private to the field layer and its tests (test_fp.c
 * recomputes each of them from p): FP_R2, FP_R3, FP_N0, FP_P_MINUS_2,
 * FP_P_MINUS_1_HALF, FP_P_PLUS_1_QUARTER. */

#include <stdint.h>

#include "field/fp.h"

#include "field/fp_names.h"
#include "field/prime_field_consts_decl.h"
#include "field/prime_field_names_undef.h"

#endif
