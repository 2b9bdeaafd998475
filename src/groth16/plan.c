/* Building proof plans (their CPU executor: plan_exec.c). */
#include "groth16/plan.h"

#include <stdio.h>
#include <string.h>

#include "msm/msm.h"
#include "util/msg.h"

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
    plan->curve = CURVE_BLS12_381;
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

/* The snarkjs plan of a domain of size n, whatever the curve (the caller
 * sets the curve and the domain). */
static void plan_snarkjs(groth16_plan *plan, const groth16_snarkjs_query *q, uint64_t n)
{
    uint64_t nv = q->num_vars, first_private = q->num_public + 1;
    plan->quotient = GROTH16_QUOTIENT_SNARKJS;
    plan->num_vars = nv;
    plan->num_h = n;
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

void groth16_plan_snarkjs(groth16_plan *plan, const groth16_snarkjs_query *q,
                          const domain_t *domain)
{
    memset(plan, 0, sizeof(*plan));
    plan->curve = CURVE_BLS12_381;
    plan->domain = domain;
    plan_snarkjs(plan, q, domain->n);
}

void groth16_plan_snarkjs_bn254(groth16_plan *plan, const groth16_snarkjs_query *q,
                                const bn254_domain_t *domain)
{
    memset(plan, 0, sizeof(*plan));
    plan->curve = CURVE_BN254;
    plan->bn254_domain = domain;
    plan_snarkjs(plan, q, domain->n);
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
    /* BLS12-381's uncompressed sizes (a BN254 point is two thirds of it) */
    uint64_t point = m->term == GROTH16_TERM_B_G2 ? 192 : 96, bytes = 0;
    for (unsigned k = 0; k < m->num_parts; k++)
        bytes += m->part[k].count * sizeof(fr_t) + m->part[k].num_points * point;
    return bytes;
}

