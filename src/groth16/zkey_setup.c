#include "groth16/zkey_setup.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/fixed_base.h"
#include "groth16/setup_common.h"
#include "poly/domain.h"
#include "poly/lagrange.h"
#include "util/parallel.h"
#include "util/wipe.h"

/* The points made per call of the sink: 2^16 points are 6.6 MB of G1 or
 * 13 MB of G2, and keep the memory of a key of any size to its scalars. */
#define ZKEY_SETUP_CHUNK ((size_t)1 << 16)
/* With the caller's batches (a GPU) a chunk is one call, and each call has
 * a fixed cost (the device's window table, about 0.1 s): 2^22 points a
 * call (0.8 GB of G2 points on the host) instead of 2^16. */
#define ZKEY_SETUP_BATCH_CHUNK ((size_t)1 << 22)

uint64_t groth16_zkey_domain_size(uint64_t num_constraints, uint64_t num_public)
{
    uint64_t m = num_constraints + num_public;
    uint64_t n = 2;
    while (n <= m) {
        if (n == (uint64_t)1 << 31)
            return 0;
        n <<= 1;
    }
    return n;
}

typedef struct zkey_toxic {
    fr_t tau, alpha, beta, gamma, delta;
    fr_t gamma_inv, delta_inv;
} zkey_toxic;

typedef struct zkey_setup_state {
    const r1cs_t *r;
    groth16_zkey_shape shape;
    unsigned threads;
    domain_t d;
    fr_t *lag;       /* L_j(τ), then H's scalars L^(2n)_{2i+1}(τ)/δ: n */
    fr_t *u, *v, *w; /* column polynomials at τ: num_vars each */
    fr_t *scal;      /* a chunk of IC or C scalars */
    void *pts;       /* a chunk of points (room for G2) */
    g1_fixed_base_t g1t;
    g2_fixed_base_t g2t;
    const groth16_fixed_base_ops *fb; /* the caller's batches (a GPU), or NULL */
    size_t chunk;                     /* points a batch: ZKEY_SETUP_CHUNK or _BATCH_CHUNK */
    char *msg;
    size_t msg_len;
    groth16_vk_t vk;
    zkey_toxic tw;
    setup_monitor mon;
} zkey_setup_state;

/* The toxic waste. τ must not be a 2n-th root of unity: the n-point basis
 * needs τ off the n-th roots, H's basis off the odd 2n-th roots. */
static void draw_toxic(zkey_toxic *tw, uint64_t n, rng_t *rng)
{
    fr_t t;
    uint64_t e[1] = {2 * n};
    do {
        setup_random_nonzero(&tw->tau, rng);
        fr_pow_var(&t, &tw->tau, e, 1);
    } while (fr_is_one(&t));
    cuzk_wipe(&t, sizeof(t));
    setup_random_nonzero(&tw->alpha, rng);
    setup_random_nonzero(&tw->beta, rng);
    setup_random_nonzero(&tw->gamma, rng);
    setup_random_nonzero(&tw->delta, rng);
    fr_inv(&tw->gamma_inv, &tw->gamma);
    fr_inv(&tw->delta_inv, &tw->delta);
}

/* u, v, w from the Lagrange basis in s->lag. */
static void column_polys(zkey_setup_state *s)
{
    const r1cs_t *r = s->r;
    setup_column_polys(s->u, r, &r->a, s->lag, s->threads);
    setup_column_polys(s->v, r, &r->b, s->lag, s->threads);
    setup_column_polys(s->w, r, &r->c, s->lag, s->threads);
    for (uint64_t i = 0; i <= s->shape.num_public; i++)
        fr_add(&s->u[i], &s->u[i], &s->lag[r->num_constraints + i]);
}

/* out[i] = sc[i]·G1 (G2) for i < k: through the caller's batch when it
 * gave one, else from the CPU's table. */
static cuzk_status points_g1(zkey_setup_state *s, g1_affine_t *out, const fr_t *sc, size_t k)
{
    if (!s->fb || !s->fb->g1)
        return g1_fixed_base_mul_batch(out, &s->g1t, sc, k, s->threads, &s->mon.done);
    cuzk_status st = k ? s->fb->g1(s->fb->ctx, out, sc, k, s->msg, s->msg_len) : CUZK_OK;
    if (st == CUZK_OK)
        atomic_fetch_add(&s->mon.done, k);
    return st;
}

