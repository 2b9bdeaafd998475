/* The proof plan on one device (cuda_plan.h). */
#define _POSIX_C_SOURCE 200809L
#include "backend/cuda_plan.h"

#ifdef CUZK_HAVE_CUDA

#include <pthread.h>
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

/* The device group of an MSM of the plan: its curve's G1 or G2. */
static cuda_msm_group msm_group(const groth16_plan *plan, const groth16_msm *m)
{
    return cuda_msm_group_of(plan->curve == CURVE_BN254, part_is_g2(m));
}

/* Device bytes of a part made resident: its points and its bitmap. */
static uint64_t part_device_bytes(const groth16_plan *plan, const groth16_msm *m,
                                  const groth16_msm_part *p)
{
    uint64_t b = cuda_msm_points_host_bytes(msm_group(plan, m), p->num_points);
    if (p->density)
        b += (p->count + 63) / 64 * (sizeof(uint64_t) + sizeof(uint32_t));
    return b;
}

/* Points of a part that stay resident (cuda_plan_placement's order): all
 * of them (SIZE_MAX) for whole parts that fit, the leading points that
 * fit for the first part that does not, none after. */
static void place_parts(const groth16_plan *plan, const cuda_plan_placement *pl,
                        size_t resident[GROTH16_PLAN_MAX_MSMS][GROTH16_MSM_MAX_PARTS])
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
            resident[i][k] = pl ? 0 : SIZE_MAX;
            c[nc++] = (cand){.i = i,
                             .k = k,
                             .quotient = p->scalars == GROTH16_SCALARS_H,
                             .bytes = part_device_bytes(plan, &plan->msm[i], p)};
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
    for (unsigned a = 0; a < nc && room; a++) {
        if (c[a].bytes <= room) {
            resident[c[a].i][c[a].k] = SIZE_MAX;
            room -= c[a].bytes;
            continue;
        }
        /* The rest of the room to this part's leading points (its bitmap
         * is on the device either way). */
        const groth16_msm *m = &plan->msm[c[a].i];
        const groth16_msm_part *p = &m->part[c[a].k];
        const uint64_t point_bytes = cuda_msm_points_host_bytes(msm_group(plan, m), 1);
        const uint64_t map =
            p->density ? (p->count + 63) / 64 * (sizeof(uint64_t) + sizeof(uint32_t)) : 0;
        resident[c[a].i][c[a].k] = room > map ? (size_t)((room - map) / point_bytes) : 0;
        room = 0;
    }
}

static cuzk_status subgroup_verdict(cuzk_status st, size_t bad, const char *what, char *msg,
                                    size_t msg_len)
{
    if (st != CUZK_OK)
        return dev_error(msg, msg_len, what, cuda_msm_last_error());
    if (bad != SIZE_MAX) {
        backend_msg(msg, msg_len,
                    "%s: point %zu is not in the order-r subgroup (checked on the "
                    "device)",
                    what, bad);
        return CUZK_ERR_CORRUPT;
    }
    return CUZK_OK;
}

