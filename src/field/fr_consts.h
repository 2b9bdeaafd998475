#ifndef CUZK_FIELD_FR_CONSTS_H
#define CUZK_FIELD_FR_CONSTS_H

/* Fr constants private to the field layer and its tests (test_fr.c
 * recomputes each of them from r). */

#include <stdint.h>

#include "field/fr.h"

extern const fr_t FR_R2;                           /* R² mod r, R = 2^256 */
extern const fr_t FR_R3;                           /* R³ mod r */
extern const uint64_t FR_N0;                       /* -r^-1 mod 2^64 */
extern const uint64_t FR_R_MINUS_2[FR_LIMBS];      /* r - 2 */
extern const uint64_t FR_R_MINUS_1_HALF[FR_LIMBS]; /* (r - 1) / 2 */
extern const uint64_t FR_T[FR_LIMBS];              /* t, r - 1 = 2^32 · t */
extern const uint64_t FR_T_MINUS_1_HALF[FR_LIMBS]; /* (t - 1) / 2 */

#endif
