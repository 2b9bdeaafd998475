/* The CPU executor of proof plans (plan.h: groth16_plan_sums) for one
 * curve. No include guard: plan_exec.c includes it once per curve after
 * defining
 *   PX_(name)       the (static) names: bls12_381_##name
 *   PX_FR(name), PX_FR_T, PX_FR_ONE   the scalar field
 *   PX_G1(name), PX_G2(name)          the groups (g1_##name)
 *   PX_MSM_G1(suffix), PX_MSM_G2(suffix)   their MSMs (msm_g1##suffix)
 *   PX_POLY(name)   the quotient's functions (poly_##name)
 *   PX_DOMAIN_T, PX_DOMAIN(plan)      the domain type, and the plan's domain
 *   PX_SUMS_T       the sums type (groth16_sums or its bn254 member)
 * and undefines them after. */


typedef struct PX_(plan_run) {
    const groth16_plan *plan;
    const PX_FR_T *w;
    PX_FR_T *abc; /* a, b, c; h in the first after the quotient */
    uint64_t rows;
    groth16_step_fn step;
    void *step_ctx;
    unsigned quotient_msm; /* the MSM the quotient runs before (the first over h) */
    bool fuse;             /* that MSM's two parts run as one (see can_fuse) */
    unsigned group[GROTH16_PLAN_MAX_MSMS];
    unsigned threads[2];
    PX_G1(jac_t) g1[GROTH16_PLAN_MAX_MSMS];
    PX_G2(jac_t) g2[GROTH16_PLAN_MAX_MSMS];
    cuzk_status st[GROTH16_PLAN_MAX_MSMS];
    proof_phase failed[GROTH16_PLAN_MAX_MSMS];
} PX_(plan_run);

static void PX_(step)(const PX_(plan_run) *r, proof_phase phase, bool end)
{
    if (r->step)
        r->step(r->step_ctx, phase, end);
}

static bool PX_(uses_h)(const groth16_msm *m)
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
static bool PX_(can_fuse)(const groth16_plan *plan, const groth16_msm *m)
{
    const groth16_msm_part *p = m->part;
    return m->term != GROTH16_TERM_B_G2 && m->num_parts == 2 && p[0].scalars == GROTH16_SCALARS_H &&
           p[0].offset == 0 && !p[0].density && p[1].scalars == GROTH16_SCALARS_W &&
           !p[1].density && (const PX_G1(affine_t) *)p[0].points + p[0].num_points == p[1].points &&
           p[1].count <= 2 * (uint64_t)PX_DOMAIN(plan)->n;
}

static cuzk_status PX_(run_quotient)(const PX_(plan_run) *r, unsigned threads)
{
    const groth16_plan *plan = r->plan;
    const PX_DOMAIN_T *d = PX_DOMAIN(plan);
    size_t n = d->n;
    PX_FR_T *va = r->abc, *vb = va + n, *vc = vb + n;
    cuzk_status st;
    if (plan->quotient == GROTH16_QUOTIENT_BELLMAN) {
        st = PX_POLY(compute_h)(va, vb, vc, r->rows, d, POLY_H_COSET_GENERATOR, threads);
        if (st == CUZK_OK && !PX_POLY(h_top_is_zero)(va, d))
            st = CUZK_ERR_UNSATISFIED;
    } else {
        st = PX_POLY(h_coset_evals)(va, vb, vc, r->rows, d, POLY_H_COSET_2N_ROOT, threads);
    }
    return st;
}

/* One part into g1 / g2 (by the MSM's term). */
static cuzk_status PX_(run_part)(const PX_(plan_run) *r, const groth16_msm *m, const groth16_msm_part *p,
                            PX_G1(jac_t) *g1, PX_G2(jac_t) *g2, unsigned threads)
{
    const PX_FR_T *s = (p->scalars == GROTH16_SCALARS_H ? r->abc : r->w) + p->offset;
    if (m->term == GROTH16_TERM_B_G2)
        return p->density
                   ? PX_MSM_G2(_dense)(g2, p->points, p->num_points, s, p->count, p->density, threads)
                   : PX_MSM_G2(_split)(g2, p->points, s, p->count, threads);
    if (p->density)
        return PX_MSM_G1(_dense)(g1, p->points, p->num_points, s, p->count, p->density, threads);
    if (p->scalars == GROTH16_SCALARS_H)
        return PX_MSM_G1()(g1, p->points, s, p->count, threads);
    return PX_MSM_G1(_split)(g1, p->points, s, p->count, threads);
}

/* MSM i (the quotient first when it is the one over h). */
static cuzk_status PX_(run_msm)(PX_(plan_run) *r, unsigned i, unsigned threads, proof_phase *failed)
{
    const groth16_msm *m = &r->plan->msm[i];
    cuzk_status st;
    if (i == r->quotient_msm) {
        PX_(step)(r, PHASE_H, false);
        if ((st = PX_(run_quotient)(r, threads)) != CUZK_OK) {
            *failed = PHASE_H;
            return st;
        }
        PX_(step)(r, PHASE_H, true);
    }
    PX_(step)(r, m->phase, false);
    PX_G1(jac_set_infinity)(&r->g1[i]);
    PX_G2(jac_set_infinity)(&r->g2[i]);
    if (i == r->quotient_msm && r->fuse) {
        const groth16_msm_part *p = m->part;
        PX_FR_T *h = r->abc;
        memcpy(h + p[0].count, r->w + p[1].offset, p[1].count * sizeof(PX_FR_T));
        st = PX_MSM_G1(_split)(&r->g1[i], p[0].points, h, p[0].count + p[1].count, threads);
    } else {
        st = CUZK_OK;
        for (unsigned k = 0; k < m->num_parts && st == CUZK_OK; k++) {
            PX_G1(jac_t) t1;
            PX_G2(jac_t) t2;
            st = PX_(run_part)(r, m, &m->part[k], &t1, &t2, threads);
            if (st == CUZK_OK && m->term == GROTH16_TERM_B_G2)
                PX_G2(jac_add)(&r->g2[i], &r->g2[i], &t2);
            else if (st == CUZK_OK)
                PX_G1(jac_add)(&r->g1[i], &r->g1[i], &t1);
        }
    }
    if (st != CUZK_OK) {
        *failed = m->phase;
        return st;
    }
    PX_(step)(r, m->phase, true);
    return CUZK_OK;
}

