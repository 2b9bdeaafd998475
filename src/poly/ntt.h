#ifndef CUZK_POLY_NTT_H
#define CUZK_POLY_NTT_H

/* Number-theoretic transforms over Fr on a domain of size n = 2^k, in place.
 *
 * Forward: coefficients -> evaluations, y_i = sum_j x_j w^(ij).
 * Inverse: evaluations -> coefficients, including the 1/n scaling.
 * Coset:   forward evaluates at g w^i (coefficient j multiplied by g^j, then
 *          the forward transform); inverse undoes it (inverse transform, then
 *          coefficient j multiplied by g^-j). g is the domain's shift (7).
 * Orders name the layout of input then output: N natural, R bit-reversed
 * (element i stored at position brv_k(i)). NR and RN are the native
 * transforms; NN and RR add one bit-reversal pass.
 *
 * All functions run on `threads` threads (0 = all CPUs) and give the same
 * bits for every thread count. */

#include <stddef.h>

#include "field/fr.h"
#include "poly/domain.h"

typedef enum ntt_order {
    NTT_NN, /* natural in, natural out */
    NTT_NR, /* natural in, bit-reversed out */
    NTT_RN, /* bit-reversed in, natural out */
    NTT_RR  /* bit-reversed in, bit-reversed out */
} ntt_order;

typedef enum ntt_direction { NTT_FORWARD, NTT_INVERSE } ntt_direction;

typedef enum ntt_coset { NTT_STANDARD, NTT_COSET } ntt_coset;

/* Layout of one vector. */
typedef enum ntt_layout { NTT_NATURAL, NTT_BIT_REVERSED } ntt_layout;

/* The full transform: a has d->n elements. */
void ntt_transform(fr_t *a, const domain_t *d, ntt_order order, ntt_direction dir, ntt_coset coset,
                   unsigned threads);

/* The same with an arbitrary nonzero coset shift s: forward evaluates at
 * s w^i, inverse maps such evaluations back to coefficients. shift NULL is
 * the standard transform. */
void ntt_transform_shift(fr_t *a, const domain_t *d, ntt_order order, ntt_direction dir,
                         const fr_t *shift, unsigned threads);

/* Bit-reversal permutation of a[0 .. n), n a power of two: a[i] <-> a[brv(i)]. */
void ntt_bit_reverse(fr_t *a, size_t n, unsigned threads);

/* Building blocks for fused pipelines (poly_h.c), without the 1/n scaling
 * and without any coset:
 *  ntt_raw_nr: natural -> bit-reversed, Cooley-Tukey butterflies;
 *  ntt_raw_rn: bit-reversed -> natural, Gentleman-Sande butterflies.
 * NTT_INVERSE uses w^-1, so ntt_raw_rn(INVERSE) after ntt_raw_nr(FORWARD)
 * multiplies the input by n. */
void ntt_raw_nr(fr_t *a, const domain_t *d, ntt_direction dir, unsigned threads);
void ntt_raw_rn(fr_t *a, const domain_t *d, ntt_direction dir, unsigned threads);

/* a[pos(i)] *= start * ratio^i for i < n, pos(i) = i (NTT_NATURAL) or
 * brv(i) (NTT_BIT_REVERSED); n a power of two. One pass: the coset shift
 * and the 1/n scaling folded together. */
void ntt_scale_powers(fr_t *a, size_t n, ntt_layout layout, const fr_t *start, const fr_t *ratio,
                      unsigned threads);

#endif
