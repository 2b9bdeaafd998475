#ifndef CUZK_PAIRING_PAIRING_H
#define CUZK_PAIRING_PAIRING_H

/* The optimal ate pairing on BLS12-381, x = −0xd201000000010000, for P in
 * G1 and Q in G2 (points are assumed to be in their subgroups; decoding
 * checks that), in the form the BLS12-381 ecosystem computes it:
 *   e(P, Q) = f_{x,Q}(P)^(3(p^12 − 1)/r),
 * the cube of the textbook value, bit-for-bit equal to @noble/curves and
 * zkcrypto's bls12_381 (verifying keys store e(α, β) in this form). Since
 * gcd(3, r) = 1 it is a pairing just the same; final_exp_exact gives the
 * textbook power when that is needed.
 * By convention e(O, Q) = e(P, O) = 1: pairs with a point at infinity are
 * skipped. Constant time in the points apart from the infinity flags. */

#include <stdbool.h>
#include <stddef.h>

#include "curve/g1.h"
#include "curve/g2.h"
#include "field/fp12.h"

/* Lines of one Miller loop over |x|: 63 doublings and 5 additions. */
#define PAIRING_LINES 68

/* A G2 point's lines, independent of the G1 point: a line is
 * l0 + (l1·x_P) v + (l4·y_P) v w, and only l0, l1, l4 are stored. */
typedef struct g2_prepared {
    fp2_t l[PAIRING_LINES][3];
    bool infinity;
} g2_prepared_t;

/* r = e(p, q). */
void pairing(fp12_t *r, const g1_affine_t *p, const g2_affine_t *q);

/* The Miller loop alone (including the conjugation for negative x). */
void miller_loop(fp12_t *f, const g1_affine_t *p, const g2_affine_t *q);
/* Product of n Miller loops with one shared squaring per step; pairs with
 * either point at infinity are skipped (f = 1 when all are). */
void multi_miller_loop(fp12_t *f, const g1_affine_t *p, const g2_affine_t *q, size_t n);

/* r = f^(3(p^12 − 1)/r): easy part (p^6 − 1)(p^2 + 1), then the hard part
 * by the Hayashida–Hayasaka–Teruya chain (the value of pairing()). */
void final_exp(fp12_t *r, const fp12_t *f);
/* r = f^((p^12 − 1)/r), the textbook final exponent (about 5% slower). */
void final_exp_exact(fp12_t *r, const fp12_t *f);

/* True when Π e(p[i], q[i]) = 1, with one final exponentiation. */
bool pairing_product_is_one(const g1_affine_t *p, const g2_affine_t *q, size_t n);

/* Precomputed lines for a fixed G2 point (the verifier's γ and δ). */
void g2_prepare(g2_prepared_t *r, const g2_affine_t *q);
void multi_miller_loop_prepared(fp12_t *f, const g1_affine_t *p, const g2_prepared_t *const *q,
                                size_t n);
bool pairing_product_is_one_prepared(const g1_affine_t *p, const g2_prepared_t *const *q, size_t n);

#endif
