#ifndef CUZK_MSM_MSM_H
#define CUZK_MSM_MSM_H

/* Multi-scalar multiplication on the CPU: out = Σ [k_i] P_i over G1 or G2.
 *
 * Algorithm (Pippenger's bucket method; the plan and its cost model are in
 * msm_internal.h):
 *  - scalars are recoded into ceil(256/c) signed c-bit digits in
 *    [−(2^(c−1) − 1), 2^(c−1)], so each window has 2^(c−1) buckets and a
 *    negative digit adds the negated point;
 *  - up to mid sizes, where the cost model finds it cheaper, each scalar
 *    is split by the endomorphism [x²]P = (β·x, −y) into two of 128 bits
 *    (msm_internal.h): 2n points, half the windows;
 *  - small MSMs keep XYZZ buckets filled by mixed (affine) additions; large
 *    ones keep affine buckets filled by batches of independent affine
 *    additions that share one field inversion (Montgomery's trick), about
 *    6 multiplications an addition instead of 10 (msm_impl.h);
 *  - buckets are reduced by the running sum Σ_j j·B_j = Σ_j Σ_{i≥j} B_i
 *    (two additions a bucket; on the affine path batched affine additions
 *    too, the buckets cut into segments whose sums advance in step);
 *  - window sums are combined by c doublings per window, in Jacobian form;
 *  - work is cut into (window, point range) tasks run on `threads` threads
 *    (0 = all online CPUs), each with its own buckets; the partial window
 *    sums are added at the end. Results do not depend on the thread count.
 *
 * Inputs: points are affine and may be the point at infinity or repeat one
 * another (P_i = ±P_j is handled by the additions); they are public, and
 * everything here is variable time. Scalars are elements of Fr, in
 * Montgomery form (fr_t) or as canonical little-endian limbs (< r).
 *
 * Memory: one allocation of buckets and scratch per call (with the
 * endomorphism split also 2n points and 2n scalars, at most
 * MSM_GLV_MAX_POINTS points): 2^(c−1) buckets
 * per thread (at most 32 MiB each; the affine path adds as many XYZZ spill
 * buckets, touched only when additions pile up on one bucket), plus 32 bytes per scalar for the
 * Montgomery-form entry points and 40 bytes per scalar that is neither 0
 * nor 1 for the split ones. n = 0 gives the point at infinity.
 *
 * Returns CUZK_OK; CUZK_ERR_INVALID_ARGUMENT for a NULL out, NULL arrays
 * with n > 0, raw scalars >= r, or a density bitmap whose popcount is not
 * the number of points; CUZK_ERR_OUT_OF_MEMORY when scratch cannot be
 * allocated. On error *out is left unchanged. */

#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "curve/g1.h"
#include "curve/g2.h"
#include "field/fr.h"

/* How the Pippenger pass of msm_*_raw_tuned is run: for tests and
 * measurements; zeros everywhere give msm_*_raw. */
typedef enum msm_buckets {
    MSM_BUCKETS_AUTO,  /* by size (MSM_G*_AFFINE_MIN_POINTS, msm_internal.h) */
    MSM_BUCKETS_XYZZ,  /* XYZZ buckets, one mixed addition a point */
    MSM_BUCKETS_AFFINE /* affine buckets, batched affine additions */
} msm_buckets;

/* Whether the scalars are split by the endomorphism [x²]P = (β·x, −y)
 * (k = k1 + k2·x², k1 and k2 below 2^128: twice the points, half the
 * windows; msm_internal.h). BLS12-381's groups and BN254's G1 (there
 * k = k1 + k2·λ with signed halves and φ(P) = (β·x, y), msm_internal.h);
 * BN254's G2 runs plain Pippenger whatever this says. */
typedef enum msm_endo {
    MSM_ENDO_AUTO, /* when the cost model says it pays (small and mid sizes) */
    MSM_ENDO_OFF,
    MSM_ENDO_ON
} msm_endo;

typedef struct msm_tuning {
    unsigned window; /* c bits (4 <= c <= 20), 0 = the cost model's */
    msm_buckets buckets;
    unsigned batch; /* affine: additions per shared inversion, 0 = default */
    unsigned queue; /* affine: additions deferred for a busy bucket before
                       the XYZZ spill buckets take them, 0 = default */
    msm_endo endo;
} msm_tuning;

/* Number of set bits among the first n bits of a density bitmap: the
 * points it selects. */
uint64_t msm_popcount(const uint64_t *bits, size_t n);

#define MD_(suffix) msm_g1##suffix
#define MD_AFF g1_affine_t
#define MD_JAC g1_jac_t
#define MD_SC_T fr_t
#include "msm/msm_decl.h"

#define MD_(suffix) msm_g2##suffix
#define MD_AFF g2_affine_t
#define MD_JAC g2_jac_t
#define MD_SC_T fr_t
#include "msm/msm_decl.h"

#endif
