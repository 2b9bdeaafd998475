#ifndef CUZK_FIELD_FR_H
#define CUZK_FIELD_FR_H

/* Fr: the scalar field of BLS12-381 (the order of G1, G2 and GT),
 *   r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
 * Montgomery form (a·2^256 mod r), fully reduced, four little-endian 64-bit
 * limbs. Same conventions as fp.h. r - 1 = 2^32 · t with t odd: the
 * 2-adicity the NTT domains use. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/rng.h"

#define FR_LIMBS 4
#define FR_BYTES 32

typedef struct fr {
    uint64_t l[FR_LIMBS];
} fr_t;

extern const fr_t FR_ZERO;
extern const fr_t FR_ONE;
extern const uint64_t FR_MODULUS[FR_LIMBS];

/* r - 1 = 2^FR_TWO_ADICITY · t, t odd. FR_GENERATOR (7) generates the
 * multiplicative group; FR_ROOT_OF_UNITY = 7^t has order exactly 2^32. */
#define FR_TWO_ADICITY 32
#define FR_GENERATOR 7
extern const fr_t FR_ROOT_OF_UNITY;

#define FD_(name) fr_##name
#define FD_T fr_t
#define FD_LIMBS FR_LIMBS
#define FD_BYTES FR_BYTES
#include "field/prime_field_decl.h"

#endif
