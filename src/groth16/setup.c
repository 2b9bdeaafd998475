#define _DEFAULT_SOURCE /* madvise */
#include "groth16/setup.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "groth16/fixed_base.h"
#include "groth16/setup_common.h"
#include "poly/domain.h"
#include "poly/lagrange.h"
#include "r1cs/density.h"
#include "util/parallel.h"
#include "util/wipe.h"

/* --------------------------------------------------------------- setup */

typedef struct toxic {
    fr_t tau, alpha, beta, gamma, delta;
    fr_t gamma_inv, delta_inv;
} toxic;

typedef struct setup_state {
    domain_t d;
    r1cs_density_t dens;
    fr_t *u, *v, *w; /* column polynomials at τ, one per variable */
    fr_t *scal;      /* scalar scratch, sized for the largest query */
    uint64_t nvars, scal_len;
    g1_fixed_base_t g1t;
    g2_fixed_base_t g2t;
    /* where the products run */
    const groth16_fixed_base_ops *fb;
    unsigned threads;
    setup_monitor mon;
    char *msg;
    size_t msg_len;
} setup_state;

static double seconds_on(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The phase clocks: wall and process CPU time, each added to its phase's
 * field (at the same offset in both structures) when timing. */
typedef struct phase_clock {
    groth16_setup_times *wall, *cpu;
    double wall_mark, cpu_mark;
} phase_clock;

static void clock_start(phase_clock *c, const groth16_setup_opts *opts)
{
    c->wall = opts->times;
    c->cpu = opts->cpu_times;
    if (c->wall)
        memset(c->wall, 0, sizeof(*c->wall));
    if (c->cpu)
        memset(c->cpu, 0, sizeof(*c->cpu));
    c->wall_mark = seconds_on(CLOCK_MONOTONIC);
    c->cpu_mark = seconds_on(CLOCK_PROCESS_CPUTIME_ID);
}

/* Adds the time since the last lap to the phase at `offset` in the times
 * structures. */
static void lap(phase_clock *c, size_t offset)
{
    double w = seconds_on(CLOCK_MONOTONIC), p = seconds_on(CLOCK_PROCESS_CPUTIME_ID);
    if (c->wall)
        *(double *)((char *)c->wall + offset) += w - c->wall_mark;
    if (c->cpu)
        *(double *)((char *)c->cpu + offset) += p - c->cpu_mark;
    c->wall_mark = w;
    c->cpu_mark = p;
}

#define PHASE(name) offsetof(groth16_setup_times, name)

static void state_free(setup_state *s)
{
    domain_free(&s->d);
    r1cs_density_free(&s->dens);
    if (s->scal)
        setup_wipe(s->scal, s->scal_len, s->threads);
    if (s->u)
        setup_wipe(s->u, s->nvars, s->threads);
    if (s->v)
        setup_wipe(s->v, s->nvars, s->threads);
    if (s->w)
        setup_wipe(s->w, s->nvars, s->threads);
    free(s->u);
    free(s->v);
    free(s->w);
    free(s->scal);
    g1_fixed_base_free(&s->g1t);
    g2_fixed_base_free(&s->g2t);
}

/* A point array of `bytes` that free() releases, its pages faulted in on
 * `threads` threads now. Filling tens of GB of fresh memory faults it in
 * page by page; measured here, the faults of a single thread cost more than
 * the CPU work of everything but the products (2^22: 7.9 CPU seconds for
 * 1.5 GB, 4 KB pages), and a GPU's copy back would take them on one thread.
 * Huge pages (where the kernel allows them on request) make the faults 512
 * times fewer, and touching the memory on every thread spreads the rest. */
#define HUGE_PAGE ((size_t)2 << 20)

typedef struct touch_job {
    char *p;
} touch_job;

static void touch_worker(void *ctx, size_t begin, size_t end)
{
    const touch_job *job = ctx;
    memset(job->p + begin, 0, end - begin);
}

static void *alloc_touched(size_t bytes, unsigned threads)
{
    void *p = NULL;
    size_t align = bytes >= HUGE_PAGE ? HUGE_PAGE : 64;
    if (posix_memalign(&p, align, bytes) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    if (align == HUGE_PAGE)
        (void)madvise(p, bytes / HUGE_PAGE * HUGE_PAGE, MADV_HUGEPAGE);
#endif
    touch_job job = {.p = p};
    parallel_for(bytes, HUGE_PAGE, threads, touch_worker, &job);
    return p;
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
    unsigned t = s->threads;
    p->vk.ic = malloc(sizeof(g1_affine_t) * (p->vk.num_ic + 1));
    p->l = alloc_touched(sizeof(g1_affine_t) * (p->num_l + 1), t);
    p->h = alloc_touched(sizeof(g1_affine_t) * (p->num_h + 1), t);
    p->a = alloc_touched(sizeof(g1_affine_t) * (p->num_a + 1), t);
    p->b_g1 = alloc_touched(sizeof(g1_affine_t) * (p->num_b_g1 + 1), t);
    p->b_g2 = alloc_touched(sizeof(g2_affine_t) * (p->num_b_g2 + 1), t);
    if (!p->vk.ic || !p->l || !p->h || !p->a || !p->b_g1 || !p->b_g2)
        return CUZK_ERR_OUT_OF_MEMORY;
    return CUZK_OK;
}

/* out[i] = scal[i]·G1 for i < n: through the caller's batch when it gave
 * one, else from the CPU's table. */
static cuzk_status points_g1(setup_state *s, g1_affine_t *out, size_t n)
{
    if (!s->fb || !s->fb->g1)
        return g1_fixed_base_mul_batch(out, &s->g1t, s->scal, n, s->threads, &s->mon.done);
    cuzk_status st = n ? s->fb->g1(s->fb->ctx, out, s->scal, n, s->msg, s->msg_len) : CUZK_OK;
    if (st == CUZK_OK)
        atomic_fetch_add(&s->mon.done, n);
    return st;
}

static cuzk_status points_g2(setup_state *s, g2_affine_t *out, size_t n)
{
    if (!s->fb || !s->fb->g2)
        return g2_fixed_base_mul_batch(out, &s->g2t, s->scal, n, s->threads, &s->mon.done);
    cuzk_status st = n ? s->fb->g2(s->fb->ctx, out, s->scal, n, s->msg, s->msg_len) : CUZK_OK;
    if (st == CUZK_OK)
        atomic_fetch_add(&s->mon.done, n);
    return st;
}

/* The CPU's tables, for the groups the caller's batches do not cover; the
 * window fits the number of products (fixed_base.h). */
static cuzk_status make_tables(setup_state *s, uint64_t g1_products, uint64_t g2_products)
{
    cuzk_status st = CUZK_OK;
    if (!s->fb || !s->fb->g1)
        st = g1_fixed_base_init(&s->g1t, &G1_GENERATOR, fixed_base_window(g1_products));
    if (st == CUZK_OK && (!s->fb || !s->fb->g2))
        st = g2_fixed_base_init(&s->g2t, &G2_GENERATOR, fixed_base_window(g2_products));
    return st;
}

cuzk_status groth16_setup_dev(groth16_params_t *out, const r1cs_t *r, rng_t *rng,
                              const groth16_setup_opts *opts)
{
    static const groth16_setup_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    phase_clock clk;
    clock_start(&clk, opts);
    unsigned threads = parallel_threads(opts->threads);
    memset(out, 0, sizeof(*out));
    if (r->num_inputs < 1 || r->num_constraints < 1)
        return CUZK_ERR_INVALID_ARGUMENT;

    setup_state s;
    memset(&s, 0, sizeof(s));
    s.fb = opts->fixed_base;
    s.threads = threads;
    s.msg = opts->msg;
    s.msg_len = opts->msg_len;
    toxic tw;
    memset(&tw, 0, sizeof(tw));
    fr_t z_tau; /* τ^n − 1 */
    cuzk_status st = domain_init(&s.d, r->num_constraints, DOMAIN_ROOTS_BELLMAN, threads);
    if (st == CUZK_OK)
        st = r1cs_density(&s.dens, r, threads);
    if (st != CUZK_OK)
        goto done;
    s.nvars = r1cs_num_vars(r);
    size_t n = s.d.n;
    s.scal_len = s.nvars > n ? s.nvars : n;
    s.u = calloc(s.nvars, sizeof(fr_t));
    s.v = calloc(s.nvars, sizeof(fr_t));
    s.w = calloc(s.nvars, sizeof(fr_t));
    s.scal = malloc(sizeof(fr_t) * s.scal_len);
    if (!s.u || !s.v || !s.w || !s.scal) {
        st = CUZK_ERR_OUT_OF_MEMORY;
        goto done;
    }
    if ((st = alloc_points(out, r, &s)) != CUZK_OK)
        goto done;
    lap(&clk, PHASE(domain));

    /* Toxic waste; τ must not be a point of the domain (L_i(τ) needs τ ≠ ω^i,
     * which τ^n ≠ 1 guarantees). */
    for (;;) {
        setup_random_nonzero(&tw.tau, rng);
        uint64_t e[1] = {n};
        fr_pow_var(&z_tau, &tw.tau, e, 1);
        fr_sub(&z_tau, &z_tau, &FR_ONE);
        if (!fr_is_zero(&z_tau))
            break;
    }
    setup_random_nonzero(&tw.alpha, rng);
    setup_random_nonzero(&tw.beta, rng);
    setup_random_nonzero(&tw.gamma, rng);
    setup_random_nonzero(&tw.delta, rng);
    fr_inv(&tw.gamma_inv, &tw.gamma);
    fr_inv(&tw.delta_inv, &tw.delta);

    /* Lagrange basis at τ into scal[0..n), then the column polynomials. */
    if ((st = poly_lagrange_at(s.scal, &s.d, POLY_LAGRANGE_DOMAIN, &tw.tau, threads)) != CUZK_OK)
        goto done;
    lap(&clk, PHASE(lagrange));
    setup_column_polys(s.u, r, &r->a, s.scal, threads);
    setup_column_polys(s.v, r, &r->b, s.scal, threads);
    setup_column_polys(s.w, r, &r->c, s.scal, threads);
    lap(&clk, PHASE(columns));

    uint64_t g1_products = out->vk.num_ic + out->num_l + out->num_h + out->num_a + out->num_b_g1;
    if ((st = make_tables(&s, g1_products, out->num_b_g2)) != CUZK_OK)
        goto done;
    setup_vk_points(&out->vk, &tw.alpha, &tw.beta, &tw.gamma, &tw.delta);
    lap(&clk, PHASE(tables));

    setup_monitor_start(&s.mon, opts, g1_products + out->num_b_g2);
    const uint64_t ni = r->num_inputs, na = r->num_aux;

    /* IC: inputs, divided by γ. */
    setup_ic_like(s.scal, s.u, s.v, s.w, ni, &tw.alpha, &tw.beta, &tw.gamma_inv, threads);
    lap(&clk, PHASE(scalars));
    st = points_g1(&s, out->vk.ic, ni);
    lap(&clk, PHASE(points));
    /* L: aux variables, divided by δ. */
    if (st == CUZK_OK) {
        setup_ic_like(s.scal, s.u + ni, s.v + ni, s.w + ni, na, &tw.alpha, &tw.beta, &tw.delta_inv,
                      threads);
        lap(&clk, PHASE(scalars));
        st = points_g1(&s, out->l, na);
        lap(&clk, PHASE(points));
    }
    /* H: τ^i (τ^n − 1)/δ for i < n − 1. */
    if (st == CUZK_OK) {
        fr_t t;
        fr_mul(&t, &z_tau, &tw.delta_inv);
        setup_powers(s.scal, &t, &tw.tau, out->num_h, threads);
        cuzk_wipe(&t, sizeof(t));
        lap(&clk, PHASE(scalars));
        st = points_g1(&s, out->h, out->num_h);
        lap(&clk, PHASE(points));
    }
    /* A: u(τ) for every input and the A-dense aux variables. */
    if (st == CUZK_OK) {
        uint64_t k = setup_select(s.scal, s.u, NULL, ni, threads);
        k += setup_select(s.scal + k, s.u + ni, s.dens.a_aux, na, threads);
        lap(&clk, PHASE(scalars));
        st = points_g1(&s, out->a, k);
        lap(&clk, PHASE(points));
    }
    /* B in G1 and G2: v(τ) for the B-dense inputs and aux variables. */
    if (st == CUZK_OK) {
        uint64_t k = setup_select(s.scal, s.v, s.dens.b_input, ni, threads);
        k += setup_select(s.scal + k, s.v + ni, s.dens.b_aux, na, threads);
        lap(&clk, PHASE(scalars));
        st = points_g1(&s, out->b_g1, k);
        if (st == CUZK_OK)
            st = points_g2(&s, out->b_g2, k);
        lap(&clk, PHASE(points));
    }
    setup_monitor_stop(&s.mon);

done:
    cuzk_wipe(&tw, sizeof(tw));
    cuzk_wipe(&z_tau, sizeof(z_tau));
    state_free(&s);
    if (st != CUZK_OK)
        groth16_params_free(out);
    return st;
}
