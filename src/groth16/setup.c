#include "groth16/setup.h"

#include <stdlib.h>
#include <string.h>

#include "groth16/fixed_base.h"
#include "groth16/setup_common.h"
#include "poly/domain.h"
#include "poly/lagrange.h"
#include "r1cs/density.h"
#include "util/parallel.h"
#include "util/wipe.h"

/* Window of the fixed-base tables: 8 bits makes 32 mixed additions per
 * product from a 32-window table (8,160 affine points, under 1 MB for G1). */
#define SETUP_WINDOW 8

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
    setup_column_polys(s.u, r, &r->a, s.scal);
    setup_column_polys(s.v, r, &r->b, s.scal);
    setup_column_polys(s.w, r, &r->c, s.scal);

    if ((st = g1_fixed_base_init(&s.g1t, &G1_GENERATOR, SETUP_WINDOW)) != CUZK_OK ||
        (st = g2_fixed_base_init(&s.g2t, &G2_GENERATOR, SETUP_WINDOW)) != CUZK_OK)
        goto done;
    setup_vk_points(&out->vk, &tw.alpha, &tw.beta, &tw.gamma, &tw.delta);

    uint64_t total = out->vk.num_ic + out->num_l + out->num_h + out->num_a + out->num_b_g1 +
                     out->num_b_g2;
    setup_monitor mon;
    setup_monitor_start(&mon, opts, total);

    /* IC: inputs, divided by γ. */
    setup_ic_like(s.scal, s.u, s.v, s.w, r->num_inputs, &tw.alpha, &tw.beta, &tw.gamma_inv);
    st = g1_fixed_base_mul_batch(out->vk.ic, &s.g1t, s.scal, r->num_inputs, threads, &mon.done);
    /* L: aux variables, divided by δ. */
    if (st == CUZK_OK) {
        uint64_t ni = r->num_inputs;
        setup_ic_like(s.scal, s.u + ni, s.v + ni, s.w + ni, r->num_aux, &tw.alpha, &tw.beta,
                      &tw.delta_inv);
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
    setup_monitor_stop(&mon);

done:
    cuzk_wipe(&tw, sizeof(tw));
    cuzk_wipe(&z_tau, sizeof(z_tau));
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
