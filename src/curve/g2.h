#ifndef CUZK_CURVE_G2_H
#define CUZK_CURVE_G2_H

/* G2: the order-r subgroup of the sextic twist E'(Fp2): y² = x³ + 4(u + 1).
 * The point types and the group law are declared by point_decl.h. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "field/fp2.h"

#define G2_COMPRESSED_BYTES 96
#define G2_UNCOMPRESSED_BYTES 192

#define PD_(name) g2_##name
#define PD_FE_T fp2_t
#include "curve/point_decl.h"

extern const g2_affine_t G2_GENERATOR;

/* Membership in the order-r subgroup by the endomorphism test
 * ψ(P) = [x]P (Scott, "A note on group membership tests for G1, G2 and GT", 2021). */
bool g2_affine_in_subgroup(const g2_affine_t *a);
/* ψ(x, y) = (conj(x)·G2_PSI_X, conj(y)·G2_PSI_Y), untwist-Frobenius-twist,
 * which acts on G2 as multiplication by x (x ≡ p mod r). */
extern const fp2_t G2_PSI_X;
extern const fp2_t G2_PSI_Y;
void g2_affine_psi(g2_affine_t *r, const g2_affine_t *a);

/* ZCash BLS12-381 encodings: the top three bits of the first byte are the
 * flags (compressed, infinity, sign of y: lexicographically largest). */
void g2_affine_to_compressed(uint8_t out[G2_COMPRESSED_BYTES], const g2_affine_t *a);
void g2_affine_to_uncompressed(uint8_t out[G2_UNCOMPRESSED_BYTES], const g2_affine_t *a);
/* Decodes a 96-byte compressed or 192-byte uncompressed encoding (chosen by
 * len, checked against the compression flag). Checks, in order: length,
 * flags, infinity canonical, every coordinate component < p, on the curve, and (when
 * check_subgroup) in the order-r subgroup. Each failure has its own status. */
cuzk_status g2_affine_decode(g2_affine_t *r, const uint8_t *in, size_t len, bool check_subgroup);

#endif