static cuzk_status points_g2(zkey_setup_state *s, g2_affine_t *out, const fr_t *sc, size_t k)
{
    if (!s->fb || !s->fb->g2)
        return g2_fixed_base_mul_batch(out, &s->g2t, sc, k, s->threads, &s->mon.done);
    cuzk_status st = k ? s->fb->g2(s->fb->ctx, out, sc, k, s->msg, s->msg_len) : CUZK_OK;
    if (st == CUZK_OK)
        atomic_fetch_add(&s->mon.done, k);
    return st;
}

/* IC into s->vk.ic, chunk by chunk through s->scal. */
static cuzk_status make_ic(zkey_setup_state *s)
{
    uint64_t count = (uint64_t)s->shape.num_public + 1;
    for (uint64_t first = 0; first < count; first += s->chunk) {
        size_t k = count - first < s->chunk ? (size_t)(count - first) : s->chunk;
        setup_ic_like(s->scal, s->u + first, s->v + first, s->w + first, k, &s->tw.alpha,
                      &s->tw.beta, &s->tw.gamma_inv, s->threads);
        cuzk_status st = points_g1(s, s->vk.ic + first, s->scal, k);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

static uint64_t part_count(const groth16_zkey_shape *sh, groth16_zkey_part part)
{
    switch (part) {
    case GROTH16_ZKEY_PART_C:
        return (uint64_t)sh->num_vars - sh->num_public - 1;
    case GROTH16_ZKEY_PART_H:
        return sh->domain_size;
    default:
        return sh->num_vars;
    }
}

/* One part, chunk by chunk, into the sink. */
static cuzk_status make_part(zkey_setup_state *s, groth16_zkey_part part,
                             const groth16_zkey_sink *sink)
{
    uint64_t count = part_count(&s->shape, part);
    uint64_t c0 = (uint64_t)s->shape.num_public + 1; /* signal of C_0 */
    for (uint64_t first = 0; first < count; first += s->chunk) {
        size_t k = count - first < s->chunk ? (size_t)(count - first) : s->chunk;
        const fr_t *sc;
        switch (part) {
        case GROTH16_ZKEY_PART_A:
            sc = s->u + first;
            break;
        case GROTH16_ZKEY_PART_B1:
        case GROTH16_ZKEY_PART_B2:
            sc = s->v + first;
            break;
        case GROTH16_ZKEY_PART_C:
            setup_ic_like(s->scal, s->u + c0 + first, s->v + c0 + first, s->w + c0 + first, k,
                          &s->tw.alpha, &s->tw.beta, &s->tw.delta_inv, s->threads);
            sc = s->scal;
            break;
        default:
            sc = s->lag + first;
            break;
        }
        cuzk_status st = part == GROTH16_ZKEY_PART_B2 ? points_g2(s, s->pts, sc, k)
                                                      : points_g1(s, s->pts, sc, k);
        if (st == CUZK_OK)
            st = sink->points(sink->ctx, part, s->pts, k);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

static cuzk_status setup_run(zkey_setup_state *s, rng_t *rng, const groth16_setup_opts *opts,
                             const groth16_zkey_sink *sink)
{
    uint64_t nv = s->shape.num_vars, n = s->shape.domain_size;
    unsigned log_n = 0;
    while (((uint64_t)1 << log_n) < n)
        log_n++;
    cuzk_status st = domain_init_log(&s->d, log_n, DOMAIN_ROOTS_SNARKJS, s->threads);
    if (st != CUZK_OK)
        return st;
    s->lag = malloc(sizeof(fr_t) * n);
    s->u = calloc(nv, sizeof(fr_t));
    s->v = calloc(nv, sizeof(fr_t));
    s->w = calloc(nv, sizeof(fr_t));
    s->scal = malloc(sizeof(fr_t) * s->chunk);
    s->pts = malloc(sizeof(g2_affine_t) * s->chunk);
    s->vk.ic = malloc(sizeof(g1_affine_t) * ((size_t)s->shape.num_public + 1));
    s->vk.num_ic = (size_t)s->shape.num_public + 1;
    if (!s->lag || !s->u || !s->v || !s->w || !s->scal || !s->pts || !s->vk.ic)
        return CUZK_ERR_OUT_OF_MEMORY;
    uint64_t total = s->vk.num_ic;
    for (int p = 0; p < GROTH16_ZKEY_PART_COUNT; p++)
        total += part_count(&s->shape, (groth16_zkey_part)p);
    uint64_t g2 = part_count(&s->shape, GROTH16_ZKEY_PART_B2);
    /* The CPU's tables, for the groups the caller's batches do not cover. */
    if ((!s->fb || !s->fb->g1) &&
        (st = g1_fixed_base_init(&s->g1t, &G1_GENERATOR, fixed_base_window(total - g2))) != CUZK_OK)
        return st;
    if ((!s->fb || !s->fb->g2) &&
        (st = g2_fixed_base_init(&s->g2t, &G2_GENERATOR, fixed_base_window(g2))) != CUZK_OK)
        return st;

    draw_toxic(&s->tw, n, rng);
    if ((st = poly_lagrange_at(s->lag, &s->d, POLY_LAGRANGE_DOMAIN, &s->tw.tau, s->threads)) !=
        CUZK_OK)
        return st;
    column_polys(s);
    /* The n-point basis is no longer needed: H's scalars take its place. */
    if ((st = poly_lagrange_at(s->lag, &s->d, POLY_LAGRANGE_ODD_2N, &s->tw.tau, s->threads)) !=
        CUZK_OK)
        return st;
    for (uint64_t i = 0; i < n; i++)
        fr_mul(&s->lag[i], &s->lag[i], &s->tw.delta_inv);
    setup_vk_points(&s->vk, &s->tw.alpha, &s->tw.beta, &s->tw.gamma, &s->tw.delta);

    setup_monitor_start(&s->mon, opts, total);
    st = make_ic(s);
    if (st == CUZK_OK)
        st = sink->begin(sink->ctx, &s->shape, &s->vk);
    for (int p = 0; p < GROTH16_ZKEY_PART_COUNT && st == CUZK_OK; p++)
        st = make_part(s, (groth16_zkey_part)p, sink);
    setup_monitor_stop(&s->mon);
    return st;
}

cuzk_status groth16_zkey_setup_dev(const r1cs_t *r, rng_t *rng, const groth16_setup_opts *opts,
                                   const groth16_zkey_sink *sink)
{
    static const groth16_setup_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    if (r->num_inputs < 1)
        return CUZK_ERR_INVALID_ARGUMENT;
    uint64_t nv = r1cs_num_vars(r), np = r->num_inputs - 1;
    uint64_t n = groth16_zkey_domain_size(r->num_constraints, np);
    if (nv > UINT32_MAX || n == 0)
        return CUZK_ERR_UNSUPPORTED;
    zkey_setup_state s;
    memset(&s, 0, sizeof(s));
    s.r = r;
    s.shape = (groth16_zkey_shape){
        .num_vars = (uint32_t)nv, .num_public = (uint32_t)np, .domain_size = (uint32_t)n};
    s.threads = parallel_threads(opts->threads);
    s.fb = opts->fixed_base;
    s.chunk = s.fb ? ZKEY_SETUP_BATCH_CHUNK : ZKEY_SETUP_CHUNK;
    s.msg = opts->msg;
    s.msg_len = opts->msg_len;
    cuzk_status st = setup_run(&s, rng, opts, sink);
    cuzk_wipe(&s.tw, sizeof(s.tw));
    if (s.lag)
        cuzk_wipe(s.lag, sizeof(fr_t) * n);
    if (s.u)
        cuzk_wipe(s.u, sizeof(fr_t) * nv);
    if (s.v)
        cuzk_wipe(s.v, sizeof(fr_t) * nv);
    if (s.w)
        cuzk_wipe(s.w, sizeof(fr_t) * nv);
    if (s.scal)
        cuzk_wipe(s.scal, sizeof(fr_t) * s.chunk);
    free(s.lag);
    free(s.u);
    free(s.v);
    free(s.w);
    free(s.scal);
    free(s.pts);
    groth16_vk_free(&s.vk);
    g1_fixed_base_free(&s.g1t);
    g2_fixed_base_free(&s.g2t);
    domain_free(&s.d);
    return st;
}
