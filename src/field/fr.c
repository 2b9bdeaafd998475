/* Fr, the BLS12-381 scalar field: its constants, and the prime-field template
 * (prime_field_impl.h) instantiated over the 256-bit limb primitives. */
#include "field/fr.h"

#include "field/fr_consts.h"
#include "field/limbs.h"
#include "util/wipe.h"

const uint64_t FR_MODULUS[FR_LIMBS] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL,
                                       0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
const fr_t FR_ZERO = {{0, 0, 0, 0}};
/* R mod r, R = 2^256. */
const fr_t FR_ONE = {
    {0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL, 0x1824b159acc5056fULL}};
/* R² mod r. */
const fr_t FR_R2 = {
    {0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL, 0x05d314967254398fULL, 0x0748d9d99f59ff11ULL}};
/* R³ mod r. */
const fr_t FR_R3 = {
    {0xc62c1807439b73afULL, 0x1b3e0d188cf06990ULL, 0x73d13c71c7b5f418ULL, 0x6e2a5bb9c8db33e9ULL}};
/* -r^-1 mod 2^64. */
const uint64_t FR_N0 = 0xfffffffeffffffffULL;
const uint64_t FR_R_MINUS_2[FR_LIMBS] = {0xfffffffeffffffffULL, 0x53bda402fffe5bfeULL,
                                         0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL};
const uint64_t FR_R_MINUS_1_HALF[FR_LIMBS] = {0x7fffffff80000000ULL, 0xa9ded2017fff2dffULL,
                                              0x199cec0404d0ec02ULL, 0x39f6d3a994cebea4ULL};
const uint64_t FR_T[FR_LIMBS] = {0xfffe5bfeffffffffULL, 0x09a1d80553bda402ULL,
                                 0x299d7d483339d808ULL, 0x0000000073eda753ULL};
const uint64_t FR_T_MINUS_1_HALF[FR_LIMBS] = {0x7fff2dff7fffffffULL, 0x04d0ec02a9ded201ULL,
                                              0x94cebea4199cec04ULL, 0x0000000039f6d3a9ULL};
/* 7^t mod r in Montgomery form: a primitive 2^32-th root of unity. */
const fr_t FR_ROOT_OF_UNITY = {
    {0xb9b58d8c5f0e466aULL, 0x5b1b4c801819d7ecULL, 0x0af53ae352a31e64ULL, 0x5bf3adda19e9b27bULL}};

#include "field/fr_names.h"
#include "field/prime_field_impl.h"
