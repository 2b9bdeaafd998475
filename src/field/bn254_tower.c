/* The BN254 tower (bn254_tower.h): its constants, the multiplication by
 * ξ = 9 + u and the exponentiation by the BN parameter, then the shared
 * templates of the BLS12-381 tower (tower_impl.h). The Frobenius constants
 * γ_{k,i} = ξ^(i(p^k − 1)/6) and 1/2 were computed with python3 (pow in Fp2)
 * and are in Montgomery form; test_bn254_tower.c checks every map against
 * exponentiation by p. */

#include "field/bn254_tower.h"

#include "field/tower_names_bn254.h"

/* (c0 + c1 u)(9 + u) = (9 c0 − c1) + (c0 + 9 c1) u, with 9a = 8a + a by
 * three doublings. */
static void times_nine(bn254_fp_t *r, const bn254_fp_t *a)
{
    bn254_fp_t t;
    bn254_fp_dbl(&t, a);
    bn254_fp_dbl(&t, &t);
    bn254_fp_dbl(&t, &t);
    bn254_fp_add(r, &t, a);
}

void bn254_fp2_mul_nonresidue(bn254_fp2_t *r, const bn254_fp2_t *a)
{
    bn254_fp_t t0, t1;
    times_nine(&t0, &a->c0);
    times_nine(&t1, &a->c1);
    bn254_fp_sub(&t0, &t0, &a->c1);
    bn254_fp_add(&r->c1, &t1, &a->c0);
    r->c0 = t0;
}

/* 1/2 in Montgomery form. */
static const bn254_fp_t BN254_HALF = {
    {0x87bee7d24f060572ULL, 0xd0fd2add2f1c6ae5ULL, 0x8f5f7492fcfd4f44ULL, 0x1f37631a3d9cbfacULL}};
#define F1_HALF BN254_HALF

/* FROB[k − 1][i − 1] = γ_{k,i} = ξ^(i(p^k − 1)/6); γ_{2,i} lie in Fp. */
const bn254_fp2_t BN254_FP12_FROB[3][5] = {
    {
        {{{0xaf9ba69633144907ULL, 0xca6b1d7387afb78aULL, 0x11bded5ef08a2087ULL,
           0x02f34d751a1f3a7cULL}},
         {{0xa222ae234c492d72ULL, 0xd00f02a4565de15bULL, 0xdc2ff3a253dfc926ULL,
           0x10a75716b3899551ULL}}},
        {{{0xb5773b104563ab30ULL, 0x347f91c8a9aa6454ULL, 0x7a007127242e0991ULL,
           0x1956bcd8118214ecULL}},
         {{0x6e849f1ea0aa4757ULL, 0xaa1c7b6d89f89141ULL, 0xb6e713cdfae0ca3aULL,
           0x26694fbb4e82ebc3ULL}}},
        {{{0xe4bbdd0c2936b629ULL, 0xbb30f162e133bacbULL, 0x31a9d1b6f9645366ULL,
           0x253570bea500f8ddULL}},
         {{0xa1d77ce45ffe77c7ULL, 0x07affd117826d1dbULL, 0x6d16bd27bb7edc6bULL,
           0x2c87200285defeccULL}}},
        {{{0x7361d77f843abe92ULL, 0xa5bb2bd3273411fbULL, 0x9c941f314b3e2399ULL,
           0x15df9cddbb9fd3ecULL}},
         {{0x5dddfd154bd8c949ULL, 0x62cb29a5a4445b60ULL, 0x37bc870a0c7dd2b9ULL,
           0x24830a9d3171f0fdULL}}},
        {{{0xc970692f41690fe7ULL, 0xe240342127694b0bULL, 0x32bee66b83c459e8ULL,
           0x12aabced0ab08841ULL}},
         {{0x0d485d2340aebfa9ULL, 0x05193418ab2fcc57ULL, 0xd3b0a40b8a4910f5ULL,
           0x2f21ebb535d2925aULL}}},
    },
    {
        {{{0xca8d800500fa1bf2ULL, 0xf0c5d61468b39769ULL, 0x0e201271ad0d4418ULL,
           0x04290f65bad856e6ULL}},
         {{0}}},
        {{{0x3350c88e13e80b9cULL, 0x7dce557cdb5e56b9ULL, 0x6001b4b8b615564aULL,
           0x2682e617020217e0ULL}},
         {{0}}},
        {{{0x68c3488912edefaaULL, 0x8d087f6872aabf4fULL, 0x51e1a24709081231ULL,
           0x2259d6b14729c0faULL}},
         {{0}}},
        {{{0x71930c11d782e155ULL, 0xa6bb947cffbe3323ULL, 0xaa303344d4741444ULL,
           0x2c3b3f0d26594943ULL}},
         {{0}}},
        {{{0x08cfc388c494f1abULL, 0x19b315148d1373d4ULL, 0x584e90fdcb6c0213ULL,
           0x09e1685bdf2f8849ULL}},
         {{0}}},
    },
    {
        {{{0x365316184e46d97dULL, 0x0af7129ed4c96d9fULL, 0x659da72fca1009b5ULL,
           0x08116d8983a20d23ULL}},
         {{0xb1df4af7c39c1939ULL, 0x3d9f02878a73bf7fULL, 0x9b2220928caf0ae0ULL,
           0x26684515eff054a6ULL}}},
        {{{0xc9af22f716ad6badULL, 0xb311782a4aa662b2ULL, 0x19eeaf64e248c7f4ULL,
           0x20273e77e3439f82ULL}},
         {{0xacc02860f7ce93acULL, 0x3933d5817ba76b4cULL, 0x69e6188b446c8467ULL,
           0x0a46036d4417cc55ULL}}},
        {{{0x5764af0aaf46471eULL, 0xdc50792e873e0fc1ULL, 0x86a673ff881d04f6ULL,
           0x0b2eddb43c30a74cULL}},
         {{0x9a490f32787e8580ULL, 0x8fd16d7ff04af8b1ULL, 0x4b39888ec6027bf2ULL,
           0x03dd2e705b52a15dULL}}},
        {{{0x448a93a57b6762dfULL, 0xbfd62df528fdeadfULL, 0xd858f5d00e9bd47aULL,
           0x06b03d4d3476ec58ULL}},
         {{0x2b19daf4bcc936d1ULL, 0xa1a54e7a56f4299fULL, 0xb533eee05adeaef1ULL,
           0x170c812b84dda0b2ULL}}},
        {{{0xe0bc4b2275cf559fULL, 0xc238b945c154e60fULL, 0x803982a5929a7d5eULL,
           0x15ce052df7e4a37eULL}},
         {{0x2d28efbdbf3799a7ULL, 0x9b097e3c1ad60773ULL, 0x982d4113af4a535bULL,
           0x24e18991e3056063ULL}}},
    },
};
#define F12_FROB BN254_FP12_FROB

#include "field/tower_impl.h"

/* The BN parameter x = 4965661367192848881 (p and r are polynomials in it). */
#define BN_X 0x44e992b44a6909f1ULL

/* Square-and-multiply over the bits of the positive x, below its top bit. */
void bn254_fp12_cyclotomic_exp_x(bn254_fp12_t *r, const bn254_fp12_t *a)
{
    bn254_fp12_t acc = *a, base = *a;
    for (int i = 62 - __builtin_clzll(BN_X); i >= 0; i--) {
        bn254_fp12_cyclotomic_sqr(&acc, &acc);
        if ((BN_X >> i) & 1)
            bn254_fp12_mul(&acc, &acc, &base);
    }
    *r = acc;
}
