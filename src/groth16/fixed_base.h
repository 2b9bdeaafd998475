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
#include "curve/bn254_curve.h"
#include "curve/g1.h"
#include "curve/g2.h"
#include "field/bn254_fr.h"
#include "field/fr.h"

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

#define FBD_(name) g1_##name
#define FBD_AFF_T g1_affine_t
#define FBD_SC_T fr_t
#include "groth16/fixed_base_decl.h"

#define FBD_(name) g2_##name
#define FBD_AFF_T g2_affine_t
#define FBD_SC_T fr_t
#include "groth16/fixed_base_decl.h"

/* BN254's groups, over its scalar field (bn254_fr_t scalars). */
#define FBD_(name) bn254_g1_##name
#define FBD_AFF_T bn254_g1_affine_t
#define FBD_SC_T bn254_fr_t
#include "groth16/fixed_base_decl.h"

#define FBD_(name) bn254_g2_##name
#define FBD_AFF_T bn254_g2_affine_t
#define FBD_SC_T bn254_fr_t
#include "groth16/fixed_base_decl.h"

#endif
