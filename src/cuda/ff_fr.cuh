#ifndef CUZK_CUDA_FF_FR_CUH
#define CUZK_CUDA_FF_FR_CUH

/* Fr of BLS12-381 on the device: eight little-endian 32-bit limbs in
 * Montgomery form with R = 2^256, fully reduced: bit for bit the CPU's fr_t
 * (four little-endian 64-bit limbs, field/fr.h). Same conventions as
 * ff_fp.cuh. */

#include <stdint.h>

#include "cuda/ff_mont.cuh"

#define DFR_LIMBS 8

/* r, and n0 = −r^−1 mod 2^32. */
#define DFR_MODULUS                                                                                \
    {                                                                                              \
        0x00000001u, 0xffffffffu, 0xfffe5bfeu, 0x53bda402u, 0x09a1d805u, 0x3339d808u, 0x299d7d48u, \
            0x73eda753u                                                                            \
    }
#define DFR_N0 0xffffffffu
/* R mod r: one in Montgomery form. */
#define DFR_ONE                                                                                    \
    {                                                                                              \
        0xfffffffeu, 0x00000001u, 0x00034802u, 0x5884b7fau, 0xecbc4ff5u, 0x998c4fefu, 0xacc5056fu, \
            0x1824b159u                                                                            \
    }

#define FF_(name) dfr_##name
#define FF_LIMBS DFR_LIMBS
#define FF_MODULUS DFR_MODULUS
#define FF_N0 DFR_N0
#define FF_ONE DFR_ONE
#include "cuda/ff_prime_impl.cuh"

#endif
