#include "poly/lagrange.h"

#include <stdbool.h>

#include "util/parallel.h"
#include "util/wipe.h"

typedef struct lagrange_job {
    fr_t *out;
    const domain_t *d;
    const fr_t *tau;
    fr_t first; /* the point of out[0]: 1 or ω_2n */
    fr_t scale; /* (τ^m − 1)/m */
} lagrange_job;

/* out[i] = scale · p_i / (τ − p_i), p_i = first·ω^i: one batch inversion
 * per chunk. */
static void lagrange_worker(void *ctx, size_t begin, size_t end)
{
    lagrange_job *job = ctx;
    const fr_t *omega = &job->d->omega;
    fr_t *out = job->out;
    fr_t p0, p;
    uint64_t e[1] = {begin};
    fr_pow_var(&p0, omega, e, 1);
    fr_mul(&p0, &p0, &job->first);
    p = p0;
    for (size_t i = begin; i < end; i++) {
        fr_sub(&out[i], job->tau, &p);
        fr_mul(&p, &p, omega);
    }
    fr_batch_inv_var(out + begin, out + begin, end - begin);
    p = p0;
    for (size_t i = begin; i < end; i++) {
        fr_mul(&out[i], &out[i], &p);
        fr_mul(&out[i], &out[i], &job->scale);
        fr_mul(&p, &p, omega);
    }
}

cuzk_status poly_lagrange_at(fr_t *out, const domain_t *d, poly_lagrange_set set, const fr_t *tau,
                             unsigned threads)
{
    bool odd = set == POLY_LAGRANGE_ODD_2N;
    if ((set != POLY_LAGRANGE_DOMAIN && !odd) || (odd && d->log_n >= DOMAIN_MAX_LOG))
        return CUZK_ERR_INVALID_ARGUMENT;
    lagrange_job job = {.out = out, .d = d, .tau = tau, .first = odd ? d->omega_2n : FR_ONE};
    /* τ^n is 1 exactly on the n-th roots and −1 exactly on the odd 2n-th
     * roots: those τ are points of the set. */
    fr_t tn, m;
    uint64_t e[1] = {d->n};
    fr_pow_var(&tn, tau, e, 1);
    fr_t minus_one;
    fr_neg(&minus_one, &FR_ONE);
    bool on_set = fr_eq(&tn, odd ? &minus_one : &FR_ONE);
    if (!on_set) {
        /* scale = (τ^m − 1)/m: m = n, or m = 2n with τ^2n − 1 = (τ^n)^2 − 1 */
        if (odd)
            fr_sqr(&tn, &tn);
        fr_sub(&job.scale, &tn, &FR_ONE);
        fr_from_u64(&m, odd ? 2 * (uint64_t)d->n : (uint64_t)d->n);
        fr_inv(&m, &m);
        fr_mul(&job.scale, &job.scale, &m);
        parallel_for(d->n, 1024, threads, lagrange_worker, &job);
    }
    cuzk_wipe(&tn, sizeof(tn));
    cuzk_wipe(&job, sizeof(job));
    return on_set ? CUZK_ERR_INVALID_ARGUMENT : CUZK_OK;
}
