#ifndef CUZK_CUDA_FF_FP_CUH
#define CUZK_CUDA_FF_FP_CUH

/* Fp of BLS12-381 on the device: twelve little-endian 32-bit limbs in
 * Montgomery form with R = 2^384, fully reduced: bit for bit the CPU's fp_t
 * (six little-endian 64-bit limbs, field/fp.h) on a little-endian host, so
 * arrays of fp_t copy to the device unchanged. 16-byte aligned, so one element
 * loads with three 16-byte accesses. Outputs first; they may alias inputs. */

#include <stdint.h>

#include "cuda/ff_mont.cuh"

#define DFP_LIMBS 12

/* p, and n0 = −p^−1 mod 2^32 (the low half of the CPU's 64-bit FP_N0). */
#define DFP_MODULUS                                                                                \
    {                                                                                              \
        0xffffaaabu, 0xb9feffffu, 0xb153ffffu, 0x1eabfffeu, 0xf6b0f624u, 0x6730d2a0u, 0xf38512bfu, \
            0x64774b84u, 0x434bacd7u, 0x4b1ba7b6u, 0x397fe69au, 0x1a0111eau                        \
    }
#define DFP_N0 0xfffcfffdu
/* R mod p: one in Montgomery form. */
#define DFP_ONE                                                                                    \
    {                                                                                              \
        0x0002fffdu, 0x76090000u, 0xc40c0002u, 0xebf4000bu, 0x53c758bau, 0x5f489857u, 0x70525745u, \
            0x77ce5853u, 0xa256ec6du, 0x5c071a97u, 0xfa80e493u, 0x15f65ec3u                        \
    }

/* R³ mod p: one Montgomery product turns the integer inverse of a·R into
 * a^−1·R (cuda/ec_field_impl.cuh's divsteps inversion). */
#define DFP_R3                                                                                     \
    {                                                                                              \
        0xd94ca1e0u, 0xed48ac6bu, 0x03a7adf8u, 0x315f831eu, 0x615e29ddu, 0x9a53352au, 0x921e1761u, \
            0x34c04e5eu, 0x65724728u, 0x2512d435u, 0x91755d4du, 0x0aa63460u                        \
    }

#define FF_(name) dfp_##name
#define FF_LIMBS DFP_LIMBS
#define FF_MODULUS DFP_MODULUS
#define FF_N0 DFP_N0
#define FF_ONE DFP_ONE
#include "cuda/ff_prime_impl.cuh"

#endif
