/* Building proof plans, and their CPU executor. */
#include "groth16/plan.h"

#include <stdio.h>
#include <string.h>

#include "curve/g1.h"
#include "curve/g2.h"
#include "msm/msm.h"
#include "poly/quotient.h"
#include "util/msg.h"
#include "util/parallel.h"

static groth16_msm_part part_of(const void *points, uint64_t num_points, groth16_scalars from,
                                uint64_t offset, uint64_t count, const uint64_t *density)
{
    return (groth16_msm_part){.points = points,
                              .num_points = num_points,
                              .scalars = from,
                              .offset = offset,
                              .count = count,
                              .density = density};
}

void groth16_plan_bellman(groth16_plan *plan, const groth16_bellman_query *q,
                          const domain_t *domain)
{
    uint64_t ni = q->num_inputs, na = q->num_aux;
    memset(plan, 0, sizeof(*plan));
    plan->quotient = GROTH16_QUOTIENT_BELLMAN;
    plan->domain = domain;
    plan->num_vars = ni + na;
    plan->num_h = domain->n - 1;
    groth16_msm *m = plan->msm;
    m[0] = (groth16_msm){.phase = PHASE_MSM_H, .term = GROTH16_TERM_C, .num_parts = 1};
    m[0].part[0] = part_of(q->h, plan->num_h, GROTH16_SCALARS_H, 0, plan->num_h, NULL);
    m[1] = (groth16_msm){.phase = PHASE_MSM_L, .term = GROTH16_TERM_C, .num_parts = 1};
    m[1].part[0] = part_of(q->l, na, GROTH16_SCALARS_W, ni, na, NULL);
    m[2] = (groth16_msm){.phase = PHASE_MSM_A, .term = GROTH16_TERM_A, .num_parts = 2};
    m[2].part[0] = part_of(q->a, ni, GROTH16_SCALARS_W, 0, ni, NULL);
    m[2].part[1] = part_of(q->a + ni, q->a_aux_count, GROTH16_SCALARS_W, ni, na, q->a_aux_density);
    m[3] = (groth16_msm){.phase = PHASE_MSM_B_G1, .term = GROTH16_TERM_B_G1, .num_parts = 2};
    m[3].part[0] = part_of(q->b_g1, q->b_input_count, GROTH16_SCALARS_W, 0, ni, q->b_input_density);
    m[3].part[1] = part_of(q->b_g1 + q->b_input_count, q->b_aux_count, GROTH16_SCALARS_W, ni, na,
                           q->b_aux_density);
    m[4] = (groth16_msm){.phase = PHASE_MSM_B_G2, .term = GROTH16_TERM_B_G2, .num_parts = 2};
    m[4].part[0] = part_of(q->b_g2, q->b_input_count, GROTH16_SCALARS_W, 0, ni, q->b_input_density);
    m[4].part[1] = part_of(q->b_g2 + q->b_input_count, q->b_aux_count, GROTH16_SCALARS_W, ni, na,
                           q->b_aux_density);
    plan->num_msms = 5;
}

const char *groth16_query_mismatch(const groth16_query_lengths *have,
                                   const groth16_bellman_query *q, uint64_t domain_n,
                                   uint64_t *have_len, uint64_t *want_len)
{
    const uint64_t b = q->b_input_count + q->b_aux_count;
    const struct {
        const char *what;
        uint64_t have, want;
    } checks[] = {
        {"IC (inputs)", have->ic, q->num_inputs},
        {"L (aux variables)", have->l, q->num_aux},
        {"H (domain size - 1)", have->h, domain_n - 1},
        {"A", have->a, q->num_inputs + q->a_aux_count},
        {"B_G1", have->b_g1, b},
        {"B_G2", have->b_g2, b},
    };
    for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++)
        if (checks[i].have != checks[i].want) {
            *have_len = checks[i].have;
            *want_len = checks[i].want;
            return checks[i].what;
        }
    return NULL;
}

