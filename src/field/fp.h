#ifndef CUZK_FIELD_FP_H
#define CUZK_FIELD_FP_H

/* Fp: the base field of BLS12-381,
 *   p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
 * Elements are kept in Montgomery form (a·R mod p, R = 2^384), fully reduced
 * (< p), as six little-endian 64-bit limbs. All functions are constant time
 * unless their name ends in _var. Outputs come first and may alias inputs. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/rng.h"

#define FP_LIMBS 6
#define FP_BYTES 48

typedef struct fp {
    uint64_t l[FP_LIMBS];
} fp_t;

extern const fp_t FP_ZERO;
extern const fp_t FP_ONE;            /* 1 in Montgomery form (R mod p) */
extern const uint64_t FP_MODULUS[FP_LIMBS]; /* p, plain little-endian limbs */

#define FD_(name) fp_##name
#define FD_T fp_t
#define FD_LIMBS FP_LIMBS
#define FD_BYTES FP_BYTES
#define FD_BASE_FIELD 1
#include "field/prime_field_decl.h"

#endif
