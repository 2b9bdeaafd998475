/* The Lagrange basis at τ (lagrange.h) of one scalar field: a template that
 * lagrange.c (BLS12-381's Fr) and bn254_lagrange.c (BN254's) include once
 * each, after their field's _names.h (FE_ ...) and
 *   LAG_AT        the name of the entry point (poly_lagrange_at, ...)
 *   LAG_DOMAIN_T  the field's domain type
 *   LAG_MAX_LOG   the field's two-adicity: a domain of that size has no
 *                 2n-th root
 * Everything else is static. */
#include <stdbool.h>

#include "util/parallel.h"
#include "util/wipe.h"

typedef struct lagrange_job {
    FE_T *out;
    const LAG_DOMAIN_T *d;
    const FE_T *tau;
    FE_T first; /* the point of out[0]: 1 or ω_2n */
    FE_T scale; /* (τ^m − 1)/m */
} lagrange_job;

/* out[i] = scale · p_i / (τ − p_i), p_i = first·ω^i: one batch inversion
 * per chunk. */
static void lagrange_worker(void *ctx, size_t begin, size_t end)
{
    lagrange_job *job = ctx;
    const FE_T *omega = &job->d->omega;
    FE_T *out = job->out;
    FE_T p0, p;
    uint64_t e[1] = {begin};
    FE_(pow_var)(&p0, omega, e, 1);
    FE_(mul)(&p0, &p0, &job->first);
    p = p0;
    for (size_t i = begin; i < end; i++) {
        FE_(sub)(&out[i], job->tau, &p);
        FE_(mul)(&p, &p, omega);
    }
    FE_(batch_inv_var)(out + begin, out + begin, end - begin);
    p = p0;
    for (size_t i = begin; i < end; i++) {
        FE_(mul)(&out[i], &out[i], &p);
        FE_(mul)(&out[i], &out[i], &job->scale);
        FE_(mul)(&p, &p, omega);
    }
}

cuzk_status LAG_AT(FE_T *out, const LAG_DOMAIN_T *d, poly_lagrange_set set, const FE_T *tau,
                   unsigned threads)
{
    bool odd = set == POLY_LAGRANGE_ODD_2N;
    if ((set != POLY_LAGRANGE_DOMAIN && !odd) || (odd && d->log_n >= LAG_MAX_LOG))
        return CUZK_ERR_INVALID_ARGUMENT;
    lagrange_job job = {.out = out, .d = d, .tau = tau, .first = odd ? d->omega_2n : FE_ONE};
    /* τ^n is 1 exactly on the n-th roots and −1 exactly on the odd 2n-th
     * roots: those τ are points of the set. */
    FE_T tn, m;
    uint64_t e[1] = {d->n};
    FE_(pow_var)(&tn, tau, e, 1);
    FE_T minus_one;
    FE_(neg)(&minus_one, &FE_ONE);
    bool on_set = FE_(eq)(&tn, odd ? &minus_one : &FE_ONE);
    if (!on_set) {
        /* scale = (τ^m − 1)/m: m = n, or m = 2n with τ^2n − 1 = (τ^n)^2 − 1 */
        if (odd)
            FE_(sqr)(&tn, &tn);
        FE_(sub)(&job.scale, &tn, &FE_ONE);
        FE_(from_u64)(&m, odd ? 2 * (uint64_t)d->n : (uint64_t)d->n);
        FE_(inv)(&m, &m);
        FE_(mul)(&job.scale, &job.scale, &m);
        parallel_for(d->n, 1024, threads, lagrange_worker, &job);
    }
    cuzk_wipe(&tn, sizeof(tn));
    cuzk_wipe(&job, sizeof(job));
    return on_set ? CUZK_ERR_INVALID_ARGUMENT : CUZK_OK;
}
