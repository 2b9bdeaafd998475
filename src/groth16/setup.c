#define _POSIX_C_SOURCE 200809L
#include "groth16/setup.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "groth16/fixed_base.h"
#include "poly/domain.h"
#include "r1cs/density.h"
#include "util/parallel.h"
#include "util/wipe.h"

/* Window of the fixed-base tables: 8 bits makes 32 mixed additions per
 * product from a 32-window table (8,160 affine points, under 1 MB for G1). */
#define SETUP_WINDOW 8

/* ------------------------------------------------------ progress monitor */

typedef struct progress_monitor {
    pthread_t thread;
    int running;
    atomic_int stop;
    atomic_uint_fast64_t done;
    uint64_t total;
    groth16_progress_fn fn;
    void *ctx;
} progress_monitor;

static void *monitor_main(void *arg)
{
    progress_monitor *m = arg;
    struct timespec pause = {0, 200 * 1000 * 1000};
    while (!atomic_load(&m->stop)) {
        m->fn(m->ctx, atomic_load(&m->done), m->total);
        nanosleep(&pause, NULL);
    }
    return NULL;
}

static void monitor_start(progress_monitor *m, const groth16_setup_opts *opts, uint64_t total)
{
    memset(m, 0, sizeof(*m));
    atomic_init(&m->stop, 0);
    atomic_init(&m->done, 0);
    m->total = total;
    m->fn = opts->progress;
    m->ctx = opts->progress_ctx;
    if (m->fn && pthread_create(&m->thread, NULL, monitor_main, m) == 0)
        m->running = 1;
}

static void monitor_stop(progress_monitor *m)
{
    atomic_store(&m->stop, 1);
    if (m->running)
        pthread_join(m->thread, NULL);
    if (m->fn)
        m->fn(m->ctx, atomic_load(&m->done), m->total);
}

/* ------------------------------------------------------------ toxic waste */

typedef struct toxic {
    fr_t tau, alpha, beta, gamma, delta;
    fr_t gamma_inv, delta_inv;
} toxic;

static void random_nonzero(fr_t *x, rng_t *rng)
{
    do
        fr_random(x, rng);
    while (fr_is_zero(x));
}

/* ------------------------------------------------- Lagrange basis at τ */

typedef struct lagrange_job {
    const domain_t *d;
    const fr_t *tau;
    fr_t z_over_n; /* (τ^n − 1)/n */
    fr_t *out;
} lagrange_job;

/* L_i(τ) = (τ^n − 1)/n · ω^i / (τ − ω^i)  (the Lagrange basis of the
 * subgroup <ω>: L_i(x) = ω^i (x^n − 1) / (n (x − ω^i))). */
static void lagrange_worker(void *ctx, size_t begin, size_t end)
{
    lagrange_job *job = ctx;
    fr_t w;
    uint64_t e[1] = {begin};
    fr_pow_var(&w, &job->d->omega, e, 1);
    fr_t *out = job->out;
    for (size_t i = begin; i < end; i++) {
        fr_sub(&out[i], job->tau, &w);
        fr_mul(&w, &w, &job->d->omega);
    }
    fr_batch_inv_var(out + begin, out + begin, end - begin);
    fr_pow_var(&w, &job->d->omega, e, 1);
    for (size_t i = begin; i < end; i++) {
        fr_mul(&out[i], &out[i], &w);
        fr_mul(&out[i], &out[i], &job->z_over_n);
        fr_mul(&w, &w, &job->d->omega);
    }
}

/* col[j] += Σ_i M[i][j] · L_i(τ): the column polynomials at τ. */
static void column_polys(fr_t *col, const r1cs_t *r, const r1cs_matrix *m, const fr_t *lagrange)
{
    fr_t t;
    for (uint64_t i = 0; i < r->num_constraints; i++) {
        for (uint64_t k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++) {
            fr_mul(&t, &r->coeffs[r1cs_coeff_at(r, m, k)], &lagrange[i]);
            fr_add(&col[m->col[k]], &col[m->col[k]], &t);
        }
    }
    cuzk_wipe(&t, sizeof(t));
}

/* --------------------------------------------------------------- setup */

typedef struct setup_state {
    domain_t d;
    r1cs_density_t dens;
    fr_t *u, *v, *w; /* column polynomials at τ, one per variable */
    fr_t *scal;      /* scalar scratch, sized for the largest query */
    g1_fixed_base_t g1t;
    g2_fixed_base_t g2t;
} setup_state;

static void state_free(setup_state *s)
{
    domain_free(&s->d);
    r1cs_density_free(&s->dens);
    free(s->u); /* the scalar arrays were wiped by the caller */
    free(s->v);
    free(s->w);
    free(s->scal);
    g1_fixed_base_free(&s->g1t);
    g2_fixed_base_free(&s->g2t);
}

