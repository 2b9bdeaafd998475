#ifndef CUZK_CUDA_FF_BN254_FP_CUH
#define CUZK_CUDA_FF_BN254_FP_CUH

/* Fp of BN254 on the device: eight little-endian 32-bit limbs in Montgomery
 * form with R = 2^256, fully reduced: bit for bit the CPU's bn254_fp_t
 * (field/bn254_fp.h). The names are ff_fp.cuh's with the prefix
 * dbn254_fp_ (dbn254_fp_t, dbn254_fp_mul, ...). */

#include <stdint.h>

#include "cuda/ff_mont.cuh"

#define DBN254_FP_LIMBS 8

/* p (field/bn254_fp.c), and n0 = −p^−1 mod 2^32 (the low half of the CPU's
 * BN254_FP_N0). */
#define DBN254_FP_MODULUS                                                                          \
    {                                                                                              \
        0xd87cfd47u, 0x3c208c16u, 0x6871ca8du, 0x97816a91u, 0x8181585du, 0xb85045b6u, 0xe131a029u, \
            0x30644e72u                                                                            \
    }
#define DBN254_FP_N0 0xe4866389u
/* R mod p: one in Montgomery form (the CPU's BN254_FP_ONE). */
#define DBN254_FP_ONE                                                                              \
    {                                                                                              \
        0xc58f0d9du, 0xd35d438du, 0xf5c70b3du, 0x0a78eb28u, 0x7879462cu, 0x666ea36fu, 0x9a07df2fu, \
            0x0e0a77c1u                                                                            \
    }

/* R³ mod p (cuda/ec_field_impl.cuh's divsteps inversion). */
#define DBN254_FP_R3                                                                               \
    {                                                                                              \
        0x3f871adeu, 0x3eaa7e44u, 0xeba56a6bu, 0x0684ec1eu, 0x79f99d82u, 0xb869623fu, 0x7e446c77u, \
            0x371359b4u                                                                            \
    }

#define FF_(name) dbn254_fp_##name
#define FF_LIMBS DBN254_FP_LIMBS
#define FF_MODULUS DBN254_FP_MODULUS
#define FF_N0 DBN254_FP_N0
#define FF_ONE DBN254_FP_ONE
#include "cuda/ff_prime_impl.cuh"

#endif
