/* BN254 G1 = E(Fp): y² = x³ + 3, cofactor 1. The group law, scalar
 * multiplication and the plain affine encoding are the shared templates
 * instantiated over BN254's Fp; constants in Montgomery form (a·2^256 mod p). */

#include "curve/bn254_curve.h"

#include <string.h>

/* b = 3 */
static const bn254_fp_t BN254_G1_B = {
    {0x7a17caa950ad28d7ULL, 0x1f6ac17ae15521b9ULL, 0x334bea4e696bd284ULL, 0x2a1f6744ce179d8eULL}};

/* (1, 2) */
const bn254_g1_affine_t BN254_G1_GENERATOR = {
    {{0xd35d438dc58f0d9dULL, 0x0a78eb28f5c70b3dULL, 0x666ea36f7879462cULL, 0x0e0a77c19a07df2fULL}},
    {{0xa6ba871b8b1e1b3aULL, 0x14f1d651eb8e167bULL, 0xccdd46def0f28c58ULL, 0x1c14ef83340fbe5eULL}},
    false,
};

#define PT_(name) bn254_g1_##name
#define FE_(name) bn254_fp_##name
#define FE_T bn254_fp_t
#define FE_ZERO BN254_FP_ZERO
#define FE_ONE BN254_FP_ONE
#define FE_SIZE BN254_FP_BYTES
#define CURVE_B BN254_G1_B

#include "curve/point_impl.h"
#include "curve/point_mul_impl.h"

#define CODEC_TO bn254_g1_affine_to_bytes
#define CODEC_DECODE bn254_g1_affine_decode
#define COORD_TO bn254_fp_to_bytes_be
#define COORD_FROM bn254_fp_from_bytes_be
#include "curve/point_codec_plain_impl.h"

#define CODEC_TO bn254_g1_affine_to_zkey
#define CODEC_DECODE bn254_g1_affine_decode_zkey
#define COORD_TO bn254_fp_to_mont_bytes_le
#define COORD_FROM bn254_fp_from_mont_bytes_le
#include "curve/point_codec_plain_impl.h"

bool bn254_g1_affine_in_subgroup(const bn254_g1_affine_t *a)
{
    return bn254_g1_affine_is_on_curve(a);
}
