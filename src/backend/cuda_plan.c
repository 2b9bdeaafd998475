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

static bool part_is_g2(const groth16_msm *m)
{
    return m->term == GROTH16_TERM_B_G2;
}

/* Device bytes of a part made resident: its points and its bitmap. */
static uint64_t part_device_bytes(const groth16_msm *m, const groth16_msm_part *p)
{
    uint64_t b = p->num_points * (part_is_g2(m) ? CUDA_MSM_G2_AFFINE_BYTES
                                                : CUDA_MSM_G1_AFFINE_BYTES);
    if (p->density)
        b += (p->count + 63) / 64 * (sizeof(uint64_t) + sizeof(uint32_t));
    return b;
}

/* Which parts stay resident (cuda_plan_placement's order). */
static void place_parts(const groth16_plan *plan, const cuda_plan_placement *pl,
                        bool resident[GROTH16_PLAN_MAX_MSMS][GROTH16_MSM_MAX_PARTS])
{
    typedef struct {
        unsigned i, k;
        bool quotient;
        uint64_t bytes;
    } cand;
    cand c[GROTH16_PLAN_MAX_MSMS * GROTH16_MSM_MAX_PARTS];
    unsigned nc = 0;
    for (unsigned i = 0; i < plan->num_msms; i++)
        for (unsigned k = 0; k < plan->msm[i].num_parts; k++) {
            const groth16_msm_part *p = &plan->msm[i].part[k];
            resident[i][k] = !pl;
            c[nc++] = (cand){.i = i,
                             .k = k,
                             .quotient = p->scalars == GROTH16_SCALARS_H,
                             .bytes = part_device_bytes(&plan->msm[i], p)};
        }
    if (!pl)
        return;
    /* insertion sort: witness parts before the quotient's, smaller first */
    for (unsigned a = 1; a < nc; a++)
        for (unsigned b = a; b > 0; b--) {
            const cand *x = &c[b - 1], *y = &c[b];
            bool swap = x->quotient != y->quotient ? x->quotient : x->bytes > y->bytes;
            if (!swap)
                break;
            cand t = c[b - 1];
            c[b - 1] = c[b];
            c[b] = t;
        }
    uint64_t room = pl->resident_limit;
    for (unsigned a = 0; a < nc; a++)
        if (c[a].bytes <= room) {
            resident[c[a].i][c[a].k] = true;
            room -= c[a].bytes;
        }
}

static cuzk_status subgroup_verdict(cuzk_status st, size_t bad, const char *what, char *msg,
                                    size_t msg_len)
{
    if (st != CUZK_OK)
        return dev_error(msg, msg_len, what, cuda_msm_last_error());
    if (bad != SIZE_MAX) {
        backend_msg(msg, msg_len, "%s: point %zu is not in the order-r subgroup (checked on the "
                                  "device)",
                    what, bad);
        return CUZK_ERR_CORRUPT;
    }
    return CUZK_OK;
}

/* Part k of MSM i in chunks: resident, or left in host memory to stream. */
static cuzk_status chunk_part(cuda_plan_parts *parts, cuda_msm_ctx *msm, const groth16_msm *m,
                              unsigned i, unsigned k, const cuda_plan_placement *pl, bool resident,
                              bool check_subgroup, uint64_t *bytes, char *msg, size_t msg_len)
{
    const groth16_msm_part *p = &m->part[k];
    char what[64];
    snprintf(what, sizeof(what), "%s, part %u", proof_phase_name(m->phase), k);
    if (!parts->streamer) {
        if (cuda_msm_streamer_create(msm, pl->chunk_points, &parts->streamer) != CUZK_OK)
            return dev_error(msg, msg_len, "the buffers of streamed bases", cuda_msm_last_error());
        *bytes += cuda_msm_streamer_device_bytes(parts->streamer);
    }
    cuda_msm_group g = part_is_g2(m) ? CUDA_MSM_G2 : CUDA_MSM_G1;
    if (cuda_msm_streamed_create(parts->streamer, g, p->points, p->num_points, p->density,
                                 p->count, resident, &parts->streamed[i][k]) != CUZK_OK)
        return dev_error(msg, msg_len, what, cuda_msm_last_error());
    *bytes += cuda_msm_streamed_device_bytes(parts->streamed[i][k]);
    if (!resident) {
        parts->num_streamed++;
        parts->streamed_bytes += cuda_msm_points_host_bytes(g, p->num_points);
    }
    if (!check_subgroup)
        return CUZK_OK;
    size_t bad = SIZE_MAX;
    cuzk_status st =
        cuda_msm_streamed_check_subgroup(parts->streamer, parts->streamed[i][k], &bad);
    return subgroup_verdict(st, bad, what, msg, msg_len);
}

