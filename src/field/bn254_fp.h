#ifndef CUZK_FIELD_BN254_FP_H
#define CUZK_FIELD_BN254_FP_H

/* The base field of BN254 (circom's and snarkjs's "bn128", alt_bn128),
 *   p = 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47
 * (254 bits, p = 3 mod 4). Montgomery form a·2^256 mod p, four little-endian
 * 64-bit limbs; the functions are those of every prime field
 * (prime_field_decl.h), instantiated from prime_field_impl.h in bn254_fp.c. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/rng.h"

#define BN254_FP_LIMBS 4
#define BN254_FP_BYTES 32

typedef struct bn254_fp {
    uint64_t l[BN254_FP_LIMBS];
} bn254_fp_t;

extern const bn254_fp_t BN254_FP_ZERO;
extern const bn254_fp_t BN254_FP_ONE;
extern const uint64_t BN254_FP_MODULUS[BN254_FP_LIMBS];

#define FD_(name) bn254_fp_##name
#define FD_T bn254_fp_t
#define FD_LIMBS BN254_FP_LIMBS
#define FD_BYTES BN254_FP_BYTES
#define FD_BASE_FIELD 1
#include "field/prime_field_decl.h"

#endif
