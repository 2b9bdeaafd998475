/* The host's parts of the device MSM. The last step, on the host: each window's sum from
 * the pair the reduction left (W = Y + 2^k·T), then Σ_w 2^(c·w)·W_w by
 * Horner's rule, plus the sum of the ones. These are chains of dependent
 * doublings (about c·nwin, and k per window): one GPU thread took 1.9 ms
 * for the Horner loop on G1 and 5.2 ms on G2 (an H200 thread's field
 * multiplication takes about a microsecond); the host takes a few hundred
 * microseconds. */
#include "cuda/msm_combine.h"

#include <stddef.h>
#include <string.h>

#include "curve/g1.h"
#include "curve/g2.h"

_Static_assert(sizeof(g1_xyzz_t) == CUDA_MSM_G1_XYZZ_BYTES && offsetof(g1_xyzz_t, zz) == 96 &&
                   offsetof(g1_xyzz_t, zzz) == 144,
               "g1_xyzz_t layout");
_Static_assert(sizeof(g2_xyzz_t) == CUDA_MSM_G2_XYZZ_BYTES && offsetof(g2_xyzz_t, zz) == 192 &&
                   offsetof(g2_xyzz_t, zzz) == 288,
               "g2_xyzz_t layout");

/* One group's loop: window k's sum W = Y + 2^pair_shift·T from its pair,
 * then Horner's rule over the windows from the top; acc is Jacobian. */
#define MSM_COMBINE_BODY(G)                                                                        \
    do {                                                                                           \
        const G##_xyzz_t *w = (const G##_xyzz_t *)job->wins;                                       \
        G##_jac_t acc, y, t;                                                                       \
        G##_jac_set_infinity(&acc);                                                                \
        for (unsigned k = job->nwin; k-- > 0;) {                                                   \
            if (!G##_jac_is_infinity(&acc))                                                        \
                for (unsigned i = 0; i < job->c; i++)                                              \
                    G##_jac_dbl(&acc, &acc);                                                       \
            G##_xyzz_to_jac(&y, &w[2 * k]);                                                        \
            G##_xyzz_to_jac(&t, &w[2 * k + 1]);                                                    \
            if (!G##_jac_is_infinity(&t))                                                          \
                for (unsigned i = 0; i < job->pair_shift; i++)                                     \
                    G##_jac_dbl(&t, &t);                                                           \
            G##_jac_add_var(&acc, &acc, &y);                                                       \
            G##_jac_add_var(&acc, &acc, &t);                                                       \
        }                                                                                          \
        if (job->with_ones) {                                                                      \
            G##_xyzz_to_jac(&y, &w[2 * job->nwin]);                                                \
            G##_jac_add_var(&acc, &acc, &y);                                                       \
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

void msm_jac_sum_host(cuda_msm_group group, const void *parts, size_t n, void *out)
{
    if (group == CUDA_MSM_G1) {
        const g1_jac_t *p = parts;
        g1_jac_t acc;
        g1_jac_set_infinity(&acc);
        for (size_t i = 0; i < n; i++)
            g1_jac_add(&acc, &acc, &p[i]);
        *(g1_jac_t *)out = acc;
    } else {
        const g2_jac_t *p = parts;
        g2_jac_t acc;
        g2_jac_set_infinity(&acc);
        for (size_t i = 0; i < n; i++)
            g2_jac_add(&acc, &acc, &p[i]);
        *(g2_jac_t *)out = acc;
    }
}

size_t msm_endo_consts(cuda_msm_group group, void *out)
{
    if (group == CUDA_MSM_G1) {
        memcpy(out, &G1_BETA, sizeof(G1_BETA));
        return sizeof(G1_BETA);
    }
    memcpy(out, &G2_PSI_X, sizeof(G2_PSI_X));
    memcpy((char *)out + sizeof(G2_PSI_X), &G2_PSI_Y, sizeof(G2_PSI_Y));
    return sizeof(G2_PSI_X) + sizeof(G2_PSI_Y);
}