void groth16_plan_snarkjs(groth16_plan *plan, const groth16_snarkjs_query *q,
                          const domain_t *domain)
{
    uint64_t nv = q->num_vars, first_private = q->num_public + 1;
    memset(plan, 0, sizeof(*plan));
    plan->quotient = GROTH16_QUOTIENT_SNARKJS;
    plan->domain = domain;
    plan->num_vars = nv;
    plan->num_h = domain->n;
    groth16_msm *m = plan->msm;
    m[0] = (groth16_msm){.phase = PHASE_MSM_H, .term = GROTH16_TERM_C, .num_parts = 2};
    m[0].part[0] = part_of(q->h, plan->num_h, GROTH16_SCALARS_H, 0, plan->num_h, NULL);
    m[0].part[1] = part_of(q->c, nv - first_private, GROTH16_SCALARS_W, first_private,
                           nv - first_private, NULL);
    m[1] = (groth16_msm){.phase = PHASE_MSM_A, .term = GROTH16_TERM_A, .num_parts = 1};
    m[1].part[0] = part_of(q->a, q->a_density ? q->a_points : nv, GROTH16_SCALARS_W, 0, nv,
                           q->a_density);
    m[2] = (groth16_msm){.phase = PHASE_MSM_B_G1, .term = GROTH16_TERM_B_G1, .num_parts = 1};
    m[2].part[0] = part_of(q->b1, q->b1_density ? q->b1_points : nv, GROTH16_SCALARS_W, 0, nv,
                           q->b1_density);
    m[3] = (groth16_msm){.phase = PHASE_MSM_B_G2, .term = GROTH16_TERM_B_G2, .num_parts = 1};
    m[3].part[0] = part_of(q->b2, q->b2_density ? q->b2_points : nv, GROTH16_SCALARS_W, 0, nv,
                           q->b2_density);
    plan->num_msms = 4;
}

