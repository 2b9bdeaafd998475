/* Frobenius maps of the tower (fp6.h, fp12.h).
 *
 * Over Fp2 an Fp12 element is Σ a_i w^i (i = 0..5, see fp12.c), and
 *   (Σ a_i w^i)^(p^k) = Σ conj^k(a_i) · w^i · γ_{k,i},  γ_{k,i} = ξ^(i(p^k − 1)/6),
 * because w^(p^k) = w · (w⁶)^((p^k − 1)/6) and w⁶ = ξ (Beuchat et al.,
 * "High-speed software implementation of the optimal ate pairing over
 * Barreto–Naehrig curves", 2010, §3). Fp6 uses the even powers: v = w².
 * The γ's were computed with python3 (pow in Fp2) and are stored in
 * Montgomery form; the tests recompute them from ξ^((p − 1)/6) and check
 * each map against exponentiation by p. γ_{2,i} lie in Fp. */

#include "field/fp12.h"

#include "field/tower_names_bls12_381.h"

/* FROB[k − 1][i − 1] = γ_{k,i}. */
static const fp2_t FROB[3][5] = {
    {
        /* k = 1 */
        /* xi^(1(p^1 - 1)/6) */
        {{{0x07089552b319d465ULL, 0xc6695f92b50a8313ULL, 0x97e83cccd117228fULL,
           0xa35baecab2dc29eeULL, 0x1ce393ea5daace4dULL, 0x08f2220fb0fb66ebULL}},
         {{0xb2f66aad4ce5d646ULL, 0x5842a06bfc497cecULL, 0xcf4895d42599d394ULL,
           0xc11b9cba40a8e8d0ULL, 0x2e3813cbe5a0de89ULL, 0x110eefda88847fafULL}}},
        /* xi^(2(p^1 - 1)/6) */
        {{{0}},
         {{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL,
           0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}}},
        /* xi^(3(p^1 - 1)/6) */
        {{{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL,
           0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}},
         {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL,
           0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}}},
        /* xi^(4(p^1 - 1)/6) */
        {{{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL,
           0xa20d1b8c7e881024ULL, 0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}},
         {{0}}},
        /* xi^(5(p^1 - 1)/6) */
        {{{0x82d83cf50dbce43fULL, 0xa2813e53df9d018fULL, 0xc6f0caa53c65e181ULL,
           0x7525cf528d50fe95ULL, 0x4a85ed50f4798a6bULL, 0x171da0fd6cf8eebdULL}},
         {{0x3726c30af242c66cULL, 0x7c2ac1aad1b6fe70ULL, 0xa04007fbba4b14a2ULL,
           0xef517c3266341429ULL, 0x0095ba654ed2226bULL, 0x02e370eccc86f7ddULL}}},
    },
    {
        /* k = 2 */
        /* xi^(1(p^2 - 1)/6) */
        {{{0xecfb361b798dba3aULL, 0xc100ddb891865a2cULL, 0x0ec08ff1232bda8eULL,
           0xd5c13cc6f1ca4721ULL, 0x47222a47bf7b5c04ULL, 0x0110f184e51c5f59ULL}},
         {{0}}},
        /* xi^(2(p^2 - 1)/6) */
        {{{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL,
           0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}},
         {{0}}},
        /* xi^(3(p^2 - 1)/6) */
        {{{0x43f5fffffffcaaaeULL, 0x32b7fff2ed47fffdULL, 0x07e83a49a2e99d69ULL,
           0xeca8f3318332bb7aULL, 0xef148d1ea0f4c069ULL, 0x040ab3263eff0206ULL}},
         {{0}}},
        /* xi^(4(p^2 - 1)/6) */
        {{{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL,
           0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}},
         {{0}}},
        /* xi^(5(p^2 - 1)/6) */
        {{{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL,
           0xa20d1b8c7e881024ULL, 0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}},
         {{0}}},
    },
    {
        /* k = 3 */
        /* xi^(1(p^3 - 1)/6) */
        {{{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL,
           0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
         {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL,
           0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}}},
        /* xi^(2(p^3 - 1)/6) */
        {{{0}},
         {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
           0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}}},
        /* xi^(3(p^3 - 1)/6) */
        {{{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL,
           0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
         {{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL,
           0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}}},
        /* xi^(4(p^3 - 1)/6) */
        {{{0x43f5fffffffcaaaeULL, 0x32b7fff2ed47fffdULL, 0x07e83a49a2e99d69ULL,
           0xeca8f3318332bb7aULL, 0xef148d1ea0f4c069ULL, 0x040ab3263eff0206ULL}},
         {{0}}},
        /* xi^(5(p^3 - 1)/6) */
        {{{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL,
           0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}},
         {{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL,
           0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}}},
    },
};

#define F12_FROB FROB
#include "field/fp12_frobenius_impl.h"
