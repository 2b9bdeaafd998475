#ifndef CUZK_FIELD_FP_CONSTS_H
#define CUZK_FIELD_FP_CONSTS_H

/* Fp constants private to the field layer and its tests (test_fp.c
 * recomputes each of them from p). */

#include <stdint.h>

#include "field/fp.h"

extern const fp_t FP_R2;                             /* R² mod p, R = 2^384 */
extern const fp_t FP_R3;                             /* R³ mod p */
extern const uint64_t FP_N0;                         /* -p^-1 mod 2^64 */
extern const uint64_t FP_P_MINUS_2[FP_LIMBS];        /* p - 2 */
extern const uint64_t FP_P_MINUS_1_HALF[FP_LIMBS];   /* (p - 1) / 2 */
extern const uint64_t FP_P_PLUS_1_QUARTER[FP_LIMBS]; /* (p + 1) / 4 */

#endif
