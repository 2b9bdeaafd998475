/* The BN254 base field: its constants (computed with python3 from p), and
 * the prime-field template instantiated over the 256-bit limb primitives. */
#include "field/bn254_fp.h"

#include "field/bn254_consts.h"
#include "field/limbs.h"
#include "util/wipe.h"

const uint64_t BN254_FP_MODULUS[BN254_FP_LIMBS] = {0x3c208c16d87cfd47ULL, 0x97816a916871ca8dULL,
                                                   0xb85045b68181585dULL, 0x30644e72e131a029ULL};
const bn254_fp_t BN254_FP_ZERO = {{0, 0, 0, 0}};
/* R mod p, R = 2^256. */
const bn254_fp_t BN254_FP_ONE = {
    {0xd35d438dc58f0d9dULL, 0x0a78eb28f5c70b3dULL, 0x666ea36f7879462cULL, 0x0e0a77c19a07df2fULL}};
const bn254_fp_t BN254_FP_R2 = {
    {0xf32cfc5b538afa89ULL, 0xb5e71911d44501fbULL, 0x47ab1eff0a417ff6ULL, 0x06d89f71cab8351fULL}};
const bn254_fp_t BN254_FP_R3 = {
    {0xb1cd6dafda1530dfULL, 0x62f210e6a7283db6ULL, 0xef7f0b0c0ada0afbULL, 0x20fd6e902d592544ULL}};
const uint64_t BN254_FP_N0 = 0x87d20782e4866389ULL;
const uint64_t BN254_FP_P_MINUS_2[BN254_FP_LIMBS] = {0x3c208c16d87cfd45ULL, 0x97816a916871ca8dULL,
                                                     0xb85045b68181585dULL, 0x30644e72e131a029ULL};
const uint64_t BN254_FP_P_MINUS_1_HALF[BN254_FP_LIMBS] = {
    0x9e10460b6c3e7ea3ULL, 0xcbc0b548b438e546ULL, 0xdc2822db40c0ac2eULL, 0x183227397098d014ULL};
const uint64_t BN254_FP_P_PLUS_1_QUARTER[BN254_FP_LIMBS] = {
    0x4f082305b61f3f52ULL, 0x65e05aa45a1c72a3ULL, 0x6e14116da0605617ULL, 0x0c19139cb84c680aULL};

#include "field/bn254_fp_names.h"
#include "field/prime_field_impl.h"
