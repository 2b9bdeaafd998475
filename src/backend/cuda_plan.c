/* The proof plan on one device (cuda_plan.h). */
#define _POSIX_C_SOURCE 200809L
#include "backend/cuda_plan.h"

#ifdef CUZK_HAVE_CUDA

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "backend/backend.h"

static cuzk_status dev_error(char *msg, size_t msg_len, const char *what, const char *detail)
{
    backend_msg(msg, msg_len, "%s: %s", what, detail && *detail ? detail : "CUDA error");
    return CUZK_ERR_DEVICE;
}

/* The subgroup test of one uploaded part. */
static cuzk_status check_part(cuda_msm_ctx *msm, const cuda_msm_points *pts, const char *what,
                              char *msg, size_t msg_len)
{
    size_t bad = SIZE_MAX;
    if (cuda_msm_points_check_subgroup(msm, pts, &bad) != CUZK_OK)
        return dev_error(msg, msg_len, what, cuda_msm_last_error());
    if (bad != SIZE_MAX) {
        backend_msg(msg, msg_len, "%s: point %zu is not in the order-r subgroup (checked on the "
                                  "device)",
                    what, bad);
        return CUZK_ERR_CORRUPT;
    }
    return CUZK_OK;
}

cuzk_status cuda_plan_upload(cuda_plan_parts *parts, cuda_msm_ctx *msm, const groth16_plan *plan,
                             bool check_subgroup, uint64_t *bytes, char *msg, size_t msg_len)
{
    for (unsigned i = 0; i < plan->num_msms; i++) {
        const groth16_msm *m = &plan->msm[i];
        bool g2 = m->term == GROTH16_TERM_B_G2;
        for (unsigned k = 0; k < m->num_parts; k++) {
            const groth16_msm_part *p = &m->part[k];
            char what[64];
            snprintf(what, sizeof(what), "uploading %s, part %u", proof_phase_name(m->phase), k);
            if (cuda_msm_points_upload(msm, g2 ? CUDA_MSM_G2 : CUDA_MSM_G1, p->points,
                                       p->num_points, &parts->pts[i][k]) != CUZK_OK)
                return dev_error(msg, msg_len, what, cuda_msm_last_error());
            *bytes += p->num_points * (g2 ? CUDA_MSM_G2_AFFINE_BYTES : CUDA_MSM_G1_AFFINE_BYTES);
            if (check_subgroup) {
                snprintf(what, sizeof(what), "%s, part %u", proof_phase_name(m->phase), k);
                cuzk_status st = check_part(msm, parts->pts[i][k], what, msg, msg_len);
                if (st != CUZK_OK)
                    return st;
            }
            if (p->density &&
                cuda_msm_density_upload(msm, p->density, p->count, &parts->dens[i][k]) != CUZK_OK)
                return dev_error(msg, msg_len, what, cuda_msm_last_error());
        }
    }
    return CUZK_OK;
}

void cuda_plan_parts_free(cuda_plan_parts *parts)
{
    for (int i = 0; i < GROTH16_PLAN_MAX_MSMS; i++)
        for (int k = 0; k < GROTH16_MSM_MAX_PARTS; k++) {
            cuda_msm_points_free(parts->pts[i][k]);
            cuda_msm_density_free(parts->dens[i][k]);
        }
    memset(parts, 0, sizeof(*parts));
}

/* One part of an MSM: the split for witness scalars, the density-filtered
 * split where the part has a bitmap, plain Pippenger for the quotient's. */
static cuzk_status run_part(cuda_msm_ctx *msm, const cuda_plan_parts *parts, const groth16_msm *m,
                            unsigned i, unsigned k, const void *d_h, const void *d_w, g1_jac_t *g1,
                            g2_jac_t *g2)
{
    const groth16_msm_part *p = &m->part[k];
    const struct fr *s = (const struct fr *)(p->scalars == GROTH16_SCALARS_H ? (const fr_t *)d_h
                                                                             : (const fr_t *)d_w) +
                         p->offset;
    const cuda_msm_points *pts = parts->pts[i][k];
    const cuda_msm_density *den = parts->dens[i][k];
    struct g1_jac *o1 = (struct g1_jac *)g1;
    struct g2_jac *o2 = (struct g2_jac *)g2;
    if (m->term == GROTH16_TERM_B_G2)
        return den ? cuda_msm_g2_dense(msm, pts, s, p->count, den, o2, NULL)
                   : cuda_msm_g2_split(msm, pts, s, p->count, o2, NULL);
    if (den)
        return cuda_msm_g1_dense(msm, pts, s, p->count, den, o1, NULL);
    if (p->scalars == GROTH16_SCALARS_H)
        return cuda_msm_g1(msm, pts, s, p->count, o1, NULL);
    return cuda_msm_g1_split(msm, pts, s, p->count, o1, NULL);
}

cuzk_status cuda_plan_run(const groth16_plan *plan, unsigned log_n, cuda_ntt_ctx *ntt,
                          cuda_msm_ctx *msm, const cuda_plan_parts *parts, void *const d_abc[3],
                          const void *d_w, uint64_t rows, groth16_sums *out, cuda_plan_step_fn step,
                          void *step_ctx, char *msg, size_t msg_len)
{
    cuzk_status st = plan->quotient == GROTH16_QUOTIENT_BELLMAN
                         ? cuda_compute_h(ntt, d_abc[0], d_abc[1], d_abc[2], rows, log_n,
                                          CUDA_H_COSET_GENERATOR, NULL)
                         : cuda_h_coset_evals(ntt, d_abc[0], d_abc[1], d_abc[2], rows, log_n,
                                              CUDA_H_COSET_2N_ROOT, NULL);
    if (st != CUZK_OK || cuda_ntt_sync(ntt, NULL) != CUZK_OK)
        return dev_error(msg, msg_len, "computing h", cuda_ntt_last_error());
    if (step)
        step(step_ctx, PHASE_H, NULL, NULL, NULL);

    g1_jac_set_infinity(&out->a);
    g1_jac_set_infinity(&out->b1);
    g1_jac_set_infinity(&out->c);
    g2_jac_set_infinity(&out->b);
    for (unsigned i = 0; i < plan->num_msms; i++) {
        const groth16_msm *m = &plan->msm[i];
        g1_jac_t t1[GROTH16_MSM_MAX_PARTS];
        g2_jac_t t2[GROTH16_MSM_MAX_PARTS];
        for (unsigned k = 0; k < m->num_parts; k++) {
            g1_jac_set_infinity(&t1[k]);
            g2_jac_set_infinity(&t2[k]);
            if (run_part(msm, parts, m, i, k, d_abc[0], d_w, &t1[k], &t2[k]) != CUZK_OK ||
                cuda_msm_wait(msm) != CUZK_OK) {
                char what[64];
                snprintf(what, sizeof(what), "%s, part %u", proof_phase_name(m->phase), k);
                return dev_error(msg, msg_len, what, cuda_msm_last_error());
            }
            switch (m->term) {
            case GROTH16_TERM_A:
                g1_jac_add(&out->a, &out->a, &t1[k]);
                break;
            case GROTH16_TERM_B_G1:
                g1_jac_add(&out->b1, &out->b1, &t1[k]);
                break;
            case GROTH16_TERM_B_G2:
                g2_jac_add(&out->b, &out->b, &t2[k]);
                break;
            case GROTH16_TERM_C:
                g1_jac_add(&out->c, &out->c, &t1[k]);
                break;
            }
        }
        if (step)
            step(step_ctx, m->phase, m, t1, t2);
    }
    return CUZK_OK;
}

#endif
