#ifndef CUZK_CURVE_BN254_CURVE_H
#define CUZK_CURVE_BN254_CURVE_H

/* The groups of BN254 (circom's and snarkjs's "bn128"):
 *   G1 = E(Fp): y² = x³ + 3 (cofactor 1: every point of E(Fp) is in G1);
 *   G2 = the order-r subgroup of the D-type sextic twist E'(Fp2):
 *        y² = x³ + 3/ξ, ξ = 9 + u.
 * The point types and the group law are those of BLS12-381's (point_decl.h)
 * with the prefixes bn254_g1_ and bn254_g2_, instantiated from the same
 * templates in bn254_g1.c and bn254_g2.c. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "field/bn254_tower.h"

/* Uncompressed affine encodings (bn254_*_affine_to_bytes): big-endian
 * coordinates in snarkjs's order, G1 x ‖ y, G2 x.c0 ‖ x.c1 ‖ y.c0 ‖ y.c1;
 * the point at infinity is all zeros. */
#define BN254_G1_BYTES (2 * BN254_FP_BYTES)
#define BN254_G2_BYTES (4 * BN254_FP_BYTES)

#define PD_(name) bn254_g1_##name
#define PD_FE_T bn254_fp_t
#include "curve/point_decl.h"

#define PD_(name) bn254_g2_##name
#define PD_FE_T bn254_fp2_t
#include "curve/point_decl.h"

/* The generators of EIP-196/197 and snarkjs: G1 (1, 2); G2 the point whose
 * coordinates bn254_g2.c spells out. */
extern const bn254_g1_affine_t BN254_G1_GENERATOR;
extern const bn254_g2_affine_t BN254_G2_GENERATOR;
/* b' = 3/ξ, the b of the twist. */
extern const bn254_fp2_t BN254_G2_B;

/* Membership in the order-r subgroup: G1 has cofactor 1, so this is the
 * curve equation; G2 checks [r]P = O (variable time; public points). */
bool bn254_g1_affine_in_subgroup(const bn254_g1_affine_t *a);
bool bn254_g2_affine_in_subgroup(const bn254_g2_affine_t *a);

void bn254_g1_affine_to_bytes(uint8_t out[BN254_G1_BYTES], const bn254_g1_affine_t *a);
void bn254_g2_affine_to_bytes(uint8_t out[BN254_G2_BYTES], const bn254_g2_affine_t *a);
/* Decodes the uncompressed encoding. Checks, in order: length, coordinates
 * < p, on the curve, and (when check_subgroup) in the order-r subgroup; each
 * failure has its own status, and r is left at infinity. All zeros is the
 * point at infinity. */
cuzk_status bn254_g1_affine_decode(bn254_g1_affine_t *r, const uint8_t *in, size_t len,
                                   bool check_subgroup);
cuzk_status bn254_g2_affine_decode(bn254_g2_affine_t *r, const uint8_t *in, size_t len,
                                   bool check_subgroup);

/* The same in the layout of snarkjs's zkey files: each Fp the little-endian
 * bytes of its Montgomery limbs (x·2^256 mod p), same order, same checks. */
void bn254_g1_affine_to_zkey(uint8_t out[BN254_G1_BYTES], const bn254_g1_affine_t *a);
void bn254_g2_affine_to_zkey(uint8_t out[BN254_G2_BYTES], const bn254_g2_affine_t *a);
cuzk_status bn254_g1_affine_decode_zkey(bn254_g1_affine_t *r, const uint8_t *in, size_t len,
                                        bool check_subgroup);
cuzk_status bn254_g2_affine_decode_zkey(bn254_g2_affine_t *r, const uint8_t *in, size_t len,
                                        bool check_subgroup);

#endif
