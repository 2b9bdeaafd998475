#ifndef CUZK_POLY_NTT_H
#define CUZK_POLY_NTT_H

/* Number-theoretic transforms over Fr on a domain of size n = 2^k, in place
 * (BLS12-381's Fr here; BN254's in bn254_ntt.h, the same implementation,
 * ntt_impl.h).
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

#define ND_(name) ntt_##name
#define ND_FE_T fr_t
#define ND_DOMAIN_T domain_t
#include "poly/ntt_decl.h"

#endif
