#ifndef CUZK_FIELD_BN254_FR_H
#define CUZK_FIELD_BN254_FR_H

/* The scalar field of BN254 (the order of G1, G2 and GT),
 *   r = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001
 * Montgomery form a·2^256 mod r, four little-endian 64-bit limbs; the
 * functions are those of every prime field (prime_field_decl.h). r - 1 =
 * 2^28 · t with t odd. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/rng.h"

#define BN254_FR_LIMBS 4
#define BN254_FR_BYTES 32

typedef struct bn254_fr {
    uint64_t l[BN254_FR_LIMBS];
} bn254_fr_t;

extern const bn254_fr_t BN254_FR_ZERO;
extern const bn254_fr_t BN254_FR_ONE;
extern const uint64_t BN254_FR_MODULUS[BN254_FR_LIMBS];

/* r - 1 = 2^BN254_FR_TWO_ADICITY · t, t odd. BN254_FR_GENERATOR (5)
 * generates the multiplicative group; BN254_FR_ROOT_OF_UNITY = 5^t has
 * order exactly 2^28. */
#define BN254_FR_TWO_ADICITY 28
#define BN254_FR_GENERATOR 5
extern const bn254_fr_t BN254_FR_ROOT_OF_UNITY;

#define FD_(name) bn254_fr_##name
#define FD_T bn254_fr_t
#define FD_LIMBS BN254_FR_LIMBS
#define FD_BYTES BN254_FR_BYTES
#include "field/prime_field_decl.h"

#endif
