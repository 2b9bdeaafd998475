#ifndef CUZK_PAIRING_BN254_PAIRING_H
#define CUZK_PAIRING_BN254_PAIRING_H

/* The optimal ate pairing on BN254 (x = 4965661367192848881), for P in G1
 * and Q in G2 (points are assumed to be in their subgroups; decoding
 * checks that):
 *   e(P, Q) = (f_{6x+2,Q}(P) · l_{T,π(Q)}(P) · l_{T+π(Q),−π²(Q)}(P))^(k(p^12 − 1)/r),
 * k = 2x(6x² + 3x + 1), in the form the BN254 ecosystem computes it:
 * bit-for-bit equal to @noble/curves and to snarkjs (a verification key's
 * vk_alphabeta_12 is e(α, β) in this form). Since gcd(k, r) = 1 it is a
 * pairing just the same; bn254_final_exp_exact gives the textbook power
 * (k = 1). A product of pairings equals 1 under either, so the check of
 * EIP-197 and of the snarkjs verifier is the same.
 * By convention e(O, Q) = e(P, O) = 1: pairs with a point at infinity are
 * skipped. For verification: constant time is not a goal here. */

#include <stdbool.h>
#include <stddef.h>

#include "curve/bn254_curve.h"
#include "field/bn254_tower.h"

/* r = e(p, q). */
void bn254_pairing(bn254_fp12_t *r, const bn254_g1_affine_t *p, const bn254_g2_affine_t *q);

/* Product of n Miller loops (with the two Frobenius lines each) sharing
 * the squarings of f; f = 1 when every pair has a point at infinity. */
void bn254_multi_miller_loop(bn254_fp12_t *f, const bn254_g1_affine_t *p,
                             const bn254_g2_affine_t *q, size_t n);

/* r = f^(k(p^12 − 1)/r): the easy part (p^6 − 1)(p^2 + 1), then the hard
 * part k(p^4 − p^2 + 1)/r by the chain of Fuentes-Castañeda et al. (the
 * value of bn254_pairing). */
void bn254_final_exp(bn254_fp12_t *r, const bn254_fp12_t *f);
/* r = f^((p^12 − 1)/r), the textbook final exponent (Scott et al.'s chain). */
void bn254_final_exp_exact(bn254_fp12_t *r, const bn254_fp12_t *f);

/* True when Π e(p[i], q[i]) = 1, with one final exponentiation (the
 * Groth16 check e(A, B) = e(α, β) e(L, γ) e(C, δ) as a product with −A). */
bool bn254_pairing_product_is_one(const bn254_g1_affine_t *p, const bn254_g2_affine_t *q, size_t n);

#endif
