#ifndef CUZK_FIELD_BN254_CONSTS_H
#define CUZK_FIELD_BN254_CONSTS_H

/* BN254 field constants private to the field layer and its tests
 * (test_bn254_fp.c and test_bn254_fr.c recompute each of them). */

#include <stdint.h>

#include "field/bn254_fp.h"
#include "field/bn254_fr.h"

extern const bn254_fp_t BN254_FP_R2;                           /* R² mod p, R = 2^256 */
extern const bn254_fp_t BN254_FP_R3;                           /* R³ mod p */
extern const uint64_t BN254_FP_N0;                             /* -p^-1 mod 2^64 */
extern const uint64_t BN254_FP_P_MINUS_2[BN254_FP_LIMBS];        /* p - 2 */
extern const uint64_t BN254_FP_P_MINUS_1_HALF[BN254_FP_LIMBS];   /* (p - 1) / 2 */
extern const uint64_t BN254_FP_P_PLUS_1_QUARTER[BN254_FP_LIMBS]; /* (p + 1) / 4 */

extern const bn254_fr_t BN254_FR_R2;                         /* R² mod r */
extern const bn254_fr_t BN254_FR_R3;                         /* R³ mod r */
extern const uint64_t BN254_FR_N0;                           /* -r^-1 mod 2^64 */
extern const uint64_t BN254_FR_R_MINUS_2[BN254_FR_LIMBS];      /* r - 2 */
extern const uint64_t BN254_FR_R_MINUS_1_HALF[BN254_FR_LIMBS]; /* (r - 1) / 2 */
extern const uint64_t BN254_FR_T[BN254_FR_LIMBS];              /* t, r - 1 = 2^28 · t */
extern const uint64_t BN254_FR_T_MINUS_1_HALF[BN254_FR_LIMBS]; /* (t - 1) / 2 */

#endif