static cuzk_status alloc_points(groth16_params_t *p, const r1cs_t *r, const setup_state *s)
{
    p->vk.num_ic = r->num_inputs;
    p->num_l = r->num_aux;
    p->num_h = s->d.n - 1;
    p->num_a = r->num_inputs + s->dens.a_aux_count;
    p->num_b_g1 = s->dens.b_input_count + s->dens.b_aux_count;
    p->num_b_g2 = p->num_b_g1;
    /* +1 so that empty queries still get a valid pointer */
    p->vk.ic = malloc(sizeof(g1_affine_t) * (p->vk.num_ic + 1));
    p->l = malloc(sizeof(g1_affine_t) * (p->num_l + 1));
    p->h = malloc(sizeof(g1_affine_t) * (p->num_h + 1));
    p->a = malloc(sizeof(g1_affine_t) * (p->num_a + 1));
    p->b_g1 = malloc(sizeof(g1_affine_t) * (p->num_b_g1 + 1));
    p->b_g2 = malloc(sizeof(g2_affine_t) * (p->num_b_g2 + 1));
    if (!p->vk.ic || !p->l || !p->h || !p->a || !p->b_g1 || !p->b_g2)
        return CUZK_ERR_OUT_OF_MEMORY;
    return CUZK_OK;
}

/* (β·u + α·v + w) · factor for variables [first, first + count). */
static void ic_like_scalars(fr_t *out, const setup_state *s, const toxic *tw, uint64_t first,
                            uint64_t count, const fr_t *factor)
{
    fr_t t, t2;
    for (uint64_t j = 0; j < count; j++) {
        fr_mul(&t, &tw->beta, &s->u[first + j]);
        fr_mul(&t2, &tw->alpha, &s->v[first + j]);
        fr_add(&t, &t, &t2);
        fr_add(&t, &t, &s->w[first + j]);
        fr_mul(&out[j], &t, factor);
    }
    cuzk_wipe(&t, sizeof(t));
    cuzk_wipe(&t2, sizeof(t2));
}

static cuzk_status make_vk_points(groth16_params_t *p, const setup_state *s, const toxic *tw)
{
    uint64_t k[4];
    g1_jac_t j1, g1;
    g2_jac_t j2, g2;
    g1_jac_from_affine(&g1, &G1_GENERATOR);
    g2_jac_from_affine(&g2, &G2_GENERATOR);
    (void)s;
#define VK_G1(field, scalar)                                                                       \
    do {                                                                                           \
        fr_to_raw(k, scalar);                                                                      \
        g1_jac_mul(&j1, &g1, k);                                                                   \
        g1_jac_to_affine(&p->vk.field, &j1);                                                       \
    } while (0)
#define VK_G2(field, scalar)                                                                       \
    do {                                                                                           \
        fr_to_raw(k, scalar);                                                                      \
        g2_jac_mul(&j2, &g2, k);                                                                   \
        g2_jac_to_affine(&p->vk.field, &j2);                                                       \
    } while (0)
    VK_G1(alpha_g1, &tw->alpha);
    VK_G1(beta_g1, &tw->beta);
    VK_G2(beta_g2, &tw->beta);
    VK_G2(gamma_g2, &tw->gamma);
    VK_G1(delta_g1, &tw->delta);
    VK_G2(delta_g2, &tw->delta);
#undef VK_G1
#undef VK_G2
    cuzk_wipe(k, sizeof(k));
    return CUZK_OK;
}

