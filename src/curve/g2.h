#ifndef CUZK_CURVE_G2_H
#define CUZK_CURVE_G2_H

/* G2: the order-r subgroup of the sextic twist E'(Fp2): y² = x³ + 4(u + 1).
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
#include "field/fp2.h"

#define G2_COMPRESSED_BYTES 96
#define G2_UNCOMPRESSED_BYTES 192

typedef struct g2_affine {
    fp2_t x, y;
    bool infinity;
} g2_affine_t;

typedef struct g2_jac {
    fp2_t x, y, z;
} g2_jac_t;

typedef struct g2_xyzz {
    fp2_t x, y, zz, zzz;
} g2_xyzz_t;

extern const g2_affine_t G2_GENERATOR;

/* affine */
void g2_affine_set_infinity(g2_affine_t *r);
bool g2_affine_eq(const g2_affine_t *a, const g2_affine_t *b);
void g2_affine_neg(g2_affine_t *r, const g2_affine_t *a);
bool g2_affine_is_on_curve(const g2_affine_t *a);
/* Membership in the order-r subgroup by the endomorphism test
 * ψ(P) = [x]P (Scott, "A note on group membership tests for G1, G2 and GT", 2021). */
bool g2_affine_in_subgroup(const g2_affine_t *a);
/* ψ(x, y) = (conj(x)·G2_PSI_X, conj(y)·G2_PSI_Y), untwist-Frobenius-twist,
 * which acts on G2 as multiplication by x (x ≡ p mod r). */
extern const fp2_t G2_PSI_X;
extern const fp2_t G2_PSI_Y;
void g2_affine_psi(g2_affine_t *r, const g2_affine_t *a);

/* Jacobian */
void g2_jac_set_infinity(g2_jac_t *r);
bool g2_jac_is_infinity(const g2_jac_t *a);
void g2_jac_from_affine(g2_jac_t *r, const g2_affine_t *a);
void g2_jac_to_affine(g2_affine_t *r, const g2_jac_t *a);
/* One shared inversion (Montgomery's trick) for n points; public data only. */
void g2_jac_batch_to_affine(g2_affine_t *out, const g2_jac_t *in, size_t n);
bool g2_jac_eq(const g2_jac_t *a, const g2_jac_t *b);
void g2_jac_neg(g2_jac_t *r, const g2_jac_t *a);
void g2_jac_dbl(g2_jac_t *r, const g2_jac_t *a);
void g2_jac_add(g2_jac_t *r, const g2_jac_t *a, const g2_jac_t *b);
void g2_jac_add_mixed(g2_jac_t *r, const g2_jac_t *a, const g2_affine_t *b);
/* Variable time (branches on infinity, P = Q, P = −Q; add-2007-bl and
 * madd-2007-bl, one multiplication cheaper each), for public points. */
void g2_jac_add_var(g2_jac_t *r, const g2_jac_t *a, const g2_jac_t *b);
void g2_jac_add_mixed_var(g2_jac_t *r, const g2_jac_t *a, const g2_affine_t *b);

/* XYZZ */
void g2_xyzz_set_infinity(g2_xyzz_t *r);
bool g2_xyzz_is_infinity(const g2_xyzz_t *a);
void g2_xyzz_from_affine(g2_xyzz_t *r, const g2_affine_t *a);
void g2_xyzz_to_jac(g2_jac_t *r, const g2_xyzz_t *a);
void g2_xyzz_to_affine(g2_affine_t *r, const g2_xyzz_t *a);
void g2_xyzz_dbl(g2_xyzz_t *r, const g2_xyzz_t *a);
void g2_xyzz_add(g2_xyzz_t *r, const g2_xyzz_t *a, const g2_xyzz_t *b);
void g2_xyzz_add_mixed(g2_xyzz_t *r, const g2_xyzz_t *a, const g2_affine_t *b);
/* r = a − b (adds the negated affine point; MSM signed digits). */
void g2_xyzz_sub_mixed(g2_xyzz_t *r, const g2_xyzz_t *a, const g2_affine_t *b);
/* Variable time (branches on the special cases; add-2008-s and
 * madd-2008-s, one squaring cheaper each): the MSM bucket additions. */
void g2_xyzz_add_var(g2_xyzz_t *r, const g2_xyzz_t *a, const g2_xyzz_t *b);
void g2_xyzz_add_mixed_var(g2_xyzz_t *r, const g2_xyzz_t *a, const g2_affine_t *b);
void g2_xyzz_sub_mixed_var(g2_xyzz_t *r, const g2_xyzz_t *a, const g2_affine_t *b);

/* Scalar multiplication by a 256-bit scalar k (little-endian 64-bit limbs,
 * any value, not reduced mod r). g2_jac_mul: constant time (fixed window,
 * masked table lookups), for secret scalars. g2_jac_mul_var: windowed
 * signed-digit (wNAF), for public scalars. */
void g2_jac_mul(g2_jac_t *r, const g2_jac_t *p, const uint64_t k[4]);
void g2_jac_mul_var(g2_jac_t *r, const g2_jac_t *p, const uint64_t k[4]);

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
