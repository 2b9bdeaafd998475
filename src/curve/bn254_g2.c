/* BN254 G2: the order-r subgroup of the D-type sextic twist E'(Fp2):
 * y² = x³ + 3/ξ, ξ = 9 + u. The group law, scalar multiplication and the
 * plain affine encoding are the shared templates instantiated over BN254's
 * Fp2; constants in Montgomery form, each Fp2 written {c0, c1}. */

#include "curve/bn254_curve.h"

#include <string.h>

#include "field/bn254_fr.h"

/* b = 3/(9 + u) */
const bn254_fp2_t BN254_G2_B = {
    {{0x3bf938e377b802a8ULL, 0x020b1b273633535dULL, 0x26b7edf049755260ULL, 0x2514c6324384a86dULL}},
    {{0x38e7ecccd1dcff67ULL, 0x65f0b37d93ce0d3eULL, 0xd749d0dd22ac00aaULL, 0x0141b9ce4a688d4dULL}},
};

/* The generator of EIP-197 and snarkjs:
 * x.c0 = 0x1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed
 * x.c1 = 0x198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2
 * y.c0 = 0x12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa
 * y.c1 = 0x090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b */
const bn254_g2_affine_t BN254_G2_GENERATOR = {
    {{{0x8e83b5d102bc2026ULL, 0xdceb1935497b0172ULL, 0xfbb8264797811adfULL, 0x19573841af96503bULL}},
     {{0xafb4737da84c6140ULL, 0x6043dd5a5802d8c4ULL, 0x09e950fc52a02f86ULL,
       0x14fef0833aea7b6bULL}}},
    {{{0x619dfa9d886be9f6ULL, 0xfe7fd297f59e9b78ULL, 0xff9e1a62231b7dfeULL, 0x28fd7eebae9e4206ULL}},
     {{0x64095b56c71856eeULL, 0xdc57f922327d3cbbULL, 0x55f935be33351076ULL,
       0x0da4a0e693fd6482ULL}}},
    false,
};

/* An Fp2 coordinate as snarkjs orders it, c0 then c1, each as big-endian
 * integer or as the zkey's little-endian Montgomery limbs. */
#define FP2_CODEC(name, to_fp, from_fp)                                                            \
    static void name##_to(uint8_t out[2 * BN254_FP_BYTES], const bn254_fp2_t *a)                   \
    {                                                                                              \
        to_fp(out, &a->c0);                                                                        \
        to_fp(out + BN254_FP_BYTES, &a->c1);                                                       \
    }                                                                                              \
    static bool name##_from(bn254_fp2_t *r, const uint8_t in[2 * BN254_FP_BYTES])                  \
    {                                                                                              \
        bool ok = from_fp(&r->c0, in);                                                             \
        return from_fp(&r->c1, in + BN254_FP_BYTES) & ok;                                          \
    }
FP2_CODEC(fp2_be, bn254_fp_to_bytes_be, bn254_fp_from_bytes_be)
FP2_CODEC(fp2_zkey, bn254_fp_to_mont_bytes_le, bn254_fp_from_mont_bytes_le)

#define PT_(name) bn254_g2_##name
#define FE_(name) bn254_fp2_##name
#define FE_T bn254_fp2_t
#define FE_ZERO BN254_FP2_ZERO
#define FE_ONE BN254_FP2_ONE
#define FE_SIZE (2 * BN254_FP_BYTES)
#define CURVE_B BN254_G2_B

#include "curve/point_impl.h"
#include "curve/point_mul_impl.h"

#define CODEC_TO bn254_g2_affine_to_bytes
#define CODEC_DECODE bn254_g2_affine_decode
#define COORD_TO fp2_be_to
#define COORD_FROM fp2_be_from
#include "curve/point_codec_plain_impl.h"

#define CODEC_TO bn254_g2_affine_to_zkey
#define CODEC_DECODE bn254_g2_affine_decode_zkey
#define COORD_TO fp2_zkey_to
#define COORD_FROM fp2_zkey_from
#include "curve/point_codec_plain_impl.h"

bool bn254_g2_affine_in_subgroup(const bn254_g2_affine_t *a)
{
    /* The twist has order r·c with c = 2p − r, so a point of E'(Fp2) is in
     * G2 iff [r]P = O. */
    bn254_g2_jac_t t;
    bn254_g2_jac_from_affine(&t, a);
    bn254_g2_jac_mul_var(&t, &t, BN254_FR_MODULUS);
    return bn254_g2_jac_is_infinity(&t);
}