cuzk_status groth16_setup_dev(groth16_params_t *out, const r1cs_t *r, rng_t *rng,
                              const groth16_setup_opts *opts)
{
    static const groth16_setup_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    unsigned threads = parallel_threads(opts->threads);
    memset(out, 0, sizeof(*out));
    if (r->num_inputs < 1 || r->num_constraints < 1)
        return CUZK_ERR_INVALID_ARGUMENT;

    setup_state s;
    memset(&s, 0, sizeof(s));
    toxic tw;
    fr_t z_tau; /* τ^n − 1 */
    lagrange_job lj = {0}; /* holds (τ^n − 1)/n */
    cuzk_status st = domain_init(&s.d, r->num_constraints, DOMAIN_ROOTS_BELLMAN, threads);
    if (st == CUZK_OK)
        st = r1cs_density(&s.dens, r, threads);
    if (st != CUZK_OK)
        goto done;
    uint64_t nvars = r1cs_num_vars(r);
    size_t n = s.d.n;
    size_t scal_len = nvars > n ? nvars : n;
    s.u = calloc(nvars, sizeof(fr_t));
    s.v = calloc(nvars, sizeof(fr_t));
    s.w = calloc(nvars, sizeof(fr_t));
    s.scal = malloc(sizeof(fr_t) * scal_len);
    if (!s.u || !s.v || !s.w || !s.scal) {
        st = CUZK_ERR_OUT_OF_MEMORY;
        goto done;
    }
    if ((st = alloc_points(out, r, &s)) != CUZK_OK)
        goto done;

    /* Toxic waste; τ must not be a point of the domain (L_i(τ) needs τ ≠ ω^i,
     * which τ^n ≠ 1 guarantees). */
    for (;;) {
        random_nonzero(&tw.tau, rng);
        uint64_t e[1] = {n};
        fr_pow_var(&z_tau, &tw.tau, e, 1);
        fr_sub(&z_tau, &z_tau, &FR_ONE);
        if (!fr_is_zero(&z_tau))
            break;
    }
    random_nonzero(&tw.alpha, rng);
    random_nonzero(&tw.beta, rng);
    random_nonzero(&tw.gamma, rng);
    random_nonzero(&tw.delta, rng);
    fr_inv(&tw.gamma_inv, &tw.gamma);
    fr_inv(&tw.delta_inv, &tw.delta);

    /* Lagrange basis at τ into scal[0..n), then the column polynomials. */
    lj = (lagrange_job){.d = &s.d, .tau = &tw.tau, .out = s.scal};
    fr_mul(&lj.z_over_n, &z_tau, &s.d.n_inv);
    parallel_for(n, 1024, threads, lagrange_worker, &lj);
    column_polys(s.u, r, &r->a, s.scal);
    column_polys(s.v, r, &r->b, s.scal);
    column_polys(s.w, r, &r->c, s.scal);

    if ((st = g1_fixed_base_init(&s.g1t, &G1_GENERATOR, SETUP_WINDOW)) != CUZK_OK ||
        (st = g2_fixed_base_init(&s.g2t, &G2_GENERATOR, SETUP_WINDOW)) != CUZK_OK)
        goto done;
    make_vk_points(out, &s, &tw);

    uint64_t total = out->vk.num_ic + out->num_l + out->num_h + out->num_a + out->num_b_g1 +
                     out->num_b_g2;
    progress_monitor mon;
    monitor_start(&mon, opts, total);

    /* IC: inputs, divided by γ. */
    ic_like_scalars(s.scal, &s, &tw, 0, r->num_inputs, &tw.gamma_inv);
    st = g1_fixed_base_mul_batch(out->vk.ic, &s.g1t, s.scal, r->num_inputs, threads, &mon.done);
    /* L: aux variables, divided by δ. */
    if (st == CUZK_OK) {
        ic_like_scalars(s.scal, &s, &tw, r->num_inputs, r->num_aux, &tw.delta_inv);
        st = g1_fixed_base_mul_batch(out->l, &s.g1t, s.scal, r->num_aux, threads, &mon.done);
    }
    /* H: τ^i (τ^n − 1)/δ for i < n − 1. */
    if (st == CUZK_OK) {
        fr_t t;
        fr_mul(&t, &z_tau, &tw.delta_inv);
        for (size_t i = 0; i < out->num_h; i++) {
            s.scal[i] = t;
            fr_mul(&t, &t, &tw.tau);
        }
        cuzk_wipe(&t, sizeof(t));
        st = g1_fixed_base_mul_batch(out->h, &s.g1t, s.scal, out->num_h, threads, &mon.done);
    }
    /* A: u(τ) for every input and the A-dense aux variables. */
    if (st == CUZK_OK) {
        size_t k = 0;
        for (uint64_t i = 0; i < r->num_inputs; i++)
            s.scal[k++] = s.u[i];
        for (uint64_t j = 0; j < r->num_aux; j++)
            if (r1cs_bit(s.dens.a_aux, j))
                s.scal[k++] = s.u[r->num_inputs + j];
        st = g1_fixed_base_mul_batch(out->a, &s.g1t, s.scal, k, threads, &mon.done);
    }
    /* B in G1 and G2: v(τ) for the B-dense inputs and aux variables. */
    if (st == CUZK_OK) {
        size_t k = 0;
        for (uint64_t i = 0; i < r->num_inputs; i++)
            if (r1cs_bit(s.dens.b_input, i))
                s.scal[k++] = s.v[i];
        for (uint64_t j = 0; j < r->num_aux; j++)
            if (r1cs_bit(s.dens.b_aux, j))
                s.scal[k++] = s.v[r->num_inputs + j];
        st = g1_fixed_base_mul_batch(out->b_g1, &s.g1t, s.scal, k, threads, &mon.done);
        if (st == CUZK_OK)
            st = g2_fixed_base_mul_batch(out->b_g2, &s.g2t, s.scal, k, threads, &mon.done);
    }
    monitor_stop(&mon);

done:
    cuzk_wipe(&tw, sizeof(tw));
    cuzk_wipe(&z_tau, sizeof(z_tau));
    cuzk_wipe(&lj, sizeof(lj));
    if (s.scal)
        cuzk_wipe(s.scal, sizeof(fr_t) * (s.d.n > r1cs_num_vars(r) ? s.d.n : r1cs_num_vars(r)));
    if (s.u)
        cuzk_wipe(s.u, sizeof(fr_t) * r1cs_num_vars(r));
    if (s.v)
        cuzk_wipe(s.v, sizeof(fr_t) * r1cs_num_vars(r));
    if (s.w)
        cuzk_wipe(s.w, sizeof(fr_t) * r1cs_num_vars(r));
    state_free(&s);
    if (st != CUZK_OK)
        groth16_params_free(out);
    return st;
}
