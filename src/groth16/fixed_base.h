#ifndef CUZK_GROTH16_FIXED_BASE_H
#define CUZK_GROTH16_FIXED_BASE_H

/* Fixed-base scalar multiplication for the development setups: many
 * scalars times one base (the G1 and G2 generators). A table holds
 * d·2^(w·k)·B for every window k and digit d in [1, 2^w), in affine form,
 * so one product costs one addition per nonzero window digit and no
 * doublings; the additions of a batch's products run in lockstep, in
 * affine coordinates with one shared inversion per window
 * (fixed_base_impl.h). Variable time in the scalars: the setups' toxic
 * waste goes through here, which is acceptable only because those setups
 * are for development. */

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "curve/g1.h"
#include "curve/g2.h"
#include "field/fr.h"

typedef struct g1_fixed_base {
    unsigned window;
    unsigned windows;
    g1_affine_t *table; /* windows × (2^window − 1) */
} g1_fixed_base_t;

typedef struct g2_fixed_base {
    unsigned window;
    unsigned windows;
    g2_affine_t *table;
} g2_fixed_base_t;

/* Progress of a long batch: `done` is incremented by the number of points
 * finished, from any worker thread. May be NULL. */
typedef struct fixed_base_progress {
    atomic_uint_fast64_t *done;
} fixed_base_progress;

/* The window for n products from one table: the w in [1, 12] that
 * minimises the additions, ⌈255/w⌉·(2^w − 1) to build the table plus
 * ⌈255/w⌉ per product. Capped at 12 bits, where the G2 table is 19 MB: 16
 * bits measured slower than 12 (table building, cache misses) for the
 * 330,000 products of a snarkjs key of 2^16 constraints. */
#define FIXED_BASE_MAX_WINDOW 12u
unsigned fixed_base_window(uint64_t n);

cuzk_status g1_fixed_base_init(g1_fixed_base_t *t, const g1_affine_t *base, unsigned window);
void g1_fixed_base_free(g1_fixed_base_t *t);
/* out[i] = scalars[i] · base for i < n, on `threads` threads (0: all CPUs). */
cuzk_status g1_fixed_base_mul_batch(g1_affine_t *out, const g1_fixed_base_t *t, const fr_t *scalars,
                                    size_t n, unsigned threads, atomic_uint_fast64_t *done);

cuzk_status g2_fixed_base_init(g2_fixed_base_t *t, const g2_affine_t *base, unsigned window);
void g2_fixed_base_free(g2_fixed_base_t *t);
cuzk_status g2_fixed_base_mul_batch(g2_affine_t *out, const g2_fixed_base_t *t, const fr_t *scalars,
                                    size_t n, unsigned threads, atomic_uint_fast64_t *done);

#endif
