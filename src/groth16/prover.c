#define _POSIX_C_SOURCE 200809L
#include "groth16/prover.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "field/scalar_slots.h"
#include "groth16/assemble.h"
#include "util/parallel.h"
#include "util/msg.h"
#include "util/wipe.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Phases timed into a groth16_timings (none when times is NULL): each
 * phase from its start to its end, whichever thread reports them (the
 * plan's two MSM groups report from two threads, on their own phases). */
typedef struct phase_clock {
    groth16_timings *times;
    double start[PHASE_COUNT];
} phase_clock;

static void clock_step(void *ctx, proof_phase phase, bool end)
{
    phase_clock *clock = ctx;
    if (!clock->times)
        return;
    double t = now_seconds();
    if (!end)
        clock->start[phase] = t;
    else
        clock->times->seconds[phase] += t - clock->start[phase];
}

typedef struct rows_job {
    curve_id curve;
    const fr_t *a, *b, *c;
    atomic_int bad;
} rows_job;

/* a·b = c for one row, in the job's field. */
static bool row_holds(const rows_job *job, size_t i)
{
    if (job->curve == CURVE_BN254) {
        bn254_fr_t t;
        bn254_fr_mul(&t, bn254_fr_slots_const(&job->a[i]), bn254_fr_slots_const(&job->b[i]));
        return bn254_fr_eq(&t, bn254_fr_slots_const(&job->c[i]));
    }
    fr_t t;
    fr_mul(&t, &job->a[i], &job->b[i]);
    return fr_eq(&t, &job->c[i]);
}

static void rows_worker(void *ctx, size_t begin, size_t end)
{
    rows_job *job = ctx;
    for (size_t i = begin; i < end; i++) {
        if (!row_holds(job, i)) {
            atomic_store(&job->bad, 1);
            return;
        }
    }
}

bool groth16_rows_satisfied(const fr_t *a, const fr_t *b, const fr_t *c, size_t m, unsigned threads)
{
    return groth16_rows_satisfied_over(CURVE_BLS12_381, a, b, c, m, threads);
}

bool groth16_rows_satisfied_over(curve_id curve, const fr_t *a, const fr_t *b, const fr_t *c,
                                 size_t m, unsigned threads)
{
    rows_job job = {.curve = curve, .a = a, .b = b, .c = c};
    atomic_init(&job.bad, 0);
    parallel_for(m, 4096, threads, rows_worker, &job);
    return !atomic_load(&job.bad);
}

cuzk_status groth16_circuit_init(groth16_circuit_t *c, const r1cs_t *r,
                                 const groth16_params_t *params, unsigned threads, char *msg,
                                 size_t msg_len)
{
    memset(c, 0, sizeof(*c));
    c->r1cs = r;
    c->params = params;
    cuzk_status st = r1cs_density(&c->density, r, threads);
    if (st != CUZK_OK) {
        msg_set(msg, msg_len, "cannot compute the density of the constraint system: %s",
                cuzk_status_str(st));
        return st;
    }
    st = domain_init(&c->domain, r->num_constraints, DOMAIN_ROOTS_BELLMAN, threads);
    if (st != CUZK_OK) {
        msg_set(msg, msg_len, "cannot build the evaluation domain for %llu constraints: %s",
                (unsigned long long)r->num_constraints, cuzk_status_str(st));
        groth16_circuit_free(c);
        return st;
    }
    const r1cs_density_t *d = &c->density;
    groth16_bellman_query q = {.h = params->h,
                               .l = params->l,
                               .a = params->a,
                               .b_g1 = params->b_g1,
                               .b_g2 = params->b_g2,
                               .num_inputs = r->num_inputs,
                               .num_aux = r->num_aux,
                               .a_aux_density = d->a_aux,
                               .b_input_density = d->b_input,
                               .b_aux_density = d->b_aux,
                               .a_aux_count = d->a_aux_count,
                               .b_input_count = d->b_input_count,
                               .b_aux_count = d->b_aux_count};
    groth16_query_lengths have = {.ic = params->vk.num_ic,
                                  .h = params->num_h,
                                  .l = params->num_l,
                                  .a = params->num_a,
                                  .b_g1 = params->num_b_g1,
                                  .b_g2 = params->num_b_g2};
    uint64_t have_len, want_len;
    const char *bad = groth16_query_mismatch(&have, &q, c->domain.n, &have_len, &want_len);
    if (bad) {
        msg_set(msg, msg_len,
                "parameters do not fit the circuit: query %s has %llu points, the circuit needs "
                "%llu",
                bad, (unsigned long long)have_len, (unsigned long long)want_len);
        groth16_circuit_free(c);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    groth16_plan_bellman(&c->plan, &q, &c->domain);
    return CUZK_OK;
}

void groth16_circuit_free(groth16_circuit_t *c)
{
    r1cs_density_free(&c->density);
    domain_free(&c->domain);
}

size_t groth16_prover_scratch_bytes(const groth16_circuit_t *c)
{
    return 3 * c->domain.n * sizeof(fr_t);
}

cuzk_status groth16_prove_with(groth16_proof_t *proof, const groth16_circuit_t *c, const fr_t *w,
                               const fr_t *r, const fr_t *s, void *scratch, unsigned threads,
                               groth16_timings *times)
{
    const r1cs_t *cs = c->r1cs;
    size_t n = c->domain.n;
    fr_t *va = scratch, *vb = va + n, *vc = vb + n;
    phase_clock clock = {.times = times};

    /* a, b, c, checked row by row (exact, and cheap next to the NTTs: an
     * unsatisfied witness is refused before any MSM), then the plan. */
    clock_step(&clock, PHASE_EVAL_ABC, false);
    r1cs_eval(cs, w, va, vb, vc, threads);
    if (!groth16_rows_satisfied(va, vb, vc, cs->num_constraints, threads))
        return CUZK_ERR_UNSATISFIED;
    clock_step(&clock, PHASE_EVAL_ABC, true);
    groth16_sums sums;
    cuzk_status st = groth16_plan_sums(&sums, &c->plan, w, va, cs->num_constraints, threads,
                                       clock_step, &clock, NULL);
    if (st != CUZK_OK)
        return st;
    clock_step(&clock, PHASE_ASSEMBLE, false);
    groth16_assemble(proof, &c->params->vk, &sums, r, s);
    clock_step(&clock, PHASE_ASSEMBLE, true);
    return CUZK_OK;
}

cuzk_status groth16_prove(groth16_proof_t *proof, const groth16_circuit_t *c, const fr_t *w,
                          rng_t *rng, void *scratch, unsigned threads, groth16_timings *times)
{
    fr_t r, s;
    fr_random(&r, rng);
    fr_random(&s, rng);
    cuzk_status st = groth16_prove_with(proof, c, w, &r, &s, scratch, threads, times);
    cuzk_wipe(&r, sizeof(r));
    cuzk_wipe(&s, sizeof(s));
    return st;
}
