#ifndef CUZK_FIELD_BN254_CONSTS_H
#define CUZK_FIELD_BN254_CONSTS_H

/* BN254 field constants private to the field layer and its tests
 * (test_bn254_fp.c and test_bn254_fr.c recompute each of them): the same
 * names as fp_consts.h and fr_consts.h with the prefixes BN254_FP_ and
 * BN254_FR_ (BN254_FR_T: r - 1 = 2^28 · t). */

#include <stdint.h>

#include "field/bn254_fp.h"
#include "field/bn254_fr.h"

#include "field/bn254_fp_names.h"
#include "field/prime_field_consts_decl.h"
#include "field/prime_field_names_undef.h"

#include "field/bn254_fr_names.h"
#include "field/prime_field_consts_decl.h"
#include "field/prime_field_names_undef.h"

#endif
