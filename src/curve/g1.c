/* G1 = the order-r subgroup of E(Fp): y² = x³ + 4. The group law, scalar
 * multiplication and encodings are the shared templates point_*_impl.h
 * instantiated over Fp; this file holds the constants, the endomorphism φ
 * and the subgroup test. Constants are in Montgomery form (a·2^384 mod p). */

#include "curve/g1.h"

#include <string.h>

/* b = 4 */
static const fp_t G1_B = {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL,
                           0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}};

/* β = 0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe,
 * the primitive cube root of unity in Fp for which φ(x, y) = (βx, y) acts on
 * G1 as [−x²] (x the BLS parameter); the other root, β², gives [x² − 1]. */
const fp_t G1_BETA = {{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL,
                       0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}};

/* The standard generator (ZCash / IETF pairing-friendly-curves draft):
 * x = 0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905
 *       a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb
 * y = 0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af6
 *       00db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1 */
const g1_affine_t G1_GENERATOR = {
    {{0x5cb38790fd530c16ULL, 0x7817fc679976fff5ULL, 0x154f95c7143ba1c1ULL, 0xf0ae6acdf3d0e747ULL,
      0xedce6ecc21dbf440ULL, 0x120177419e0bfb75ULL}},
    {{0xbaac93d50ce72271ULL, 0x8c22631a7918fd8eULL, 0xdd595f13570725ceULL, 0x51ac582950405194ULL,
      0x0e1c8c3fad0059c0ULL, 0x0bbc3efc5008a26aULL}},
    false,
};

#define PT_(name) g1_##name
#define FE_(name) fp_##name
#define FE_T fp_t
#define FE_ZERO FP_ZERO
#define FE_ONE FP_ONE
#define FE_SIZE FP_BYTES
#define CURVE_B G1_B

#define CURVE_ABS_X 0xd201000000010000ULL /* |x|, x = −0xd201000000010000 */

#include "curve/point_impl.h"
#include "curve/point_mul_impl.h"
#include "curve/point_codec_impl.h"

void g1_affine_phi(g1_affine_t *r, const g1_affine_t *a)
{
    fp_mul(&r->x, &a->x, &G1_BETA);
    r->y = a->y;
    r->infinity = a->infinity;
}

bool g1_affine_in_subgroup(const g1_affine_t *a)
{
    /* Scott, "A note on group membership tests for G1, G2 and GT" (2021):
     * for BLS12 curves P ∈ G1 iff φ(P) = [−x²]P. [x²]P = [|x|]([|x|]P):
     * 126 doublings and 10 additions, about half the cost of [r]P. */
    g1_jac_t t;
    g1_affine_t phi;
    affine_mul_abs_x(&t, a);
    jac_mul_abs_x(&t, &t);
    g1_jac_neg(&t, &t);
    g1_affine_phi(&phi, a);
    return affine_eq_jac(&phi, &t);
}
