/* The curve-dependent pieces of setup_common.h (random elements, the
 * column sums, the IC-like scalars, the verifying key's points), written
 * once: a template that setup_common.c (BLS12-381) and bn254_setup_common.c
 * (BN254) include once each, after their scalar field's _names.h (FE_ ...)
 * and
 *   SC_(name)         the entry points (setup_##name, bn254_setup_##name)
 *   SC_G1(name), SC_G2(name)  the groups' names (g1_##name, ...)
 *   SC_G1_GENERATOR, SC_G2_GENERATOR
 *   SC_VK_T           the curve's verifying key
 *   SC_COEFFS(r)      the coefficient table of r1cs_t r as the field's elements
 * Everything else is static. */
#include <stdlib.h>
#include <string.h>

#include "util/parallel.h"
#include "util/wipe.h"

/* ------------------------------------------------------ random elements */

void SC_(random_nonzero)(FE_T *x, rng_t *rng)
{
    do
        FE_(random)(x, rng);
    while (FE_(is_zero)(x));
}

/* ------------------------------------------------------ column sums */

typedef struct column_job {
    FE_T *col;
    const r1cs_t *r;
    const r1cs_matrix *m;
    const FE_T *lag;
    uint64_t ni, nvars;
    size_t parts;
    FE_T *input_sums; /* parts × ni: part p's sums over its rows */
} column_job;

static void column_part(const column_job *job, size_t p)
{
    const r1cs_t *r = job->r;
    const r1cs_matrix *m = job->m;
    const uint64_t rows = r->num_constraints, ni = job->ni, na = job->nvars - ni;
    const uint64_t lo = ni + na * p / job->parts, hi = ni + na * (p + 1) / job->parts;
    const uint64_t rlo = rows * p / job->parts, rhi = rows * (p + 1) / job->parts;
    FE_T *in = job->input_sums + p * ni;
    memset(in, 0, sizeof(FE_T) * ni);
    FE_T t;
    for (uint64_t i = 0; i < rows; i++) {
        const bool mine = i >= rlo && i < rhi; /* this part sums the inputs of row i */
        for (uint64_t k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++) {
            const uint64_t j = m->col[k];
            FE_T *acc;
            if (j - lo < hi - lo)
                acc = &job->col[j];
            else if (j < ni && mine)
                acc = &in[j];
            else
                continue;
            FE_(mul)(&t, &SC_COEFFS(r)[r1cs_coeff_at(r, m, k)], &job->lag[i]);
            FE_(add)(acc, acc, &t);
        }
    }
    cuzk_wipe(&t, sizeof(t));
}

static void column_worker(void *ctx, size_t begin, size_t end)
{
    for (size_t p = begin; p < end; p++)
        column_part(ctx, p);
}

void SC_(column_polys)(FE_T *col, const r1cs_t *r, const r1cs_matrix *m, const FE_T *lagrange,
                       unsigned threads)
{
    threads = parallel_threads(threads);
    const uint64_t ni = r->num_inputs, nvars = r1cs_num_vars(r);
    column_job job = {
        .col = col, .r = r, .m = m, .lag = lagrange, .ni = ni, .nvars = nvars, .parts = threads};
    job.input_sums = malloc(sizeof(FE_T) * (ni * job.parts + 1));
    if (job.input_sums) {
        parallel_for(job.parts, 1, threads, column_worker, &job);
        for (size_t p = 0; p < job.parts; p++)
            for (uint64_t j = 0; j < ni; j++)
                FE_(add)(&col[j], &col[j], &job.input_sums[p * ni + j]);
        cuzk_wipe(job.input_sums, sizeof(FE_T) * ni * job.parts);
        free(job.input_sums);
        return;
    }
    FE_T t;
    for (uint64_t i = 0; i < r->num_constraints; i++)
        for (uint64_t k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++) {
            FE_(mul)(&t, &SC_COEFFS(r)[r1cs_coeff_at(r, m, k)], &lagrange[i]);
            FE_(add)(&col[m->col[k]], &col[m->col[k]], &t);
        }
    cuzk_wipe(&t, sizeof(t)); /* no memory for the partial sums: one thread */
}

/* ------------------------------------------------------ scalar vectors */

#define SC_IC_GRAIN 4096 /* scalars per task */

typedef struct ic_job {
    FE_T *out;
    const FE_T *u, *v, *w, *alpha, *beta, *factor;
} ic_job;

static void ic_worker(void *ctx, size_t begin, size_t end)
{
    const ic_job *job = ctx;
    FE_T t, t2;
    for (size_t j = begin; j < end; j++) {
        FE_(mul)(&t, job->beta, &job->u[j]);
        FE_(mul)(&t2, job->alpha, &job->v[j]);
        FE_(add)(&t, &t, &t2);
        FE_(add)(&t, &t, &job->w[j]);
        FE_(mul)(&job->out[j], &t, job->factor);
    }
    cuzk_wipe(&t, sizeof(t));
    cuzk_wipe(&t2, sizeof(t2));
}

void SC_(ic_like)(FE_T *out, const FE_T *u, const FE_T *v, const FE_T *w, uint64_t count,
                  const FE_T *alpha, const FE_T *beta, const FE_T *factor, unsigned threads)
{
    ic_job job = {
        .out = out, .u = u, .v = v, .w = w, .alpha = alpha, .beta = beta, .factor = factor};
    parallel_for(count, SC_IC_GRAIN, threads, ic_worker, &job);
}

/* ------------------------------------------------------ the vk */

static void g1_times(SC_G1(affine_t) * out, const FE_T *s)
{
    uint64_t k[4];
    SC_G1(jac_t) g, j;
    SC_G1(jac_from_affine)(&g, &SC_G1_GENERATOR);
    FE_(to_raw)(k, s);
    SC_G1(jac_mul)(&j, &g, k);
    SC_G1(jac_to_affine)(out, &j);
    cuzk_wipe(k, sizeof(k));
    cuzk_wipe(&j, sizeof(j));
}

static void g2_times(SC_G2(affine_t) * out, const FE_T *s)
{
    uint64_t k[4];
    SC_G2(jac_t) g, j;
    SC_G2(jac_from_affine)(&g, &SC_G2_GENERATOR);
    FE_(to_raw)(k, s);
    SC_G2(jac_mul)(&j, &g, k);
    SC_G2(jac_to_affine)(out, &j);
    cuzk_wipe(k, sizeof(k));
    cuzk_wipe(&j, sizeof(j));
}

void SC_(vk_points)(SC_VK_T *vk, const FE_T *alpha, const FE_T *beta, const FE_T *gamma,
                    const FE_T *delta)
{
    g1_times(&vk->alpha_g1, alpha);
    g1_times(&vk->beta_g1, beta);
    g2_times(&vk->beta_g2, beta);
    g2_times(&vk->gamma_g2, gamma);
    g1_times(&vk->delta_g1, delta);
    g2_times(&vk->delta_g2, delta);
}

#undef SC_IC_GRAIN