cuzk_status cuda_plan_upload(cuda_plan_parts *parts, cuda_msm_ctx *msm, const groth16_plan *plan,
                             const cuda_plan_placement *placement, bool check_subgroup,
                             uint64_t *bytes, char *msg, size_t msg_len)
{
    bool resident[GROTH16_PLAN_MAX_MSMS][GROTH16_MSM_MAX_PARTS];
    place_parts(plan, placement, resident);
    for (unsigned i = 0; i < plan->num_msms; i++) {
        const groth16_msm *m = &plan->msm[i];
        bool g2 = part_is_g2(m);
        for (unsigned k = 0; k < m->num_parts; k++) {
            const groth16_msm_part *p = &m->part[k];
            if (placement) {
                cuzk_status st = chunk_part(parts, msm, m, i, k, placement, resident[i][k],
                                            check_subgroup, bytes, msg, msg_len);
                if (st != CUZK_OK)
                    return st;
                continue;
            }
            char what[64];
            snprintf(what, sizeof(what), "uploading %s, part %u", proof_phase_name(m->phase), k);
            if (cuda_msm_points_upload(msm, g2 ? CUDA_MSM_G2 : CUDA_MSM_G1, p->points,
                                       p->num_points, &parts->pts[i][k]) != CUZK_OK)
                return dev_error(msg, msg_len, what, cuda_msm_last_error());
            *bytes += p->num_points * (g2 ? CUDA_MSM_G2_AFFINE_BYTES : CUDA_MSM_G1_AFFINE_BYTES);
            if (check_subgroup) {
                snprintf(what, sizeof(what), "%s, part %u", proof_phase_name(m->phase), k);
                size_t bad = SIZE_MAX;
                cuzk_status st = cuda_msm_points_check_subgroup(msm, parts->pts[i][k], &bad);
                if ((st = subgroup_verdict(st, bad, what, msg, msg_len)) != CUZK_OK)
                    return st;
            }
            if (p->density) {
                if (cuda_msm_density_upload(msm, p->density, p->count, &parts->dens[i][k]) !=
                    CUZK_OK)
                    return dev_error(msg, msg_len, what, cuda_msm_last_error());
                *bytes += (p->count + 63) / 64 * (sizeof(uint64_t) + sizeof(uint32_t));
            }
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
            cuda_msm_streamed_free(parts->streamed[i][k]);
        }
    cuda_msm_streamer_destroy(parts->streamer);
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
    if (parts->streamed[i][k])
        return cuda_msm_streamed_run(parts->streamer, parts->streamed[i][k], s, p->count,
                                     p->scalars != GROTH16_SCALARS_H,
                                     m->term == GROTH16_TERM_B_G2 ? (void *)o2 : (void *)o1);
    if (m->term == GROTH16_TERM_B_G2)
        return den ? cuda_msm_g2_dense(msm, pts, s, p->count, den, o2, NULL)
                   : cuda_msm_g2_split(msm, pts, s, p->count, o2, NULL);
    if (den)
        return cuda_msm_g1_dense(msm, pts, s, p->count, den, o1, NULL);
    if (p->scalars == GROTH16_SCALARS_H)
        return cuda_msm_g1(msm, pts, s, p->count, o1, NULL);
    return cuda_msm_g1_split(msm, pts, s, p->count, o1, NULL);
}

/* The quotient in place: three vectors, or two (d_abc[2] NULL). */
static cuzk_status run_quotient(const groth16_plan *plan, unsigned log_n, cuda_ntt_ctx *ntt,
                                void *const d_abc[3], cuda_h_fill_fn fill_c, void *fill_arg,
                                uint64_t rows)
{
    const bool bellman = plan->quotient == GROTH16_QUOTIENT_BELLMAN;
    if (!d_abc[2])
        return bellman ? cuda_compute_h_lean(ntt, d_abc[0], d_abc[1], rows, log_n,
                                             CUDA_H_COSET_GENERATOR, fill_c, fill_arg, NULL)
                       : cuda_h_coset_evals_lean(ntt, d_abc[0], d_abc[1], rows, log_n,
                                                 CUDA_H_COSET_2N_ROOT, fill_c, fill_arg, NULL);
    return bellman ? cuda_compute_h(ntt, d_abc[0], d_abc[1], d_abc[2], rows, log_n,
                                    CUDA_H_COSET_GENERATOR, NULL)
                   : cuda_h_coset_evals(ntt, d_abc[0], d_abc[1], d_abc[2], rows, log_n,
                                        CUDA_H_COSET_2N_ROOT, NULL);
}

cuzk_status cuda_plan_run(const groth16_plan *plan, unsigned log_n, cuda_ntt_ctx *ntt,
                          cuda_msm_ctx *msm, const cuda_plan_parts *parts, void *const d_abc[3],
                          cuda_h_fill_fn fill_c, void *fill_arg, const void *d_w, uint64_t rows,
                          groth16_sums *out, cuda_plan_step_fn step, void *step_ctx, char *msg,
                          size_t msg_len)
{
    cuzk_status st = run_quotient(plan, log_n, ntt, d_abc, fill_c, fill_arg, rows);
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
