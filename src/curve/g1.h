#ifndef CUZK_CURVE_G1_H
#define CUZK_CURVE_G1_H

/* G1: the order-r subgroup of E(Fp): y² = x³ + 4.
 * Representations:
 *   affine   (x, y), with an explicit infinity flag;
 *   Jacobian (X, Y, Z):        x = X/Z²,  y = Y/Z³,   Z = 0 is infinity;
 *   XYZZ     (X, Y, ZZ, ZZZ):  x = X/ZZ,  y = Y/ZZZ,  ZZ³ = ZZZ², ZZ = 0 is
 *            infinity (the bucket representation of the MSM: cheapest
 *            mixed addition; formulas from the Explicit-Formulas Database,
 *            "xyzz" coordinates for short Weierstrass a = 0).
 * Functions without _var are constant time in their secret inputs.
 * Additions handle every special case (infinity, P = Q, P = −Q). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "field/fp.h"

#define G1_COMPRESSED_BYTES 48
#define G1_UNCOMPRESSED_BYTES 96

typedef struct g1_affine {
    fp_t x, y;
    bool infinity;
} g1_affine_t;

typedef struct g1_jac {
    fp_t x, y, z;
} g1_jac_t;

typedef struct g1_xyzz {
    fp_t x, y, zz, zzz;
} g1_xyzz_t;

extern const g1_affine_t G1_GENERATOR;

/* affine */
void g1_affine_set_infinity(g1_affine_t *r);
bool g1_affine_eq(const g1_affine_t *a, const g1_affine_t *b);
void g1_affine_neg(g1_affine_t *r, const g1_affine_t *a);
bool g1_affine_is_on_curve(const g1_affine_t *a);
/* Membership in the order-r subgroup by the endomorphism test
 * (Scott, "A note on group membership tests for G1, G2 and GT", 2021). */
bool g1_affine_in_subgroup(const g1_affine_t *a);
/* β, the cube root of unity of the endomorphism φ(x, y) = (βx, y), which acts
 * on G1 as multiplication by −x² (x the BLS parameter). */
extern const fp_t G1_BETA;
void g1_affine_phi(g1_affine_t *r, const g1_affine_t *a);

/* Jacobian */
void g1_jac_set_infinity(g1_jac_t *r);
bool g1_jac_is_infinity(const g1_jac_t *a);
void g1_jac_from_affine(g1_jac_t *r, const g1_affine_t *a);
void g1_jac_to_affine(g1_affine_t *r, const g1_jac_t *a);
/* One shared inversion (Montgomery's trick) for n points; public data only. */
void g1_jac_batch_to_affine(g1_affine_t *out, const g1_jac_t *in, size_t n);
bool g1_jac_eq(const g1_jac_t *a, const g1_jac_t *b);
void g1_jac_neg(g1_jac_t *r, const g1_jac_t *a);
void g1_jac_dbl(g1_jac_t *r, const g1_jac_t *a);
void g1_jac_add(g1_jac_t *r, const g1_jac_t *a, const g1_jac_t *b);
void g1_jac_add_mixed(g1_jac_t *r, const g1_jac_t *a, const g1_affine_t *b);
/* Variable time (branches on infinity, P = Q, P = −Q; add-2007-bl and
 * madd-2007-bl, one multiplication cheaper each), for public points. */
void g1_jac_add_var(g1_jac_t *r, const g1_jac_t *a, const g1_jac_t *b);
void g1_jac_add_mixed_var(g1_jac_t *r, const g1_jac_t *a, const g1_affine_t *b);

/* XYZZ */
void g1_xyzz_set_infinity(g1_xyzz_t *r);
bool g1_xyzz_is_infinity(const g1_xyzz_t *a);
void g1_xyzz_from_affine(g1_xyzz_t *r, const g1_affine_t *a);
void g1_xyzz_to_jac(g1_jac_t *r, const g1_xyzz_t *a);
void g1_xyzz_to_affine(g1_affine_t *r, const g1_xyzz_t *a);
void g1_xyzz_dbl(g1_xyzz_t *r, const g1_xyzz_t *a);
void g1_xyzz_add(g1_xyzz_t *r, const g1_xyzz_t *a, const g1_xyzz_t *b);
void g1_xyzz_add_mixed(g1_xyzz_t *r, const g1_xyzz_t *a, const g1_affine_t *b);
/* r = a − b (adds the negated affine point; MSM signed digits). */
void g1_xyzz_sub_mixed(g1_xyzz_t *r, const g1_xyzz_t *a, const g1_affine_t *b);
/* Variable time (branches on the special cases; add-2008-s and
 * madd-2008-s, one squaring cheaper each): the MSM bucket additions. */
void g1_xyzz_add_var(g1_xyzz_t *r, const g1_xyzz_t *a, const g1_xyzz_t *b);
void g1_xyzz_add_mixed_var(g1_xyzz_t *r, const g1_xyzz_t *a, const g1_affine_t *b);
void g1_xyzz_sub_mixed_var(g1_xyzz_t *r, const g1_xyzz_t *a, const g1_affine_t *b);

/* Scalar multiplication by a 256-bit scalar k (little-endian 64-bit limbs,
 * any value, not reduced mod r). g1_jac_mul: constant time (fixed window,
 * masked table lookups), for secret scalars. g1_jac_mul_var: windowed
 * signed-digit (wNAF), for public scalars. */
void g1_jac_mul(g1_jac_t *r, const g1_jac_t *p, const uint64_t k[4]);
void g1_jac_mul_var(g1_jac_t *r, const g1_jac_t *p, const uint64_t k[4]);

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