/* Part k of MSM i in chunks: resident, or left in host memory to stream. */
static cuzk_status chunk_part(cuda_plan_parts *parts, cuda_msm_ctx *msm, const groth16_msm *m,
                              unsigned i, unsigned k, const cuda_plan_placement *pl,
                              size_t resident_points, bool check_subgroup, uint64_t *bytes,
                              char *msg, size_t msg_len)
{
    const groth16_msm_part *p = &m->part[k];
    char what[64];
    snprintf(what, sizeof(what), "%s, part %u", proof_phase_name(m->phase), k);
    const bool side = pl->side && p->scalars != GROTH16_SCALARS_H;
    cuda_msm_streamer **streamer = side ? &parts->wstreamer : &parts->streamer;
    if (!*streamer) {
        if (cuda_msm_streamer_create(side ? pl->side : msm,
                                     side ? pl->side_chunk_points : pl->chunk_points,
                                     streamer) != CUZK_OK)
            return dev_error(msg, msg_len, "the buffers of streamed bases", cuda_msm_last_error());
        cuda_msm_streamer_set_shared_buckets(*streamer, !pl->h_per_chunk);
        *bytes += cuda_msm_streamer_device_bytes(*streamer);
    }
    cuda_msm_group g = part_is_g2(m) ? CUDA_MSM_G2 : CUDA_MSM_G1; /* streamed: BLS12-381 only */
    if (cuda_msm_streamed_create(*streamer, g, p->points, p->num_points, p->density, p->count,
                                 resident_points, &parts->streamed[i][k]) != CUZK_OK)
        return dev_error(msg, msg_len, what, cuda_msm_last_error());
    *bytes += cuda_msm_streamed_device_bytes(parts->streamed[i][k]);
    const size_t kept = cuda_msm_streamed_resident_points(parts->streamed[i][k]);
    parts->resident_bytes += cuda_msm_points_host_bytes(g, kept);
    if (kept < p->num_points) {
        parts->num_streamed++;
        parts->streamed_bytes += cuda_msm_points_host_bytes(g, p->num_points - kept);
    }
    if (!check_subgroup)
        return CUZK_OK;
    size_t bad = SIZE_MAX;
    cuzk_status st = cuda_msm_streamed_check_subgroup(*streamer, parts->streamed[i][k], &bad);
    return subgroup_verdict(st, bad, what, msg, msg_len);
}

