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
 * Either coset gives the same h for a satisfied system. BN254's Fr has the
 * same functions (bn254_quotient.h), from the same implementation
 * (quotient_impl.h). */

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/status.h"
#include "field/fr.h"
#include "poly/domain.h"

typedef enum poly_h_coset {
    POLY_H_COSET_GENERATOR, /* shift by g = 7 (bellman) */
    POLY_H_COSET_2N_ROOT    /* shift by w_2n (snarkjs) */
} poly_h_coset;

#define QD_(name) poly_##name
#define QD_FE_T fr_t
#define QD_DOMAIN_T domain_t
#include "poly/quotient_decl.h"

#endif
