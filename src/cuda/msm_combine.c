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

#include "curve/bn254_curve.h"
#include "curve/g1.h"
#include "curve/g2.h"
#include "field/bn254_fr.h"

_Static_assert(sizeof(g1_xyzz_t) == CUDA_MSM_G1_XYZZ_BYTES && offsetof(g1_xyzz_t, zz) == 96 &&
                   offsetof(g1_xyzz_t, zzz) == 144,
               "g1_xyzz_t layout");
_Static_assert(sizeof(g2_xyzz_t) == CUDA_MSM_G2_XYZZ_BYTES && offsetof(g2_xyzz_t, zz) == 192 &&
                   offsetof(g2_xyzz_t, zzz) == 288,
               "g2_xyzz_t layout");
_Static_assert(sizeof(bn254_g1_xyzz_t) == CUDA_MSM_BN254_G1_XYZZ_BYTES &&
                   offsetof(bn254_g1_xyzz_t, zz) == 64 && offsetof(bn254_g1_xyzz_t, zzz) == 96,
               "bn254_g1_xyzz_t layout");
_Static_assert(sizeof(bn254_g2_xyzz_t) == CUDA_MSM_BN254_G2_XYZZ_BYTES &&
                   offsetof(bn254_g2_xyzz_t, zz) == 128 && offsetof(bn254_g2_xyzz_t, zzz) == 192,
               "bn254_g2_xyzz_t layout");

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
    switch (job->group) {
    case CUDA_MSM_G1:
        MSM_COMBINE_BODY(g1);
        break;
    case CUDA_MSM_G2:
        MSM_COMBINE_BODY(g2);
        break;
    case CUDA_MSM_BN254_G1:
        MSM_COMBINE_BODY(bn254_g1);
        break;
    default:
        MSM_COMBINE_BODY(bn254_g2);
        break;
    }
}

/* One group's sum of n Jacobian points. */
#define MSM_JAC_SUM_BODY(G)                                                                        \
    do {                                                                                           \
        const G##_jac_t *p = parts;                                                                \
        G##_jac_t acc;                                                                             \
        G##_jac_set_infinity(&acc);                                                                \
        for (size_t i = 0; i < n; i++)                                                             \
            G##_jac_add(&acc, &acc, &p[i]);                                                        \
        *(G##_jac_t *)out = acc;                                                                   \
    } while (0)

void msm_jac_sum_host(cuda_msm_group group, const void *parts, size_t n, void *out)
{
    switch (group) {
    case CUDA_MSM_G1:
        MSM_JAC_SUM_BODY(g1);
        break;
    case CUDA_MSM_G2:
        MSM_JAC_SUM_BODY(g2);
        break;
    case CUDA_MSM_BN254_G1:
        MSM_JAC_SUM_BODY(bn254_g1);
        break;
    default:
        MSM_JAC_SUM_BODY(bn254_g2);
        break;
    }
}

size_t msm_endo_consts(cuda_msm_group group, void *out)
{
    switch (group) {
    case CUDA_MSM_G1:
        memcpy(out, &G1_BETA, sizeof(G1_BETA));
        return sizeof(G1_BETA);
    case CUDA_MSM_G2:
        memcpy(out, &G2_PSI_X, sizeof(G2_PSI_X));
        memcpy((char *)out + sizeof(G2_PSI_X), &G2_PSI_Y, sizeof(G2_PSI_Y));
        return sizeof(G2_PSI_X) + sizeof(G2_PSI_Y);
    case CUDA_MSM_BN254_G1:
        return 0; /* cofactor 1: no test */
    default:
        memcpy(out, BN254_FR_MODULUS, sizeof(uint64_t) * BN254_FR_LIMBS);
        return sizeof(uint64_t) * BN254_FR_LIMBS;
    }
}
