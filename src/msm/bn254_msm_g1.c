/* MSM over BN254's G1: the template msm_impl.h instantiated with BN254's
 * G1 types and scalar field. The costs are BLS12-381 G1's (the same
 * formulas; only the field's width differs, which moves both sides of each
 * ratio alike). */
#include "msm/bn254_msm.h"

#define MSM_G(name) bn254_g1_##name
#define MSM_F(suffix) bn254_msm_g1##suffix
#define MSM_AFF bn254_g1_affine_t
#define MSM_JAC bn254_g1_jac_t
#define MSM_XYZZ bn254_g1_xyzz_t
#define MSM_FE(name) bn254_fp_##name
#define MSM_FE_T bn254_fp_t
#define MSM_BASE(name) bn254_fp_##name
#define MSM_BASE_T bn254_fp_t
#define MSM_BASE_ONE BN254_FP_ONE
#define MSM_FE_HAS_NORM 0
#define MSM_SC(name) bn254_fr_##name
#define MSM_SC_T bn254_fr_t
#define MSM_SC_ONE BN254_FR_ONE
#define MSM_SC_MODULUS BN254_FR_MODULUS
#define MSM_ADD_RATIO 1.38
#define MSM_AFFINE_MIN_POINTS MSM_G1_AFFINE_MIN_POINTS
#define MSM_AFFINE_POINT_COST 0.7
#define MSM_AFFINE_REDUCE_EXTRA 0.2
#include <stdbool.h>
#include <stdint.h>

#include "field/bn254_fp.h"
#include "msm/msm_internal.h"

/* BN254 G1's endomorphism φ(x, y) = (β·x, y) = [λ]P (β, λ cube roots of
 * unity in Fp and Fr) and the lattice {(a, b) : a + b·λ ≡ 0 mod r} with the
 * short basis v1 = (a1, −b1), v2 = (a2, b2) (a1, b1, a2, b2 > 0, det = r)
 * and the Babai constants g1 = round(b2·2^256/r), g2 = round(b1·2^256/r):
 * all computed and checked by tools/glv/bn254_glv_consts.py. */
const uint64_t BN254_GLV_BETA_RAW[4] = {0xe4bd44e5607cfd48ULL, 0xc28f069fbb966e3dULL,
                                        0x5e6dd9e7e0acccb0ULL, 0x30644e72e131a029ULL};
const uint64_t BN254_GLV_LAMBDA[4] = {0xb8ca0b2d36636f23ULL, 0xcc37a73fec2bc5e9ULL,
                                      0x048b6e193fd84104ULL, 0x30644e72e131a029ULL};
static const uint64_t BN254_GLV_A1[2] = {0x8211bbeb7d4f1128ULL, 0x6f4d8248eeb859fcULL};
static const uint64_t BN254_GLV_A2[2] = {0x89d3256894d213e3ULL, 0};
static const uint64_t BN254_GLV_B1[2] = {0x89d3256894d213e3ULL, 0};
static const uint64_t BN254_GLV_B2[2] = {0x0be4e1541221250bULL, 0x6f4d8248eeb859fdULL};
static const uint64_t BN254_GLV_G1[3] = {0x5398fd0300ff6565ULL, 0x4ccef014a773d2d2ULL, 0x2ULL};
static const uint64_t BN254_GLV_G2[3] = {0xd91d232ec7e0b3d7ULL, 0x2ULL, 0};

typedef unsigned __int128 bn254_u128;

static bn254_u128 bn254_glv_u128(const uint64_t v[2])
{
    return (bn254_u128)v[1] << 64 | v[0];
}

/* (k·g + 2^255) >> 256 for k < 2^256 and g below 2^(64·glen), glen <= 3,
 * when below 2^128 (as for k < r with the constants below): k·g/2^256
 * rounded to the nearest integer. */
