#define _POSIX_C_SOURCE 200809L
#include "groth16/prover.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "groth16/assemble.h"
#include "msm/msm.h"
#include "poly/quotient.h"
#include "util/parallel.h"
#include "util/wipe.h"

static void set_msg(char *msg, size_t len, const char *fmt, ...)
{
    if (!msg || !len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, len, fmt, ap);
    va_end(ap);
}

const char *groth16_phase_name(groth16_phase phase)
{
    static const char *const names[GROTH16_PHASE_COUNT] = {
        "eval_abc", "h", "msm_h", "msm_l", "msm_a", "msm_b_g1", "msm_b_g2", "assemble", "upload",
    };
    return phase < GROTH16_PHASE_COUNT ? names[phase] : "unknown";
}

groth16_phase groth16_phase_from_name(const char *name)
{
    for (int p = 0; p < GROTH16_PHASE_COUNT; p++)
        if (!strcmp(name, groth16_phase_name((groth16_phase)p)))
            return (groth16_phase)p;
    return GROTH16_PHASE_COUNT;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Consecutive phases timed into a groth16_timings (none when times is NULL). */
typedef struct phase_clock {
    groth16_timings *times;
    double mark;
} phase_clock;

/* Records the time since the mark into phase and moves the mark. */
static void lap(phase_clock *clock, groth16_phase phase)
{
    if (!clock->times)
        return;
    double t = now_seconds();
    clock->times->seconds[phase] += t - clock->mark;
    clock->mark = t;
}

static void lap_done(void *clock, groth16_phase phase)
{
    lap(clock, phase);
}

typedef struct rows_job {
    const fr_t *a, *b, *c;
    atomic_int bad;
} rows_job;

static void rows_worker(void *ctx, size_t begin, size_t end)
{
    rows_job *job = ctx;
    for (size_t i = begin; i < end; i++) {
        fr_t t;
        fr_mul(&t, &job->a[i], &job->b[i]);
        if (!fr_eq(&t, &job->c[i])) {
            atomic_store(&job->bad, 1);
            return;
        }
    }
}

bool groth16_rows_satisfied(const fr_t *a, const fr_t *b, const fr_t *c, size_t m,
                            unsigned threads)
{
    rows_job job = {.a = a, .b = b, .c = c};
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
        set_msg(msg, msg_len, "cannot compute the density of the constraint system: %s",
                cuzk_status_str(st));
        return st;
    }
    st = domain_init(&c->domain, r->num_constraints, DOMAIN_ROOTS_BELLMAN, threads);
    if (st != CUZK_OK) {
        set_msg(msg, msg_len, "cannot build the evaluation domain for %llu constraints: %s",
                (unsigned long long)r->num_constraints, cuzk_status_str(st));
        groth16_circuit_free(c);
        return st;
    }
    const r1cs_density_t *d = &c->density;
    struct {
        const char *what;
        uint64_t have, want;
    } checks[] = {
        {"IC (inputs)", params->vk.num_ic, r->num_inputs},
        {"L (aux variables)", params->num_l, r->num_aux},
        {"H (domain size - 1)", params->num_h, c->domain.n - 1},
        {"A", params->num_a, r->num_inputs + d->a_aux_count},
        {"B_G1", params->num_b_g1, d->b_input_count + d->b_aux_count},
        {"B_G2", params->num_b_g2, d->b_input_count + d->b_aux_count},
    };
    for (size_t i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
        if (checks[i].have != checks[i].want) {
            set_msg(msg, msg_len,
                    "parameters do not fit the circuit: query %s has %llu points, the circuit "
                    "needs %llu",
                    checks[i].what, (unsigned long long)checks[i].have,
                    (unsigned long long)checks[i].want);
            groth16_circuit_free(c);
            return CUZK_ERR_INVALID_ARGUMENT;
        }
    }
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

cuzk_status groth16_msm_sums(groth16_sums *sums, const groth16_circuit_t *c, const fr_t *w,
                             const fr_t *h, unsigned threads, groth16_phase_done_fn done,
                             void *done_ctx, groth16_phase *failed)
{
    const r1cs_t *cs = c->r1cs;
    const groth16_params_t *p = c->params;
    const r1cs_density_t *dens = &c->density;
    size_t n = c->domain.n;
    const fr_t *w_aux = w + cs->num_inputs;
    cuzk_status st;
    g1_jac_t h_acc, l_acc, a_aux, b1_aux;
    g2_jac_t b2_aux;

#define PHASE_ENDS(phase, status)                                                                  \
    do {                                                                                           \
        if ((st = (status)) != CUZK_OK) {                                                          \
            *failed = (phase);                                                                     \
            return st;                                                                             \
        }                                                                                          \
        if (done)                                                                                  \
            done(done_ctx, (phase));                                                               \
    } while (0)
    PHASE_ENDS(GROTH16_PHASE_MSM_H, msm_g1(&h_acc, p->h, h, n - 1, threads));
    PHASE_ENDS(GROTH16_PHASE_MSM_L, msm_g1_split(&l_acc, p->l, w_aux, cs->num_aux, threads));
    if ((st = msm_g1_split(&sums->a, p->a, w, cs->num_inputs, threads)) == CUZK_OK)
        st = msm_g1_dense(&a_aux, p->a + cs->num_inputs, dens->a_aux_count, w_aux, cs->num_aux,
                          dens->a_aux, threads);
    PHASE_ENDS(GROTH16_PHASE_MSM_A, st);
    if ((st = msm_g1_dense(&sums->b1, p->b_g1, dens->b_input_count, w, cs->num_inputs,
                           dens->b_input, threads)) == CUZK_OK)
        st = msm_g1_dense(&b1_aux, p->b_g1 + dens->b_input_count, dens->b_aux_count, w_aux,
                          cs->num_aux, dens->b_aux, threads);
    PHASE_ENDS(GROTH16_PHASE_MSM_B_G1, st);
    if ((st = msm_g2_dense(&sums->b, p->b_g2, dens->b_input_count, w, cs->num_inputs,
                           dens->b_input, threads)) == CUZK_OK)
        st = msm_g2_dense(&b2_aux, p->b_g2 + dens->b_input_count, dens->b_aux_count, w_aux,
                          cs->num_aux, dens->b_aux, threads);
    PHASE_ENDS(GROTH16_PHASE_MSM_B_G2, st);
#undef PHASE_ENDS

    g1_jac_add(&sums->a, &sums->a, &a_aux);
    g2_jac_add(&sums->b, &sums->b, &b2_aux);
    g1_jac_add(&sums->b1, &sums->b1, &b1_aux);
    g1_jac_add(&sums->c, &h_acc, &l_acc);
    return CUZK_OK;
}

cuzk_status groth16_prove_with(groth16_proof_t *proof, const groth16_circuit_t *c,
                               const fr_t *w, const fr_t *r, const fr_t *s, void *scratch,
                               unsigned threads, groth16_timings *times)
{
    const r1cs_t *cs = c->r1cs;
    size_t n = c->domain.n;
    fr_t *va = scratch, *vb = va + n, *vc = vb + n;
    cuzk_status st;
    phase_clock clock = {.times = times, .mark = times ? now_seconds() : 0};

    /* a, b, c, checked row by row (exact, and cheap next to the NTTs: an
     * unsatisfied witness is refused before any MSM), then the quotient h
     * into va. */
    r1cs_eval(cs, w, va, vb, vc, threads);
    if (!groth16_rows_satisfied(va, vb, vc, cs->num_constraints, threads))
        return CUZK_ERR_UNSATISFIED;
    lap(&clock, GROTH16_PHASE_EVAL_ABC);
    st = poly_compute_h(va, vb, vc, cs->num_constraints, &c->domain, POLY_H_COSET_GENERATOR,
                        threads);
    if (st != CUZK_OK)
        return st;
    lap(&clock, GROTH16_PHASE_H);

    groth16_sums sums;
    groth16_phase failed;
    if ((st = groth16_msm_sums(&sums, c, w, va, threads, lap_done, &clock, &failed)) != CUZK_OK)
        return st;
    groth16_assemble(proof, &c->params->vk, &sums, r, s);
    lap(&clock, GROTH16_PHASE_ASSEMBLE);
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
