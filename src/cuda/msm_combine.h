#ifndef CUZK_CUDA_MSM_COMBINE_H
#define CUZK_CUDA_MSM_COMBINE_H

/* The host's part of a device MSM (msm_combine.c): the windows' sums
 * made from their pairs and combined into the result, run as a stream-ordered host function after
 * the sums are copied to page-locked memory (msm_ctx.cu). */

#include <stdbool.h>

#include "cuda/msm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct msm_combine_job {
    cuda_msm_group group;
    unsigned nwin, c;
    unsigned pair_shift; /* window w's sum is wins[2w] + 2^pair_shift·wins[2w + 1] */
    bool with_ones;      /* wins[2·nwin] is the sum of the ones */
    const void *wins;    /* 2·nwin (+ 1) XYZZ points, host layout (g1_xyzz_t / g2_xyzz_t) */
    void *out;           /* the caller's g1_jac_t / g2_jac_t */
} msm_combine_job;

/* *job->out = Σ_w 2^(c·w)·W_w (+ the ones), W_w as above. */
void msm_combine_host(const msm_combine_job *job);

#ifdef __cplusplus
}
#endif

#endif
