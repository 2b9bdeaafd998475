/* The development setup of zkey_setup.h for one curve. No include guard:
 * zkey_setup.c includes it once per curve, after its scalar field's
 * _names.h (FE_ ...) and
 *   ZS_(name)          the names of this instance's types and functions
 *   ZS_G1(name), ZS_G2(name)   the groups' names (g1_##name, bn254_g1_##name)
 *   ZS_G1_GENERATOR, ZS_G2_GENERATOR
 *   ZS_DOMAIN(name)    the scalar field's domains (domain_##name)
 *   ZS_LAGRANGE        poly/lagrange.h's basis at τ over the field
 *   ZS_SETUP(name)     setup_common.h's curve-dependent functions
 *   ZS_VK_T, ZS_VK_FREE  the verifying key
 *   ZS_BEGIN           the sink's begin callback for the curve
 *   ZS_FIXED_BASE_OPS  1 when the caller's batches (groth16_fixed_base_ops,
 *                      whose points are BLS12-381's) can make the points
 * It undefines them all (and the field's names). */

typedef struct ZS_(toxic) {
    FE_T tau, alpha, beta, gamma, delta;
    FE_T gamma_inv, delta_inv;
} ZS_(toxic);

typedef struct ZS_(state) {
    const r1cs_t *r;
    groth16_zkey_shape shape;
    unsigned threads;
    ZS_DOMAIN(t) d;
    FE_T *lag;       /* L_j(τ), then H's scalars L^(2n)_{2i+1}(τ)/δ: n */
    FE_T *u, *v, *w; /* column polynomials at τ: num_vars each */
    FE_T *scal;      /* a chunk of IC or C scalars */
    void *pts;       /* a chunk of points (room for G2) */
    ZS_G1(fixed_base_t) g1t;
    ZS_G2(fixed_base_t) g2t;
    const groth16_fixed_base_ops *fb; /* the caller's batches (a GPU), or NULL */
    size_t chunk;                     /* points a batch: ZKEY_SETUP_CHUNK or _BATCH_CHUNK */
    char *msg;
    size_t msg_len;
    ZS_VK_T vk;
    ZS_(toxic) tw;
    setup_monitor mon;
} ZS_(state);

/* The toxic waste. τ must not be a 2n-th root of unity: the n-point basis
 * needs τ off the n-th roots, H's basis off the odd 2n-th roots. */
static void ZS_(draw_toxic)(ZS_(toxic) * tw, uint64_t n, rng_t *rng)
{
    FE_T t;
    uint64_t e[1] = {2 * n};
    do {
        ZS_SETUP(random_nonzero)(&tw->tau, rng);
        FE_(pow_var)(&t, &tw->tau, e, 1);
    } while (FE_(is_one)(&t));
    cuzk_wipe(&t, sizeof(t));
    ZS_SETUP(random_nonzero)(&tw->alpha, rng);
    ZS_SETUP(random_nonzero)(&tw->beta, rng);
    ZS_SETUP(random_nonzero)(&tw->gamma, rng);
    ZS_SETUP(random_nonzero)(&tw->delta, rng);
    FE_(inv)(&tw->gamma_inv, &tw->gamma);
    FE_(inv)(&tw->delta_inv, &tw->delta);
}

/* u, v, w from the Lagrange basis in s->lag. */
static void ZS_(column_polys)(ZS_(state) * s)
{
    const r1cs_t *r = s->r;
    ZS_SETUP(column_polys)(s->u, r, &r->a, s->lag, s->threads);
    ZS_SETUP(column_polys)(s->v, r, &r->b, s->lag, s->threads);
    ZS_SETUP(column_polys)(s->w, r, &r->c, s->lag, s->threads);
    for (uint64_t i = 0; i <= s->shape.num_public; i++)
        FE_(add)(&s->u[i], &s->u[i], &s->lag[r->num_constraints + i]);
}

/* out[i] = sc[i]·G1 (G2) for i < k: through the caller's batch when it
 * gave one, else from the CPU's table. */
static cuzk_status ZS_(points_g1)(ZS_(state) * s, ZS_G1(affine_t) * out, const FE_T *sc, size_t k)
{
#if ZS_FIXED_BASE_OPS
    if (s->fb && s->fb->g1) {
        cuzk_status st = k ? s->fb->g1(s->fb->ctx, out, sc, k, s->msg, s->msg_len) : CUZK_OK;
        if (st == CUZK_OK)
            atomic_fetch_add(&s->mon.done, k);
        return st;
    }
#endif
    return ZS_G1(fixed_base_mul_batch)(out, &s->g1t, sc, k, s->threads, &s->mon.done);
}