cuzk_status groth16_plan_check(const groth16_plan *plan, char *msg, size_t msg_len)
{
    if (!plan->domain || plan->num_msms > GROTH16_PLAN_MAX_MSMS) {
        msg_set(msg, msg_len, "the proof plan has no domain or too many MSMs");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    for (unsigned i = 0; i < plan->num_msms; i++) {
        const groth16_msm *m = &plan->msm[i];
        for (unsigned k = 0; k < m->num_parts; k++) {
            const groth16_msm_part *p = &m->part[k];
            uint64_t len = p->scalars == GROTH16_SCALARS_H ? plan->num_h : plan->num_vars;
            uint64_t want = p->density ? msm_popcount(p->density, p->count) : p->count;
            if (p->offset > len || p->count > len - p->offset || p->num_points != want ||
                (p->num_points && !p->points)) {
                msg_set(msg, msg_len,
                        "%s, part %u: %llu points for scalars %llu..%llu of %llu (%llu wanted)",
                        proof_phase_name(m->phase), k, (unsigned long long)p->num_points,
                        (unsigned long long)p->offset, (unsigned long long)(p->offset + p->count),
                        (unsigned long long)len, (unsigned long long)want);
                return CUZK_ERR_INVALID_ARGUMENT;
            }
        }
    }
    return CUZK_OK;
}

uint64_t groth16_msm_bytes(const groth16_msm *m)
{
    uint64_t point = m->term == GROTH16_TERM_B_G2 ? 192 : 96, bytes = 0;
    for (unsigned k = 0; k < m->num_parts; k++)
        bytes += m->part[k].count * sizeof(fr_t) + m->part[k].num_points * point;
    return bytes;
}

/* ------------------------------------------------------------ executor */

typedef struct plan_run {
    const groth16_plan *plan;
    const fr_t *w;
    fr_t *abc; /* a, b, c; h in the first after the quotient */
    uint64_t rows;
    groth16_step_fn step;
    void *step_ctx;
    unsigned quotient_msm; /* the MSM the quotient runs before (the first over h) */
    bool fuse;             /* that MSM's two parts run as one (see can_fuse) */
    unsigned group[GROTH16_PLAN_MAX_MSMS];
    unsigned threads[2];
    g1_jac_t g1[GROTH16_PLAN_MAX_MSMS];
    g2_jac_t g2[GROTH16_PLAN_MAX_MSMS];
    cuzk_status st[GROTH16_PLAN_MAX_MSMS];
    proof_phase failed[GROTH16_PLAN_MAX_MSMS];
} plan_run;

static void step(const plan_run *r, proof_phase phase, bool end)
{
    if (r->step)
        r->step(r->step_ctx, phase, end);
}

static bool uses_h(const groth16_msm *m)
{
    for (unsigned k = 0; k < m->num_parts; k++)
        if (m->part[k].scalars == GROTH16_SCALARS_H)
            return true;
    return false;
}

/* An MSM over h then witness scalars, with the two parts' points adjacent
 * in memory (a snarkjs key's H and C, decoded into one block), is one
 * Pippenger run: the witness scalars are copied right after h, where b and
 * c were, when they fit there. One run over n + m points costs less than
 * two over n and m (the bucket reduction is paid once). */
static bool can_fuse(const groth16_plan *plan, const groth16_msm *m)
{
    const groth16_msm_part *p = m->part;
    return m->term != GROTH16_TERM_B_G2 && m->num_parts == 2 && p[0].scalars == GROTH16_SCALARS_H &&
           p[0].offset == 0 && !p[0].density && p[1].scalars == GROTH16_SCALARS_W &&
           !p[1].density && (const g1_affine_t *)p[0].points + p[0].num_points == p[1].points &&
           p[1].count <= 2 * (uint64_t)plan->domain->n;
}

static cuzk_status run_quotient(const plan_run *r, unsigned threads)
{
    const groth16_plan *plan = r->plan;
    const domain_t *d = plan->domain;
    size_t n = d->n;
    fr_t *va = r->abc, *vb = va + n, *vc = vb + n;
    cuzk_status st;
    if (plan->quotient == GROTH16_QUOTIENT_BELLMAN) {
        st = poly_compute_h(va, vb, vc, r->rows, d, POLY_H_COSET_GENERATOR, threads);
        if (st == CUZK_OK && !poly_h_top_is_zero(va, d))
            st = CUZK_ERR_UNSATISFIED;
    } else {
        st = poly_h_coset_evals(va, vb, vc, r->rows, d, POLY_H_COSET_2N_ROOT, threads);
    }
    return st;
}

/* One part into g1 / g2 (by the MSM's term). */
static cuzk_status run_part(const plan_run *r, const groth16_msm *m, const groth16_msm_part *p,
                            g1_jac_t *g1, g2_jac_t *g2, unsigned threads)
{
    const fr_t *s = (p->scalars == GROTH16_SCALARS_H ? r->abc : r->w) + p->offset;
    if (m->term == GROTH16_TERM_B_G2)
        return p->density
                   ? msm_g2_dense(g2, p->points, p->num_points, s, p->count, p->density, threads)
                   : msm_g2_split(g2, p->points, s, p->count, threads);
    if (p->density)
        return msm_g1_dense(g1, p->points, p->num_points, s, p->count, p->density, threads);
    if (p->scalars == GROTH16_SCALARS_H)
        return msm_g1(g1, p->points, s, p->count, threads);
    return msm_g1_split(g1, p->points, s, p->count, threads);
}

/* MSM i (the quotient first when it is the one over h). */
static cuzk_status run_msm(plan_run *r, unsigned i, unsigned threads, proof_phase *failed)
{
    const groth16_msm *m = &r->plan->msm[i];
    cuzk_status st;
    if (i == r->quotient_msm) {
        step(r, PHASE_H, false);
        if ((st = run_quotient(r, threads)) != CUZK_OK) {
            *failed = PHASE_H;
            return st;
        }
        step(r, PHASE_H, true);
    }
    step(r, m->phase, false);
    g1_jac_set_infinity(&r->g1[i]);
    g2_jac_set_infinity(&r->g2[i]);
    if (i == r->quotient_msm && r->fuse) {
        const groth16_msm_part *p = m->part;
        fr_t *h = r->abc;
        memcpy(h + p[0].count, r->w + p[1].offset, p[1].count * sizeof(fr_t));
        st = msm_g1_split(&r->g1[i], p[0].points, h, p[0].count + p[1].count, threads);
    } else {
        st = CUZK_OK;
        for (unsigned k = 0; k < m->num_parts && st == CUZK_OK; k++) {
            g1_jac_t t1;
            g2_jac_t t2;
            st = run_part(r, m, &m->part[k], &t1, &t2, threads);
            if (st == CUZK_OK && m->term == GROTH16_TERM_B_G2)
                g2_jac_add(&r->g2[i], &r->g2[i], &t2);
            else if (st == CUZK_OK)
                g1_jac_add(&r->g1[i], &r->g1[i], &t1);
        }
    }
    if (st != CUZK_OK) {
        *failed = m->phase;
        return st;
    }
    step(r, m->phase, true);
    return CUZK_OK;
}

static void run_groups(void *arg, size_t begin, size_t end)
{
    plan_run *r = arg;
    for (size_t g = begin; g < end; g++)
        for (unsigned i = 0; i < r->plan->num_msms; i++)
            if (r->group[i] == g)
                r->st[i] = run_msm(r, i, r->threads[g], &r->failed[i]);
}

/* Pairs a Pippenger run would see: a point not at infinity with a scalar
 * other than 0 and 1 (the split takes those), or any h value. */
static double part_work(const plan_run *r, const groth16_msm *m, const groth16_msm_part *p)
{
    if (p->scalars == GROTH16_SCALARS_H)
        return (double)p->count;
    const fr_t *s = r->w + p->offset;
    bool g2 = m->term == GROTH16_TERM_B_G2;
    uint64_t k = 0, pt = 0;
    for (uint64_t i = 0; i < p->count; i++) {
        if (p->density && !((p->density[i / 64] >> (i % 64)) & 1))
            continue;
        bool inf = g2 ? ((const g2_affine_t *)p->points)[pt].infinity
                      : ((const g1_affine_t *)p->points)[pt].infinity;
        pt++;
        k += !inf && !fr_is_zero(&s[i]) && !fr_eq(&s[i], &FR_ONE);
    }
    return (double)k;
}

cuzk_status groth16_plan_sums(groth16_sums *sums, const groth16_plan *plan, const fr_t *w,
                              fr_t *abc, uint64_t rows, unsigned threads, groth16_step_fn step_fn,
                              void *step_ctx, proof_phase *failed)
{
    proof_phase failed_local;
    if (!failed)
        failed = &failed_local;
    *failed = PHASE_H;
    if (rows > plan->domain->n)
        return CUZK_ERR_INVALID_ARGUMENT;
    plan_run r = {.plan = plan,
                  .w = w,
                  .abc = abc,
                  .rows = rows,
                  .step = step_fn,
                  .step_ctx = step_ctx,
                  .quotient_msm = GROTH16_PLAN_MAX_MSMS};
    for (unsigned i = 0; i < plan->num_msms && r.quotient_msm == GROTH16_PLAN_MAX_MSMS; i++)
        if (uses_h(&plan->msm[i]))
            r.quotient_msm = i;
    r.fuse = r.quotient_msm < plan->num_msms && can_fuse(plan, &plan->msm[r.quotient_msm]);

    unsigned t = parallel_threads(threads);
    if (t < 2) {
        for (unsigned i = 0; i < plan->num_msms; i++)
            if ((r.st[i] = run_msm(&r, i, t, failed)) != CUZK_OK)
                return r.st[i];
    } else {
        /* Two concurrent groups of about equal work, the largest MSM first
         * into the lighter group: one MSM on all threads waits for its
         * slowest thread at each pass; two at a time keep the threads busy
         * through those waits, and the quotient overlaps the other group.
         * A G2 point costs about 2.5 G1 points, the quotient about 0.2 of a
         * point a row. */
        double work[GROTH16_PLAN_MAX_MSMS] = {0}, load[2] = {0, 0};
        bool placed[GROTH16_PLAN_MAX_MSMS] = {false};
        for (unsigned i = 0; i < plan->num_msms; i++) {
            const groth16_msm *m = &plan->msm[i];
            for (unsigned k = 0; k < m->num_parts; k++)
                work[i] += part_work(&r, m, &m->part[k]);
            if (m->term == GROTH16_TERM_B_G2)
                work[i] *= 2.5;
            if (i == r.quotient_msm)
                work[i] += 0.2 * (double)plan->domain->n;
        }
        for (unsigned k = 0; k < plan->num_msms; k++) {
            unsigned best = 0;
            while (placed[best])
                best++;
            for (unsigned i = best + 1; i < plan->num_msms; i++)
                if (!placed[i] && work[i] > work[best])
                    best = i;
            placed[best] = true;
            unsigned g = load[1] < load[0];
            r.group[best] = g;
            load[g] += work[best];
        }
        r.threads[0] = (t + 1) / 2;
        r.threads[1] = t / 2;
        parallel_for(2, 1, 2, run_groups, &r);
        for (unsigned i = 0; i < plan->num_msms; i++)
            if (r.st[i] != CUZK_OK) {
                *failed = r.failed[i];
                return r.st[i];
            }
    }
    g1_jac_set_infinity(&sums->a);
    g1_jac_set_infinity(&sums->b1);
    g1_jac_set_infinity(&sums->c);
    g2_jac_set_infinity(&sums->b);
    for (unsigned i = 0; i < plan->num_msms; i++) {
        switch (plan->msm[i].term) {
        case GROTH16_TERM_A:
            g1_jac_add(&sums->a, &sums->a, &r.g1[i]);
            break;
        case GROTH16_TERM_B_G1:
            g1_jac_add(&sums->b1, &sums->b1, &r.g1[i]);
            break;
        case GROTH16_TERM_B_G2:
            g2_jac_add(&sums->b, &sums->b, &r.g2[i]);
            break;
        case GROTH16_TERM_C:
            g1_jac_add(&sums->c, &sums->c, &r.g1[i]);
            break;
        }
    }
    return CUZK_OK;
}
