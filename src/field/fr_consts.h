#ifndef CUZK_FIELD_FR_CONSTS_H
#define CUZK_FIELD_FR_CONSTS_H

/* Fr constants private to the field layer and its tests (test_fr.c
 * recomputes each of them from r): FR_R2, FR_R3, FR_N0, FR_R_MINUS_2,
 * FR_R_MINUS_1_HALF, FR_T (r - 1 = 2^32 · t), FR_T_MINUS_1_HALF. */

#include <stdint.h>

#include "field/fr.h"

#include "field/fr_names.h"
#include "field/prime_field_consts_decl.h"
#include "field/prime_field_names_undef.h"

#endif