static bn254_u128 bn254_glv_round(const uint64_t k[4], const uint64_t g[3], int glen)
{
    uint64_t prod[7] = {0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < glen; j++) {
            bn254_u128 m = (bn254_u128)k[i] * g[j] + prod[i + j] + carry;
            prod[i + j] = (uint64_t)m;
            carry = (uint64_t)(m >> 64);
        }
        prod[i + glen] = carry;
    }
    /* + 2^255: bit 63 of limb 3, the carry into limbs 4 and up. */
    uint64_t t = prod[3] + (UINT64_C(1) << 63);
    bn254_u128 hi = bn254_glv_u128(&prod[4]) + (t < prod[3]);
    return hi;
}

/* Babai's rounding (GLV, CRYPTO 2001, section 4): (k, 0) = β1·v1 + β2·v2
 * over Q with β1 = k·b2/r, β2 = k·b1/r; with c_i = round(β_i),
 * (k1, k2) = (k, 0) − c1·v1 − c2·v2 is a lattice translate of (k, 0), so
 * k1 + k2·λ ≡ k (mod r). g_i carry 2^-256 of error at most, so c_i is
 * within 3/4 of β_i and |k1| <= 3/4·(a1 + a2), |k2| <= 3/4·(b1 + b2), both
 * below 2^126.31 < 2^127: computing k1, k2 modulo 2^128 and reading them as
 * two's complement is exact. Requires k < r (then c1 <= b2, c2 <= b1). */
void bn254_glv_split(uint64_t k1[4], uint64_t k2[4], bool *neg1, bool *neg2, const uint64_t k[4])
{
    bn254_u128 c1 = bn254_glv_round(k, BN254_GLV_G1, 3);
    bn254_u128 c2 = bn254_glv_round(k, BN254_GLV_G2, 2); /* g2 < 2^66 */
    bn254_u128 s1 =
        bn254_glv_u128(k) - c1 * bn254_glv_u128(BN254_GLV_A1) - c2 * bn254_glv_u128(BN254_GLV_A2);
    bn254_u128 s2 = c1 * bn254_glv_u128(BN254_GLV_B1) - c2 * bn254_glv_u128(BN254_GLV_B2);
    *neg1 = (bool)(s1 >> 127);
    *neg2 = (bool)(s2 >> 127);
    if (*neg1)
        s1 = -s1;
    if (*neg2)
        s2 = -s2;
    k1[0] = (uint64_t)s1;
    k1[1] = (uint64_t)(s1 >> 64);
    k2[0] = (uint64_t)s2;
    k2[1] = (uint64_t)(s2 >> 64);
    k1[2] = k1[3] = k2[2] = k2[3] = 0;
}

/* β·2^256 mod p: β in the field's Montgomery form (test_bn254_msm.c checks
 * it against bn254_fp_from_raw(BN254_GLV_BETA_RAW)). */
const bn254_fp_t BN254_GLV_BETA = {
    {0x3350c88e13e80b9cULL, 0x7dce557cdb5e56b9ULL, 0x6001b4b8b615564aULL, 0x2682e617020217e0ULL}};

#define MSM_HAS_GLV 1
/* φ(P) = (β·x, y) = [λ]P: the hi point keeps y, and each half's sign
 * negates its point. */
#define MSM_GLV_MUL_BETA(r, a) bn254_fp_mul(r, a, &BN254_GLV_BETA)
#define MSM_GLV_SPLIT(k1, k2, neg1, neg2, k) bn254_glv_split(k1, k2, neg1, neg2, k)
/* One Fp product and the two roundings, over a mixed XYZZ addition: timed
 * at 0.12 of one (split, β product and madd in loops of 2^16), against
 * 0.09 for BLS12-381 G1's division and product, whose 0.2 (msm_g1.c) also
 * carries the copies of the points and scalars: scaled alike. */
#define MSM_GLV_POINT_COST 0.25
/* bench_msm bn254_g1 --endo on/off on a 2-core x86-64 box: the split
 * mostly wins by 10–25 % up to 2^13 points and 0–10 % at 2^14 and 2^15,
 * and not from 2^16 on (a loss of up to 10 % on 2 threads), where the model
 * still predicts 2–5 %: a cost it does not count, likely the memory
 * traffic of the 2n copies. */
#define MSM_GLV_AUTO_MAX ((size_t)1 << 15)

#include "msm/msm_impl.h"
