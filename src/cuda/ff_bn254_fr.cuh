#ifndef CUZK_CUDA_FF_BN254_FR_CUH
#define CUZK_CUDA_FF_BN254_FR_CUH

/* Fr of BN254 on the device: eight little-endian 32-bit limbs in Montgomery
 * form with R = 2^256, fully reduced: bit for bit the CPU's bn254_fr_t
 * (field/bn254_fr.h). The names are ff_fr.cuh's with the prefix
 * dbn254_fr_. */

#include <stdint.h>

#include "cuda/ff_mont.cuh"

#define DBN254_FR_LIMBS 8

/* r (field/bn254_fr.c), and n0 = −r^−1 mod 2^32. */
#define DBN254_FR_MODULUS                                                                          \
    {                                                                                              \
        0xf0000001u, 0x43e1f593u, 0x79b97091u, 0x2833e848u, 0x8181585du, 0xb85045b6u, 0xe131a029u, \
            0x30644e72u                                                                            \
    }
#define DBN254_FR_N0 0xefffffffu
/* R mod r: one in Montgomery form (the CPU's BN254_FR_ONE). */
#define DBN254_FR_ONE                                                                              \
    {                                                                                              \
        0x4ffffffbu, 0xac96341cu, 0x9f60cd29u, 0x36fc7695u, 0x7879462eu, 0x666ea36fu, 0x9a07df2fu, \
            0x0e0a77c1u                                                                            \
    }

#define FF_(name) dbn254_fr_##name
#define FF_LIMBS DBN254_FR_LIMBS
#define FF_MODULUS DBN254_FR_MODULUS
#define FF_N0 DBN254_FR_N0
#define FF_ONE DBN254_FR_ONE
#include "cuda/ff_prime_impl.cuh"

#endif