static void PX_(run_groups)(void *arg, size_t begin, size_t end)
{
    PX_(plan_run) *r = arg;
    for (size_t g = begin; g < end; g++)
        for (unsigned i = 0; i < r->plan->num_msms; i++)
            if (r->group[i] == g)
                r->st[i] = PX_(run_msm)(r, i, r->threads[g], &r->failed[i]);
}

/* Pairs a Pippenger run would see: a point not at infinity with a scalar
 * other than 0 and 1 (the split takes those), or any h value. */
static double PX_(part_work)(const PX_(plan_run) *r, const groth16_msm *m, const groth16_msm_part *p)
{
    if (p->scalars == GROTH16_SCALARS_H)
        return (double)p->count;
    const PX_FR_T *s = r->w + p->offset;
    bool g2 = m->term == GROTH16_TERM_B_G2;
    uint64_t k = 0, pt = 0;
    for (uint64_t i = 0; i < p->count; i++) {
        if (p->density && !((p->density[i / 64] >> (i % 64)) & 1))
            continue;
        bool inf = g2 ? ((const PX_G2(affine_t) *)p->points)[pt].infinity
                      : ((const PX_G1(affine_t) *)p->points)[pt].infinity;
        pt++;
        k += !inf && !PX_FR(is_zero)(&s[i]) && !PX_FR(eq)(&s[i], &PX_FR_ONE);
    }
    return (double)k;
}

static cuzk_status PX_(plan_sums)(PX_SUMS_T *sums, const groth16_plan *plan, const PX_FR_T *w,
                                  PX_FR_T *abc, uint64_t rows, unsigned threads,
                                  groth16_step_fn step_fn, void *step_ctx, proof_phase *failed)
{
    proof_phase failed_local;
    if (!failed)
        failed = &failed_local;
    *failed = PHASE_H;
    if (rows > PX_DOMAIN(plan)->n)
        return CUZK_ERR_INVALID_ARGUMENT;
    PX_(plan_run) r = {.plan = plan,
                  .w = w,
                  .abc = abc,
                  .rows = rows,
                  .step = step_fn,
                  .step_ctx = step_ctx,
                  .quotient_msm = GROTH16_PLAN_MAX_MSMS};
    for (unsigned i = 0; i < plan->num_msms && r.quotient_msm == GROTH16_PLAN_MAX_MSMS; i++)
        if (PX_(uses_h)(&plan->msm[i]))
            r.quotient_msm = i;
    r.fuse = r.quotient_msm < plan->num_msms && PX_(can_fuse)(plan, &plan->msm[r.quotient_msm]);

    unsigned t = parallel_threads(threads);
    if (t < 2) {
        for (unsigned i = 0; i < plan->num_msms; i++)
            if ((r.st[i] = PX_(run_msm)(&r, i, t, failed)) != CUZK_OK)
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
                work[i] += PX_(part_work)(&r, m, &m->part[k]);
            if (m->term == GROTH16_TERM_B_G2)
                work[i] *= 2.5;
            if (i == r.quotient_msm)
                work[i] += 0.2 * (double)PX_DOMAIN(plan)->n;
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
        parallel_for(2, 1, 2, PX_(run_groups), &r);
        for (unsigned i = 0; i < plan->num_msms; i++)
            if (r.st[i] != CUZK_OK) {
                *failed = r.failed[i];
                return r.st[i];
            }
    }
    PX_G1(jac_set_infinity)(&sums->a);
    PX_G1(jac_set_infinity)(&sums->b1);
    PX_G1(jac_set_infinity)(&sums->c);
    PX_G2(jac_set_infinity)(&sums->b);
    for (unsigned i = 0; i < plan->num_msms; i++) {
        switch (plan->msm[i].term) {
        case GROTH16_TERM_A:
            PX_G1(jac_add)(&sums->a, &sums->a, &r.g1[i]);
            break;
        case GROTH16_TERM_B_G1:
            PX_G1(jac_add)(&sums->b1, &sums->b1, &r.g1[i]);
            break;
        case GROTH16_TERM_B_G2:
            PX_G2(jac_add)(&sums->b, &sums->b, &r.g2[i]);
            break;
        case GROTH16_TERM_C:
            PX_G1(jac_add)(&sums->c, &sums->c, &r.g1[i]);
            break;
        }
    }
    return CUZK_OK;
}

#undef PX_
#undef PX_FR
#undef PX_FR_T
#undef PX_FR_ONE
#undef PX_G1
#undef PX_G2
#undef PX_MSM_G1
#undef PX_MSM_G2
#undef PX_POLY
#undef PX_DOMAIN_T
#undef PX_DOMAIN
#undef PX_SUMS_T