cuzk_status cuda_plan_upload(cuda_plan_parts *parts, cuda_msm_ctx *msm, const groth16_plan *plan,
                             const cuda_plan_placement *placement, bool check_subgroup,
                             uint64_t *bytes, char *msg, size_t msg_len)
{
    if (placement && plan->curve == CURVE_BN254) {
        backend_msg(msg, msg_len,
                    "the parameters do not fit the device budget, and streaming them serves "
                    "BLS12-381 circuits only");
        return CUZK_ERR_UNSUPPORTED;
    }
    size_t resident[GROTH16_PLAN_MAX_MSMS][GROTH16_MSM_MAX_PARTS];
    place_parts(plan, placement, resident);
    for (unsigned i = 0; i < plan->num_msms; i++) {
        const groth16_msm *m = &plan->msm[i];
        const cuda_msm_group g = msm_group(plan, m);
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
            if (cuda_msm_points_upload(msm, g, p->points, p->num_points, &parts->pts[i][k]) !=
                CUZK_OK)
                return dev_error(msg, msg_len, what, cuda_msm_last_error());
            *bytes += cuda_msm_points_host_bytes(g, p->num_points);
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
    cuda_msm_streamer_destroy(parts->wstreamer);
    memset(parts, 0, sizeof(*parts));
}

/* Whether MSM i runs on the side context: every part over the witness and
 * streamed (the side context's handles), and a witness streamer. */
static bool on_side(const cuda_plan_parts *parts, const groth16_msm *m, unsigned i)
{
    if (!parts->wstreamer)
        return false;
    for (unsigned k = 0; k < m->num_parts; k++)
        if (m->part[k].scalars == GROTH16_SCALARS_H || !parts->streamed[i][k])
            return false;
    return true;
}

/* One part of an MSM: the split for witness scalars, the density-filtered
 * split where the part has a bitmap, plain Pippenger for the quotient's;
 * waited for. g1, g2: the result's slot by the term (a BN254 plan's
 * bn254_g1_jac_t, bn254_g2_jac_t in them). */
static cuzk_status run_part(const groth16_plan *plan, cuda_msm_ctx *msm,
                            const cuda_plan_parts *parts, const groth16_msm *m, unsigned i,
                            unsigned k, const void *d_h, const void *d_w, g1_jac_t *g1,
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
    if (parts->streamed[i][k]) {
        /* chunk_part's choice of streamer */
        cuda_msm_streamer *sm = parts->wstreamer && p->scalars != GROTH16_SCALARS_H
                                    ? parts->wstreamer
                                    : parts->streamer;
        return cuda_msm_streamed_run(sm, parts->streamed[i][k], s, p->count,
                                     p->scalars != GROTH16_SCALARS_H,
                                     m->term == GROTH16_TERM_B_G2 ? (void *)o2 : (void *)o1);
    }
    const cuda_msm_group g = msm_group(plan, m);
    void *out = m->term == GROTH16_TERM_B_G2 ? (void *)o2 : (void *)o1;
    cuzk_status st;
    if (den)
        st = cuda_msm_dense(msm, g, pts, s, p->count, den, out, NULL);
    else if (p->scalars == GROTH16_SCALARS_H)
        st = cuda_msm(msm, g, pts, s, p->count, out, NULL);
    else
        st = cuda_msm_split(msm, g, pts, s, p->count, out, NULL);
    return st == CUZK_OK ? cuda_msm_wait(msm) : st;
}

/* One MSM's parts and its interval, run by either thread. A BN254 plan's
 * results are its smaller points, in the same slots. */
_Static_assert(sizeof(bn254_g1_jac_t) <= sizeof(g1_jac_t) &&
                   sizeof(bn254_g2_jac_t) <= sizeof(g2_jac_t),
               "BN254 results fit BLS12-381's slots");
typedef struct msm_result {
    g1_jac_t g1[GROTH16_MSM_MAX_PARTS];
    g2_jac_t g2[GROTH16_MSM_MAX_PARTS];
    uint64_t start_ns, end_ns;
    cuzk_status st;
    unsigned failed_part;
    char why[160]; /* the failing thread's CUDA error (cuda_msm_last_error is per thread) */
} msm_result;

static void run_msm(const groth16_plan *plan, cuda_msm_ctx *msm, const cuda_plan_parts *parts,
                    const groth16_msm *m, unsigned i, const void *d_h, const void *d_w,
                    msm_result *r)
{
    r->start_ns = backend_clock_ns();
    r->st = CUZK_OK;
    for (unsigned k = 0; k < m->num_parts; k++) {
        if (plan->curve == CURVE_BN254) {
            bn254_g1_jac_set_infinity((bn254_g1_jac_t *)(void *)&r->g1[k]);
            bn254_g2_jac_set_infinity((bn254_g2_jac_t *)(void *)&r->g2[k]);
        } else {
            g1_jac_set_infinity(&r->g1[k]);
            g2_jac_set_infinity(&r->g2[k]);
        }
        if ((r->st = run_part(plan, msm, parts, m, i, k, d_h, d_w, &r->g1[k], &r->g2[k])) !=
            CUZK_OK) {
            r->failed_part = k;
            snprintf(r->why, sizeof(r->why), "%s", cuda_msm_last_error());
            break;
        }
    }
    r->end_ns = backend_clock_ns();
}

/* The witness MSMs on the side context, in their own thread. */
typedef struct side_run {
    const groth16_plan *plan;
    const cuda_plan_parts *parts;
    const void *d_w;
    msm_result *res;
} side_run;

static void *side_main(void *arg)
{
    const side_run *sr = arg;
    for (unsigned i = 0; i < sr->plan->num_msms; i++) {
        const groth16_msm *m = &sr->plan->msm[i];
        if (!on_side(sr->parts, m, i))
            continue;
        run_msm(sr->plan, NULL, sr->parts, m, i, NULL, sr->d_w, &sr->res[i]);
        if (sr->res[i].st != CUZK_OK)
            break;
    }
    return NULL;
}

/* The sums of a plan's curve: BLS12-381's members of groth16_sums, or its
 * bn254 member. */
static void sums_clear(const groth16_plan *plan, groth16_sums *out)
{
    if (plan->curve == CURVE_BN254) {
        bn254_g1_jac_set_infinity(&out->bn254.a);
        bn254_g1_jac_set_infinity(&out->bn254.b1);
        bn254_g1_jac_set_infinity(&out->bn254.c);
        bn254_g2_jac_set_infinity(&out->bn254.b);
        return;
    }
    g1_jac_set_infinity(&out->a);
    g1_jac_set_infinity(&out->b1);
    g1_jac_set_infinity(&out->c);
    g2_jac_set_infinity(&out->b);
}

/* The term's sum += a part's result (t1 for G1 terms, t2 for G2). */
static void sums_add(const groth16_plan *plan, groth16_sums *out, groth16_term term,
                     const g1_jac_t *t1, const g2_jac_t *t2)
{
    if (plan->curve == CURVE_BN254) {
        bn254_g1_jac_t *to = term == GROTH16_TERM_A      ? &out->bn254.a
                             : term == GROTH16_TERM_B_G1 ? &out->bn254.b1
                                                         : &out->bn254.c;
        if (term == GROTH16_TERM_B_G2)
            bn254_g2_jac_add(&out->bn254.b, &out->bn254.b,
                             (const bn254_g2_jac_t *)(const void *)t2);
        else
            bn254_g1_jac_add(to, to, (const bn254_g1_jac_t *)(const void *)t1);
        return;
    }
    switch (term) {
    case GROTH16_TERM_A:
        g1_jac_add(&out->a, &out->a, t1);
        break;
    case GROTH16_TERM_B_G1:
        g1_jac_add(&out->b1, &out->b1, t1);
        break;
    case GROTH16_TERM_B_G2:
        g2_jac_add(&out->b, &out->b, t2);
        break;
    case GROTH16_TERM_C:
        g1_jac_add(&out->c, &out->c, t1);
        break;
    }
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
                          groth16_sums *out, cuda_plan_step_fn step, void *step_ctx,
                          cuda_plan_h_done_fn h_done, void *h_done_ctx, char *msg, size_t msg_len)
{
    msm_result res[GROTH16_PLAN_MAX_MSMS];
    memset(res, 0, sizeof(res));
    side_run sr = {.plan = plan, .parts = parts, .d_w = d_w, .res = res};
    bool side = false;
    for (unsigned i = 0; i < plan->num_msms; i++)
        side = side || on_side(parts, &plan->msm[i], i);
    pthread_t side_thread;
    if (side && pthread_create(&side_thread, NULL, side_main, &sr) != 0)
        side = false; /* no thread: the main one runs them after the quotient's */
    bool joined = !side;

    const uint64_t h_start = backend_clock_ns();
    cuzk_status st = run_quotient(plan, log_n, ntt, d_abc, fill_c, fill_arg, rows);
    if (st == CUZK_OK)
        st = cuda_ntt_sync(ntt, NULL);
    if (st != CUZK_OK) {
        dev_error(msg, msg_len, "computing h", cuda_ntt_last_error());
        if (!joined)
            pthread_join(side_thread, NULL);
        return CUZK_ERR_DEVICE;
    }
    const uint64_t h_end = backend_clock_ns();
    if (h_done)
        h_done(h_done_ctx);
    if (!joined && parts->side_before_h_msm) {
        pthread_join(side_thread, NULL);
        joined = true;
    }
    for (unsigned i = 0; i < plan->num_msms; i++) {
        if (side && on_side(parts, &plan->msm[i], i))
            continue;
        run_msm(plan, msm, parts, &plan->msm[i], i, d_abc[0], d_w, &res[i]);
        if (res[i].st != CUZK_OK)
            break;
    }
    if (!joined)
        pthread_join(side_thread, NULL);

    /* The first failure in the plan's order (a thread stops at its first;
     * the MSMs after it in that thread did not run). */
    for (unsigned i = 0; i < plan->num_msms; i++)
        if (res[i].st != CUZK_OK) {
            char what[64];
            snprintf(what, sizeof(what), "%s, part %u", proof_phase_name(plan->msm[i].phase),
                     res[i].failed_part);
            return dev_error(msg, msg_len, what, res[i].why);
        }
    if (step)
        step(step_ctx, PHASE_H, NULL, NULL, NULL, h_start, h_end);
    sums_clear(plan, out);
    for (unsigned i = 0; i < plan->num_msms; i++) {
        const groth16_msm *m = &plan->msm[i];
        const msm_result *r = &res[i];
        for (unsigned k = 0; k < m->num_parts; k++)
            sums_add(plan, out, m->term, &r->g1[k], &r->g2[k]);
        if (step)
            step(step_ctx, m->phase, m, r->g1, r->g2, r->start_ns, r->end_ns);
    }
    return CUZK_OK;
}

#endif
