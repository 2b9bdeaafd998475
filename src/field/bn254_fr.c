/* The BN254 scalar field: its constants (computed with python3 from r), and
 * the prime-field template instantiated over the 256-bit limb primitives. */
#include "field/bn254_fr.h"

#include "field/bn254_consts.h"
#include "field/limbs.h"
#include "util/wipe.h"

const uint64_t BN254_FR_MODULUS[BN254_FR_LIMBS] = {0x43e1f593f0000001ULL, 0x2833e84879b97091ULL,
                                                   0xb85045b68181585dULL, 0x30644e72e131a029ULL};
const bn254_fr_t BN254_FR_ZERO = {{0, 0, 0, 0}};
/* R mod r, R = 2^256. */
const bn254_fr_t BN254_FR_ONE = {
    {0xac96341c4ffffffbULL, 0x36fc76959f60cd29ULL, 0x666ea36f7879462eULL, 0x0e0a77c19a07df2fULL}};
const bn254_fr_t BN254_FR_R2 = {
    {0x1bb8e645ae216da7ULL, 0x53fe3ab1e35c59e3ULL, 0x8c49833d53bb8085ULL, 0x0216d0b17f4e44a5ULL}};
const bn254_fr_t BN254_FR_R3 = {
    {0x5e94d8e1b4bf0040ULL, 0x2a489cbe1cfbb6b8ULL, 0x893cc664a19fcfedULL, 0x0cf8594b7fcc657cULL}};
const uint64_t BN254_FR_N0 = 0xc2e1f593efffffffULL;
const uint64_t BN254_FR_R_MINUS_2[BN254_FR_LIMBS] = {0x43e1f593efffffffULL, 0x2833e84879b97091ULL,
                                                     0xb85045b68181585dULL, 0x30644e72e131a029ULL};
const uint64_t BN254_FR_R_MINUS_1_HALF[BN254_FR_LIMBS] = {
    0xa1f0fac9f8000000ULL, 0x9419f4243cdcb848ULL, 0xdc2822db40c0ac2eULL, 0x183227397098d014ULL};
const uint64_t BN254_FR_T[BN254_FR_LIMBS] = {0x9b9709143e1f593fULL, 0x181585d2833e8487ULL,
                                             0x131a029b85045b68ULL, 0x000000030644e72eULL};
const uint64_t BN254_FR_T_MINUS_1_HALF[BN254_FR_LIMBS] = {
    0xcdcb848a1f0fac9fULL, 0x0c0ac2e9419f4243ULL, 0x098d014dc2822db4ULL, 0x0000000183227397ULL};
/* 5^t mod r in Montgomery form: a primitive 2^28-th root of unity. */
const bn254_fr_t BN254_FR_ROOT_OF_UNITY = {
    {0x636e735580d13d9cULL, 0xa22bf3742445ffd6ULL, 0x56452ac01eb203d8ULL, 0x1860ef942963f9e7ULL}};

#include "field/bn254_fr_names.h"
#include "field/prime_field_impl.h"
