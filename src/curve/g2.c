/* G2 = the order-r subgroup of the sextic twist E'(Fp2): y² = x³ + 4(u + 1).
 * The group law, scalar multiplication and encodings are the shared
 * templates point_*_impl.h instantiated over Fp2; this file holds the
 * constants, the endomorphism ψ and the subgroup test. Constants are in
 * Montgomery form (a·2^384 mod p), each Fp2 written {c0, c1}. */

#include "curve/g2.h"

#include <string.h>

/* b = 4(u + 1) */
static const fp2_t G2_B = {
    {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL, 0xb1d37ebee6ba24d7ULL,
      0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}},
    {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL, 0xb1d37ebee6ba24d7ULL,
      0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}},
};

/* ψ = untwist ∘ Frobenius ∘ twist: ψ(x, y) = (x^p·PSI_X, y^p·PSI_Y) with
 * PSI_X = 1/(u + 1)^((p − 1)/3) and PSI_Y = 1/(u + 1)^((p − 1)/2), where
 * x^p is the conjugate. On G2 it acts as [p] = [x] (p ≡ x mod r).
 * PSI_X = 0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4
 *           897d29650fb85f9b409427eb4f49fffd8bfd00000000aaad · u */
const fp2_t G2_PSI_X = {
    {{0}},
    {{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL, 0xa20d1b8c7e881024ULL,
      0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}},
};
const fp2_t G2_PSI_Y = {
    {{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL,
      0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
    {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL,
      0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}},
};

/* The standard generator (ZCash / IETF pairing-friendly-curves draft):
 * x.c0 = 0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02
 *          b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8
 * x.c1 = 0x13e02b6052719f607dacd3a088274f65596bd0d09920b61a
 *          b5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e
 * y.c0 = 0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a7
 *          6d429a695160d12c923ac9cc3baca289e193548608b82801
 * y.c1 = 0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af
 *          267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be */
const g2_affine_t G2_GENERATOR = {
    {{{0xf5f28fa202940a10ULL, 0xb3f5fb2687b4961aULL, 0xa1a893b53e2ae580ULL, 0x9894999d1a3caee9ULL,
       0x6f67b7631863366bULL, 0x058191924350bcd7ULL}},
     {{0xa5a9c0759e23f606ULL, 0xaaa0c59dbccd60c3ULL, 0x3bb17e18e2867806ULL, 0x1b1ab6cc8541b367ULL,
       0xc2b6ed0ef2158547ULL, 0x11922a097360edf3ULL}}},
    {{{0x4c730af860494c4aULL, 0x597cfa1f5e369c5aULL, 0xe7e6856caa0a635aULL, 0xbbefb5e96e0d495fULL,
       0x07d3a975f0ef25a2ULL, 0x0083fd8e7e80dae5ULL}},
     {{0xadc0fc92df64b05dULL, 0x18aa270a2b1461dcULL, 0x86adac6a3be4eba0ULL, 0x79495c4ec93da33aULL,
       0xe7175850a43ccaedULL, 0x0b2bc2a163de1bf2ULL}}},
    false,
};

#define PT_(name) g2_##name
#define FE_(name) fp2_##name
#define FE_T fp2_t
#define FE_ZERO FP2_ZERO
#define FE_ONE FP2_ONE
#define FE_SIZE (2 * FP_BYTES)
#define CURVE_B G2_B

#define CURVE_ABS_X 0xd201000000010000ULL /* |x|, x = −0xd201000000010000 */

#include "curve/point_impl.h"
#include "curve/point_mul_impl.h"
#include "curve/point_codec_impl.h"

void g2_affine_psi(g2_affine_t *r, const g2_affine_t *a)
{
    /* PSI_X = c·u, so conj(x)·PSI_X = (x0 − x1·u)·c·u = x1·c + x0·c·u: 2 Fp M. */
    fp_t t;
    fp_mul(&t, &a->x.c1, &G2_PSI_X.c1);
    fp_mul(&r->x.c1, &a->x.c0, &G2_PSI_X.c1);
    r->x.c0 = t;
    fp2_conj(&r->y, &a->y);
    fp2_mul(&r->y, &r->y, &G2_PSI_Y);
    r->infinity = a->infinity;
}

bool g2_affine_in_subgroup(const g2_affine_t *a)
{
    /* Scott, "A note on group membership tests for G1, G2 and GT" (2021):
     * for BLS12 curves P ∈ G2 iff ψ(P) = [x]P, x = −|x|: one run of 63
     * doublings and 5 additions. */
    g2_jac_t t;
    g2_affine_t psi;
    affine_mul_abs_x(&t, a);
    g2_jac_neg(&t, &t);
    g2_affine_psi(&psi, a);
    return affine_eq_jac(&psi, &t);
}
