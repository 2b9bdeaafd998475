#ifndef CUZK_GROTH16_PLAN_H
#define CUZK_GROTH16_PLAN_H

/* The proof plan: the Groth16 sequence of one partition, written once and
 * executed by every backend (Groth 2016, section 3.2):
 *
 *   a, b, c (evaluated rows) -> the quotient h -> the MSMs -> the sums
 *
 * after which the caller assembles A, B, C with r and s (groth16/assemble.h).
 * A circuit kind describes its key as a plan: which quotient, and for each
 * MSM which points meet which scalars and which sum the result joins. The
 * CPU executor is here (groth16_plan_sums); the CUDA backend runs the same
 * plan with its streams, uploading each part's points once.
 *
 * Two quotients exist:
 *   bellman: h = (a·b − c)/Z from the coset g = 7, its n − 1 coefficients
 *            meet the H query [τ^i·Z(τ)/δ];
 *   snarkjs: a·b − c evaluated on the odd coset of the 2n-th roots of
 *            unity, n values meeting the zkey's H section (which carries
 *            the division).
 * Every other difference between bellman parameters and snarkjs keys is
 * data: the query sections, their density bitmaps, and which part of w
 * each multiplies.
 *
 * A plan is over one curve (groth16_plan.curve): BLS12-381, or BN254 for a
 * snarkjs key of circom's default curve. Its points are that curve's
 * (bn254_g1_affine_t ... for BN254), its domain that curve's scalar
 * field's, and the scalars handed to an executor (w, a, b, c, in fr_t
 * slots) are in that field (field/scalar_slots.h); the sums come back in
 * groth16_sums's member for the curve. The CPU executor is one
 * implementation compiled per curve (plan_exec_impl.h). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "curve/curve_id.h"
#include "cuzk/status.h"
#include "field/fr.h"
#include "groth16/assemble.h"
#include "groth16/phase.h"
#include "poly/bn254_domain.h"
#include "poly/domain.h"

typedef enum groth16_quotient {
    GROTH16_QUOTIENT_BELLMAN = 0,
    GROTH16_QUOTIENT_SNARKJS,
} groth16_quotient;

/* Which of groth16_sums an MSM's result joins. */
typedef enum groth16_term {
    GROTH16_TERM_A = 0, /* G1 */
    GROTH16_TERM_B_G1,  /* G1 */
    GROTH16_TERM_B_G2,  /* G2: the only term whose points are G2 points (g2_affine_t) */
    GROTH16_TERM_C,     /* G1 */
} groth16_term;

/* Where a part's scalars come from. */
typedef enum groth16_scalars {
    GROTH16_SCALARS_H = 0, /* the quotient's values (num_h of them) */
    GROTH16_SCALARS_W,     /* the full assignment w (w[0] = 1) */
} groth16_scalars;

/* Points meeting a run of scalars: scalars[offset .. offset + count). With
 * a density bitmap over those count scalars, only the scalars whose bit is
 * set have a point, in order (num_points = the bits set); without one,
 * num_points = count. Witness scalars are mostly 0 and 1, and every
 * executor splits those off (msm.h's split); the quotient's are not. */
typedef struct groth16_msm_part {
    const void *points; /* g1_affine_t, or g2_affine_t for GROTH16_TERM_B_G2 (BN254:
                           bn254_g1_affine_t, bn254_g2_affine_t) */
    uint64_t num_points;
    groth16_scalars scalars;
    uint64_t offset, count;
    const uint64_t *density; /* NULL: one point per scalar */
} groth16_msm_part;

#define GROTH16_MSM_MAX_PARTS 2
#define GROTH16_PLAN_MAX_MSMS 5

/* One MSM phase: the sum of its parts, added into term. */
typedef struct groth16_msm {
    proof_phase phase; /* PHASE_MSM_H .. PHASE_MSM_B_G2: what timing calls it */
    groth16_term term;
    unsigned num_parts;
    groth16_msm_part part[GROTH16_MSM_MAX_PARTS];
} groth16_msm;

typedef struct groth16_plan {
    curve_id curve; /* of the points, the domain and the scalars */
    groth16_quotient quotient;
    /* n = 2^log_n, its roots as the quotient wants them: domain for
     * BLS12-381, bn254_domain for BN254 (groth16_plan_domain_n reads n of
     * either). */
    union {
        const domain_t *domain;
        const bn254_domain_t *bn254_domain;
    };
    uint64_t num_vars;      /* the length of w */
    uint64_t num_h;         /* the quotient's scalars: n − 1 (bellman) or n (snarkjs) */
    unsigned num_msms;
    groth16_msm msm[GROTH16_PLAN_MAX_MSMS];
} groth16_plan;

