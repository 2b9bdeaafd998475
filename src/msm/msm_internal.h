#ifndef CUZK_MSM_INTERNAL_H
#define CUZK_MSM_INTERNAL_H

/* The group-independent half of the MSM: window planning, signed-digit
 * recoding and the endomorphism split of BLS12-381's scalars. The group
 * half, with the scalars' preparation and the 0/1/other split, is the
 * template msm_impl.h, instantiated per group and curve. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

#define MSM_MIN_C 4u
#define MSM_MAX_C 20u
/* Buckets of one thread may use at most this many bytes: beyond it the
 * random bucket accesses stop hitting the caches and the model below no
 * longer holds. */
#define MSM_BUCKET_BUDGET (32u << 20)
/* From this many points on, Pippenger keeps affine buckets filled by
 * batched affine additions (msm_impl.h); below, XYZZ buckets. Measured
 * with bench_msm --buckets (docs/PERF.md, issue 3). */
#define MSM_G1_AFFINE_MIN_POINTS 1024u
#define MSM_G2_AFFINE_MIN_POINTS 128u
/* At most this many scalars per block of the split passes (blocks are
 * multiples of 64, so each starts on a density word). */
#define MSM_SPLIT_BLOCK 4096u

/* How one Pippenger run is cut up.
 *
 * Scalars k < 2^bits (bits = 255 for elements of Fr, MSM_GLV_BITS for the
 * halves of the endomorphism split below) are written in
 * nwin = ceil((bits + 1)/c) signed digits of c bits,
 * d_w ∈ [−(2^(c−1) − 1), 2^(c−1)], so k = Σ d_w·2^(cw) and a window
 * needs only 2^(c−1) buckets (bucket |d| − 1, the point negated when d < 0).
 * Each window w is split into `parts` point ranges; a task is one (window,
 * range) pair, run by one of `workers` threads on its own buckets.
 *
 * Cost model, in mixed additions, per thread:
 *   ceil(nwin·parts / T) · (n/parts + ρ·2^c)  +  ρ·nwin·parts
 * where n/parts is the bucket accumulation of one task (one mixed addition
 * per nonzero digit), ρ·2^c its running-sum reduction (two XYZZ additions
 * per bucket, ρ = cost of an XYZZ addition over a mixed one) and the last
 * term the merge of the partial window sums. The c·nwin ≈ 256 doublings of
 * the window combination do not depend on c. The plan minimises this over
 * c ∈ [MSM_MIN_C, MSM_MAX_C] and parts ∈ [1, T]. */
typedef struct msm_plan {
    unsigned c, nwin, parts, workers;
    /* Σ_{w<nwin} (2^(c−1) − 1)·2^(cw): K = k + offset has c-bit windows
     * d_w + 2^(c−1) − 1 (the carries of the recoding are the carries of
     * this one addition). 320 bits: c·nwin < 256 + c. */
    uint64_t offset[5];
    double cost; /* the model's cost of the plan, in mixed additions per thread */
} msm_plan;

/* A plan for n points on `threads` threads (already resolved, >= 1), for a
 * group whose XYZZ bucket takes bucket_bytes and whose XYZZ addition costs
 * add_ratio mixed additions. force_c in [MSM_MIN_C, MSM_MAX_C] fixes the
 * window size (tests), 0 lets the model choose. */
void msm_plan_make(msm_plan *plan, size_t n, unsigned threads, size_t bucket_bytes,
                   double add_ratio, unsigned force_c);

/* The same model with the two costs given apart, in mixed additions:
 * point_cost per point added into a bucket, bucket_cost per bucket of the
 * running-sum reduction (msm_plan_make is point_cost = 1, bucket_cost =
 * 2·add_ratio); the partial sums' merge costs bucket_cost/2 a task. */
void msm_plan_make_costs(msm_plan *plan, size_t n, unsigned threads, size_t bucket_bytes,
                         double point_cost, double bucket_cost, unsigned force_c);

/* The same for scalars k < 2^bits (bits <= 255; the others take 255). */
void msm_plan_make_bits(msm_plan *plan, size_t n, unsigned threads, size_t bucket_bytes,
                        double point_cost, double bucket_cost, unsigned bits, unsigned force_c);

/* The window size the model picks (for documentation and benchmarks). */
unsigned msm_window_bits(size_t n, unsigned threads, size_t bucket_bytes, double add_ratio);

/* The endomorphism split (GLV: Gallant, Lambert, Vanstone, CRYPTO 2001).
 * With x the BLS parameter, [x²]P = (β·x_P, −y_P) for a cube root of unity
 * β in Fp: on G1 β is G1_BETA (φ(P) = [−x²]P), on G2 its square acting on
 * both Fp coordinates of x_P (that map is ψ², ψ being [x] on G2). Since
 * r = x⁴ − x² + 1, every k < r is k1 + k2·x² with k1 = k mod x² and
 * k2 = floor(k/x²), both < x² < 2^MSM_GLV_BITS: an MSM over n points and
 * 255-bit scalars becomes one over 2n points and 128-bit scalars, half the
 * windows for as many bucket additions. */
#define MSM_GLV_BITS 128u
/* The cost model decides the split up to this many points (the split
 * copies every point and scalar twice). */
#define MSM_GLV_MAX_POINTS ((size_t)1 << 20)
/* x² = 0xac45a4010001a4020000000100000000, as limbs. */
extern const uint64_t MSM_GLV_X2[2];

/* k1 = k mod x², k2 = floor(k/x²) (each as 4 limbs, the top two zero), for
 * any k < 2^255. Variable time (public scalars only). */
void msm_glv_split(uint64_t k1[4], uint64_t k2[4], const uint64_t k[4]);

/* BN254 G1's split (bn254_msm_g1.c): φ(x, y) = (β·x, y) = [λ]P with β, λ
 * cube roots of unity (λ² + λ + 1 ≡ 0 mod r, not a small power of the
 * curve's parameter), so k = k1 + k2·λ (mod r) by a 2-D lattice reduction
 * (Babai rounding), k1 and k2 signed: |k1|, |k2| < 2^127 as 4 limbs (the
 * top two zero) and their signs in neg1, neg2. Any k < r; variable
 * time (public scalars only). The constants: β as an integer and in
 * Montgomery form, λ; tools/glv/bn254_glv_consts.py computes them. */
void bn254_glv_split(uint64_t k1[4], uint64_t k2[4], bool *neg1, bool *neg2, const uint64_t k[4]);
extern const uint64_t BN254_GLV_BETA_RAW[4];
extern const uint64_t BN254_GLV_LAMBDA[4];
extern const struct bn254_fp BN254_GLV_BETA;

/* The signed digit of window w (bits [c·w, c·w + c)) of k < 2^bits, bits
 * the plan's. */
static inline int msm_digit(const uint64_t k[4], const msm_plan *plan, unsigned w)
{
    const uint64_t *o = plan->offset;
    uint64_t s[5], carry = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t t = k[i] + carry;
        uint64_t c1 = t < carry;
        s[i] = t + o[i];
        carry = c1 | (s[i] < t);
    }
    s[4] = o[4] + carry;
    unsigned bit = plan->c * w, limb = bit >> 6, sh = bit & 63;
    uint64_t v = s[limb] >> sh;
    if (sh + plan->c > 64)
        v |= s[limb + 1] << (64 - sh);
    v &= (UINT64_C(1) << plan->c) - 1;
    return (int)v - (int)((1u << (plan->c - 1)) - 1);
}

#endif
