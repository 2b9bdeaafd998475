/* The last step of the device MSM, on the host: Σ_w 2^(c·w)·W_w over the
 * window sums by Horner's rule, plus the sum of the ones. It is a chain of
 * about c·nwin dependent doublings: one GPU thread took 1.9 ms for it on
 * G1 and 5.2 ms on G2 (an H200 thread's field multiplication is about a
 * microsecond), the host takes a few hundred microseconds. */
#include "cuda/msm_combine.h"

#include <stddef.h>

#include "curve/g1.h"
#include "curve/g2.h"

_Static_assert(sizeof(g1_xyzz_t) == CUDA_MSM_G1_XYZZ_BYTES && offsetof(g1_xyzz_t, zz) == 96 &&
                   offsetof(g1_xyzz_t, zzz) == 144,
               "g1_xyzz_t layout");
_Static_assert(sizeof(g2_xyzz_t) == CUDA_MSM_G2_XYZZ_BYTES && offsetof(g2_xyzz_t, zz) == 192 &&
                   offsetof(g2_xyzz_t, zzz) == 288,
               "g2_xyzz_t layout");

/* One group's Horner loop; acc: the running Jacobian sum. */
#define MSM_COMBINE_BODY(G)                                                                        \
    do {                                                                                           \
        const G##_xyzz_t *w = (const G##_xyzz_t *)job->wins;                                       \
        G##_jac_t acc, j;                                                                          \
        G##_jac_set_infinity(&acc);                                                                \
        for (unsigned k = job->nwin; k-- > 0;) {                                                   \
            if (!G##_jac_is_infinity(&acc))                                                        \
                for (unsigned i = 0; i < job->c; i++)                                              \
                    G##_jac_dbl(&acc, &acc);                                                       \
            G##_xyzz_to_jac(&j, &w[k]);                                                            \
            G##_jac_add_var(&acc, &acc, &j);                                                       \
        }                                                                                          \
        if (job->with_ones) {                                                                      \
            G##_xyzz_to_jac(&j, &w[job->nwin]);                                                    \
            G##_jac_add_var(&acc, &acc, &j);                                                       \
        }                                                                                          \
        if (G##_jac_is_infinity(&acc))                                                             \
            G##_jac_set_infinity(&acc);                                                            \
        *(G##_jac_t *)job->out = acc;                                                              \
    } while (0)

void msm_combine_host(const msm_combine_job *job)
{
    if (job->group == CUDA_MSM_G1)
        MSM_COMBINE_BODY(g1);
    else
        MSM_COMBINE_BODY(g2);
}