/* The bellman-layout key as a plan: H (n − 1 points), L over the aux
 * variables, A over the inputs and (density-filtered) aux, B in G1 and G2
 * over both, density-filtered. The arrays are borrowed. */
typedef struct groth16_bellman_query {
    const struct g1_affine *h, *l, *a, *b_g1;
    const struct g2_affine *b_g2;
    uint64_t num_inputs, num_aux; /* inputs include ONE */
    const uint64_t *a_aux_density, *b_input_density, *b_aux_density;
    uint64_t a_aux_count, b_input_count, b_aux_count; /* bits set */
} groth16_bellman_query;
void groth16_plan_bellman(groth16_plan *plan, const groth16_bellman_query *q,
                          const domain_t *domain);

/* The lengths of a bellman parameter file's queries (IC, H, L, A, B_G1,
 * B_G2), against what q's counts (inputs, aux, the density counts) and a
 * domain of domain_n need: NULL when every one fits, else the name of the
 * first that does not ("IC (inputs)", "L (aux variables)", ...), with its
 * length in *have and the needed one in *want. */
typedef struct groth16_query_lengths {
    uint64_t ic, h, l, a, b_g1, b_g2;
} groth16_query_lengths;
const char *groth16_query_mismatch(const groth16_query_lengths *have,
                                   const groth16_bellman_query *q, uint64_t domain_n,
                                   uint64_t *have_len, uint64_t *want_len);

/* The domain size of a plan of either curve. */
static inline size_t groth16_plan_domain_n(const groth16_plan *plan)
{
    return plan->curve == CURVE_BN254 ? plan->bn254_domain->n : plan->domain->n;
}

/* A snarkjs key as a plan: H (n points) and C (one per private signal,
 * signals num_public + 1 ..) into one MSM, A, B1, B2 over all signals.
 * The points are of the plan's curve (G1: h, c, a, b1; G2: b2). */
typedef struct groth16_snarkjs_query {
    const void *h, *c, *a, *b1;
    const void *b2;
    uint64_t num_vars, num_public; /* num_public: ONE excluded */
    /* A, B1 and B2 may leave out their points at infinity (a variable
     * absent from the matrix): then a bitmap over the num_vars variables
     * marks those that have a point, and *_points counts them. NULL: one
     * point per variable. */
    const uint64_t *a_density, *b1_density, *b2_density;
    uint64_t a_points, b1_points, b2_points;
} groth16_snarkjs_query;
void groth16_plan_snarkjs(groth16_plan *plan, const groth16_snarkjs_query *q,
                          const domain_t *domain);
/* The same over BN254 (a key of circom's default curve). */
void groth16_plan_snarkjs_bn254(groth16_plan *plan, const groth16_snarkjs_query *q,
                                const bn254_domain_t *domain);

/* Checks the plan's counts against each other (parts within w or h,
 * density bits set equal to the points); msg names the MSM and part. */
cuzk_status groth16_plan_check(const groth16_plan *plan, char *msg, size_t msg_len);

/* Bytes an MSM reads (scalars and points): for timing events. */
uint64_t groth16_msm_bytes(const groth16_msm *m);

/* Called as a phase starts (end false) and ends (end true), from the
 * thread that runs it. With two threads or more the MSMs run as two
 * concurrent groups, so calls come from two threads at once and phases
 * overlap. */
typedef void (*groth16_step_fn)(void *ctx, proof_phase phase, bool end);

/* The CPU executor: the quotient from a, b, c (abc: three consecutive
 * n-element vectors, the first rows of each evaluated, the rest ignored;
 * clobbered: h is left in the first), then every MSM, into sums (w and
 * abc in the plan's scalar field, field/scalar_slots.h). On
 * failure *failed (when not NULL) names the phase. A bellman quotient whose
 * top coefficient is not zero (the witness does not satisfy the
 * constraints) is CUZK_ERR_UNSATISFIED in PHASE_H. With two threads or
 * more the MSMs run as two concurrent groups of about equal work, each on
 * half the threads, the quotient in the group of the MSM that needs it. */
cuzk_status groth16_plan_sums(groth16_sums *sums, const groth16_plan *plan, const fr_t *w,
                              fr_t *abc, uint64_t rows, unsigned threads, groth16_step_fn step,
                              void *step_ctx, proof_phase *failed);

#endif
