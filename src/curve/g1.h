#ifndef CUZK_CURVE_G1_H
#define CUZK_CURVE_G1_H

/* G1: the order-r subgroup of E(Fp): y² = x³ + 4.
 * The point types and the group law are declared by point_decl.h. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "field/fp.h"

#define G1_COMPRESSED_BYTES 48
#define G1_UNCOMPRESSED_BYTES 96

#define PD_(name) g1_##name
#define PD_FE_T fp_t
#include "curve/point_decl.h"

extern const g1_affine_t G1_GENERATOR;

/* Membership in the order-r subgroup by the endomorphism test
 * (Scott, "A note on group membership tests for G1, G2 and GT", 2021). */
bool g1_affine_in_subgroup(const g1_affine_t *a);
/* β, the cube root of unity of the endomorphism φ(x, y) = (βx, y), which acts
 * on G1 as multiplication by −x² (x the BLS parameter). */
extern const fp_t G1_BETA;
void g1_affine_phi(g1_affine_t *r, const g1_affine_t *a);

/* ZCash BLS12-381 encodings: the top three bits of the first byte are the
 * flags (compressed, infinity, sign of y: lexicographically largest). */
void g1_affine_to_compressed(uint8_t out[G1_COMPRESSED_BYTES], const g1_affine_t *a);
void g1_affine_to_uncompressed(uint8_t out[G1_UNCOMPRESSED_BYTES], const g1_affine_t *a);
/* Decodes a 48-byte compressed or 96-byte uncompressed encoding (chosen by
 * len, checked against the compression flag). Checks, in order: length,
 * flags, infinity canonical, coordinates < p, on the curve, and (when
 * check_subgroup) in the order-r subgroup. Each failure has its own status. */
cuzk_status g1_affine_decode(g1_affine_t *r, const uint8_t *in, size_t len, bool check_subgroup);

#endif
