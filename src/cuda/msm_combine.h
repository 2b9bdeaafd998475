#ifndef CUZK_CUDA_MSM_COMBINE_H
#define CUZK_CUDA_MSM_COMBINE_H

/* The host's part of a device MSM (msm_combine.c): the windows' sums
 * made from their pairs and combined into the result, run as a stream-ordered host function after
 * the sums are copied to page-locked memory (msm_ctx.cu). */

#include <stdbool.h>
#include <stddef.h>

#include "cuda/msm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct msm_combine_job {
    cuda_msm_group group;
    unsigned nwin, c;
    unsigned pair_shift; /* window w's sum is wins[2w] + 2^pair_shift·wins[2w + 1] */
    bool with_ones;      /* wins[2·nwin] is the sum of the ones */
    const void *wins;    /* 2·nwin (+ 1) XYZZ points of the group, host layout (g1_xyzz_t, ...) */
    void *out;           /* the caller's Jacobian point of the group (g1_jac_t, ...) */
} msm_combine_job;

/* *job->out = Σ_w 2^(c·w)·W_w (+ the ones), W_w as above. */
void msm_combine_host(const msm_combine_job *job);

/* *out = Σ_i parts[i], n Jacobian points of the group (g1_jac_t or
 * g2_jac_t, host layout): the chunks' sums of a streamed MSM. */
void msm_jac_sum_host(cuda_msm_group group, const void *parts, size_t n, void *out);

/* The subgroup test's constants of a group into out, in the device's
 * layout (Montgomery form, limbs in order): G1 β (curve/g1.h), G2 PSI_X
 * then PSI_Y (curve/g2.h); BN254 G1 none (cofactor 1), BN254 G2 the order
 * r (its test is [r]P = O). Returns their size in bytes; out holds
 * at least MSM_ENDO_CONSTS_MAX_BYTES. (Here, in C: the field headers'
 * FP_ZERO is also a macro of C++'s <cmath>.) */
#define MSM_ENDO_CONSTS_MAX_BYTES 192
size_t msm_endo_consts(cuda_msm_group group, void *out);

#ifdef __cplusplus
}
#endif

#endif