static cuzk_status ZS_(points_g2)(ZS_(state) * s, ZS_G2(affine_t) * out, const FE_T *sc, size_t k)
{
#if ZS_FIXED_BASE_OPS
    if (s->fb && s->fb->g2) {
        cuzk_status st = k ? s->fb->g2(s->fb->ctx, out, sc, k, s->msg, s->msg_len) : CUZK_OK;
        if (st == CUZK_OK)
            atomic_fetch_add(&s->mon.done, k);
        return st;
    }
#endif
    return ZS_G2(fixed_base_mul_batch)(out, &s->g2t, sc, k, s->threads, &s->mon.done);
}

/* IC into s->vk.ic, chunk by chunk through s->scal. */
static cuzk_status ZS_(make_ic)(ZS_(state) * s)
{
    uint64_t count = (uint64_t)s->shape.num_public + 1;
    for (uint64_t first = 0; first < count; first += s->chunk) {
        size_t k = count - first < s->chunk ? (size_t)(count - first) : s->chunk;
        ZS_SETUP(ic_like)
        (s->scal, s->u + first, s->v + first, s->w + first, k, &s->tw.alpha, &s->tw.beta,
         &s->tw.gamma_inv, s->threads);
        cuzk_status st = ZS_(points_g1)(s, s->vk.ic + first, s->scal, k);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

/* One part, chunk by chunk, into the sink. */
static cuzk_status ZS_(make_part)(ZS_(state) * s, groth16_zkey_part part,
                                  const groth16_zkey_sink *sink)
{
    uint64_t count = part_count(&s->shape, part);
    uint64_t c0 = (uint64_t)s->shape.num_public + 1; /* signal of C_0 */
    for (uint64_t first = 0; first < count; first += s->chunk) {
        size_t k = count - first < s->chunk ? (size_t)(count - first) : s->chunk;
        const FE_T *sc;
        switch (part) {
        case GROTH16_ZKEY_PART_A:
            sc = s->u + first;
            break;
        case GROTH16_ZKEY_PART_B1:
        case GROTH16_ZKEY_PART_B2:
            sc = s->v + first;
            break;
        case GROTH16_ZKEY_PART_C:
            ZS_SETUP(ic_like)
            (s->scal, s->u + c0 + first, s->v + c0 + first, s->w + c0 + first, k, &s->tw.alpha,
             &s->tw.beta, &s->tw.delta_inv, s->threads);
            sc = s->scal;
            break;
        default:
            sc = s->lag + first;
            break;
        }
        cuzk_status st = part == GROTH16_ZKEY_PART_B2 ? ZS_(points_g2)(s, s->pts, sc, k)
                                                      : ZS_(points_g1)(s, s->pts, sc, k);
        if (st == CUZK_OK)
            st = sink->points(sink->ctx, part, s->pts, k);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

static cuzk_status ZS_(run)(ZS_(state) * s, rng_t *rng, const groth16_setup_opts *opts,
                            const groth16_zkey_sink *sink)
{
    uint64_t nv = s->shape.num_vars, n = s->shape.domain_size;
    unsigned log_n = 0;
    while (((uint64_t)1 << log_n) < n)
        log_n++;
    cuzk_status st = ZS_DOMAIN(init_log)(&s->d, log_n, DOMAIN_ROOTS_SNARKJS, s->threads);
    if (st != CUZK_OK)
        return st;
    s->lag = malloc(sizeof(FE_T) * n);
    s->u = calloc(nv, sizeof(FE_T));
    s->v = calloc(nv, sizeof(FE_T));
    s->w = calloc(nv, sizeof(FE_T));
    s->scal = malloc(sizeof(FE_T) * s->chunk);
    s->pts = malloc(sizeof(ZS_G2(affine_t)) * s->chunk);
    s->vk.ic = malloc(sizeof(ZS_G1(affine_t)) * ((size_t)s->shape.num_public + 1));
    s->vk.num_ic = (size_t)s->shape.num_public + 1;
    if (!s->lag || !s->u || !s->v || !s->w || !s->scal || !s->pts || !s->vk.ic)
        return CUZK_ERR_OUT_OF_MEMORY;
    uint64_t total = s->vk.num_ic;
    for (int p = 0; p < GROTH16_ZKEY_PART_COUNT; p++)
        total += part_count(&s->shape, (groth16_zkey_part)p);
    uint64_t g2 = part_count(&s->shape, GROTH16_ZKEY_PART_B2);
    /* The CPU's tables, for the groups the caller's batches do not cover. */
    if ((!s->fb || !s->fb->g1) &&
        (st = ZS_G1(fixed_base_init)(&s->g1t, &ZS_G1_GENERATOR, fixed_base_window(total - g2))) !=
            CUZK_OK)
        return st;
    if ((!s->fb || !s->fb->g2) &&
        (st = ZS_G2(fixed_base_init)(&s->g2t, &ZS_G2_GENERATOR, fixed_base_window(g2))) != CUZK_OK)
        return st;

    ZS_(draw_toxic)(&s->tw, n, rng);
    if ((st = ZS_LAGRANGE(s->lag, &s->d, POLY_LAGRANGE_DOMAIN, &s->tw.tau, s->threads)) != CUZK_OK)
        return st;
    ZS_(column_polys)(s);
    /* The n-point basis is no longer needed: H's scalars take its place. */
    if ((st = ZS_LAGRANGE(s->lag, &s->d, POLY_LAGRANGE_ODD_2N, &s->tw.tau, s->threads)) != CUZK_OK)
        return st;
    for (uint64_t i = 0; i < n; i++)
        FE_(mul)(&s->lag[i], &s->lag[i], &s->tw.delta_inv);
    ZS_SETUP(vk_points)(&s->vk, &s->tw.alpha, &s->tw.beta, &s->tw.gamma, &s->tw.delta);

    setup_monitor_start(&s->mon, opts, total);
    st = ZS_(make_ic)(s);
    if (st == CUZK_OK)
        st = ZS_BEGIN(sink)(sink->ctx, &s->shape, &s->vk);
    for (int p = 0; p < GROTH16_ZKEY_PART_COUNT && st == CUZK_OK; p++)
        st = ZS_(make_part)(s, (groth16_zkey_part)p, sink);
    setup_monitor_stop(&s->mon);
    return st;
}

/* groth16_zkey_setup_dev for this curve: the shape checked by the caller. */
static cuzk_status ZS_(setup_dev)(const r1cs_t *r, const groth16_zkey_shape *shape, rng_t *rng,
                                  const groth16_setup_opts *opts, const groth16_zkey_sink *sink)
{
    ZS_(state) s;
    memset(&s, 0, sizeof(s));
    s.r = r;
    s.shape = *shape;
    s.threads = parallel_threads(opts->threads);
    s.fb = ZS_FIXED_BASE_OPS ? opts->fixed_base : NULL;
    s.chunk = s.fb ? ZKEY_SETUP_BATCH_CHUNK : ZKEY_SETUP_CHUNK;
    s.msg = opts->msg;
    s.msg_len = opts->msg_len;
    uint64_t nv = shape->num_vars, n = shape->domain_size;
    cuzk_status st = ZS_(run)(&s, rng, opts, sink);
    cuzk_wipe(&s.tw, sizeof(s.tw));
    if (s.lag)
        cuzk_wipe(s.lag, sizeof(FE_T) * n);
    if (s.u)
        cuzk_wipe(s.u, sizeof(FE_T) * nv);
    if (s.v)
        cuzk_wipe(s.v, sizeof(FE_T) * nv);
    if (s.w)
        cuzk_wipe(s.w, sizeof(FE_T) * nv);
    if (s.scal)
        cuzk_wipe(s.scal, sizeof(FE_T) * s.chunk);
    free(s.lag);
    free(s.u);
    free(s.v);
    free(s.w);
    free(s.scal);
    free(s.pts);
    ZS_VK_FREE(&s.vk);
    ZS_G1(fixed_base_free)(&s.g1t);
    ZS_G2(fixed_base_free)(&s.g2t);
    ZS_DOMAIN(free)(&s.d);
    return st;
}

#undef ZS_
#undef ZS_G1
#undef ZS_G2
#undef ZS_G1_GENERATOR
#undef ZS_G2_GENERATOR
#undef ZS_DOMAIN
#undef ZS_LAGRANGE
#undef ZS_SETUP
#undef ZS_VK_T
#undef ZS_VK_FREE
#undef ZS_BEGIN
#undef ZS_FIXED_BASE_OPS
#include "field/prime_field_names_undef.h"
