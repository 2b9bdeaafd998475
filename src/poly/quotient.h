#ifndef CUZK_POLY_QUOTIENT_H
#define CUZK_POLY_QUOTIENT_H

/* The Groth16 quotient polynomial
 *   h(x) = (a(x) b(x) - c(x)) / Z(x),   Z(x) = x^n - 1,
 * where a, b, c interpolate the vectors A w, B w, C w over the domain
 * (constraint i at w^i). For a satisfied system Z divides a b - c and
 * deg h <= n - 2. The division happens on a coset s<w> where Z is the
 * constant s^n - 1 (Groth16 as implemented by bellman, src/groth16/prover.rs;
 * snarkjs src/groth16_prove.js):
 *   iNTT(a, b, c) -> multiply coefficient j by s^j -> NTT
 *   -> a b - c pointwise -> divide by s^n - 1 -> coset iNTT.
 *
 * Cosets:
 *  POLY_H_COSET_GENERATOR: s = g = 7, Z = 7^n - 1 (bellman, bellperson).
 *  POLY_H_COSET_2N_ROOT:   s = w_2n, a primitive 2n-th root of unity with
 *      w_2n^2 = w, so the coset is the odd powers of w_2n and
 *      Z = w_2n^n - 1 = -1 - 1 = -2 (snarkjs; needs log_n <= 31). With
 *      DOMAIN_ROOTS_SNARKJS, entry i of the coset evaluations is at
 *      w_2n^(2i+1), the point the zkey's H section is paired with.
 * Either coset gives the same h for a satisfied system. */

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/status.h"
#include "field/fr.h"
#include "poly/domain.h"

typedef enum poly_h_coset {
    POLY_H_COSET_GENERATOR, /* shift by g = 7 (bellman) */
    POLY_H_COSET_2N_ROOT    /* shift by w_2n (snarkjs) */
} poly_h_coset;

/* Computes the coefficients of h.
 * In:  a, b, c: d->n-element buffers whose first m entries hold the
 *      evaluations of A w, B w, C w on the domain, natural order; entries
 *      [m, n) are ignored (treated as zero: they are cleared here).
 * Out: a = h_0 .. h_{n-1} in natural order. The prover uses h_0 .. h_{n-2};
 *      h_{n-1} is zero for a satisfied system (poly_h_top_is_zero).
 *      b and c are clobbered (used as scratch). Nothing is allocated.
 * Returns CUZK_OK, or CUZK_ERR_INVALID_ARGUMENT when m > n or the 2n-th
 * root coset is asked of a domain of size 2^32. */
cuzk_status poly_compute_h(fr_t *a, fr_t *b, fr_t *c, size_t m, const domain_t *d,
                           poly_h_coset coset, unsigned threads);

/* The first half of poly_compute_h: a_i = a(s w^i) b(s w^i) - c(s w^i) for
 * i < n, natural order, not divided by Z. snarkjs's prover multiplies these
 * directly with the zkey's H points. Same buffers and returns as above. */
cuzk_status poly_h_coset_evals(fr_t *a, fr_t *b, fr_t *c, size_t m, const domain_t *d,
                               poly_h_coset coset, unsigned threads);

/* True when h_{n-1} = 0. Necessary for a satisfied system, not sufficient:
 * the computed h_{n-1} equals (1/(n Z)) sum_i e_i w^i, e_i = a_i b_i - c_i,
 * so one violated constraint always shows, but several can cancel. */
bool poly_h_top_is_zero(const fr_t *h, const domain_t *d);

#endif
