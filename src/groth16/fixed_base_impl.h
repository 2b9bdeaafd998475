/* Fixed-base tables and batched products, written once for the G1 and G2
 * of both curves. A template: fixed_base_g1.c / fixed_base_g2.c (and
 * bn254_fixed_base_g1.c / _g2.c) define PT_(name) (point names,
 * PT_(jac_add) -> g1_jac_add), FE_(name) and FE_T (the coordinate field:
 * fp_ / fp2_), FB_T (the table type), FB_SC_T (the scalar field's element)
 * and FB_SC_TO_RAW (its to_raw: the integer, 4 little-endian limbs) first.
 * Both scalar fields are below 2^255. */

#include <stdlib.h>

#include "util/parallel.h"
#include "util/wipe.h"

#define FB_AFF_T PT_(affine_t)
#define FB_JAC_T PT_(jac_t)
#define FB_CHUNK 256 /* points per batch inversion */

/* Window digit k (w bits) of a 256-bit little-endian scalar. */
static uint64_t fb_digit(const uint64_t s[4], unsigned k, unsigned w)
{
    unsigned bit = k * w;
    if (bit >= 256)
        return 0;
    unsigned limb = bit / 64, shift = bit % 64;
    uint64_t v = s[limb] >> shift;
    if (shift + w > 64 && limb + 1 < 4)
        v |= s[limb + 1] << (64 - shift);
    return v & ((1ULL << w) - 1);
}

cuzk_status PT_(fixed_base_init)(FB_T *t, const FB_AFF_T *base, unsigned window)
{
    if (window < 1 || window > 16)
        return CUZK_ERR_INVALID_ARGUMENT;
    size_t per = ((size_t)1 << window) - 1;
    t->window = window;
    t->windows = (255 + window - 1) / window; /* scalars are < r < 2^255 */
    size_t total = per * t->windows;
    t->table = malloc(sizeof(FB_AFF_T) * total);
    FB_JAC_T *jac = malloc(sizeof(FB_JAC_T) * per);
    if (!t->table || !jac) {
        free(t->table);
        free(jac);
        t->table = NULL;
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    FB_JAC_T step; /* 2^(w·k)·B */
    PT_(jac_from_affine)(&step, base);
    for (unsigned k = 0; k < t->windows; k++) {
        jac[0] = step;
        for (size_t d = 1; d < per; d++)
            PT_(jac_add)(&jac[d], &jac[d - 1], &step);
        PT_(jac_batch_to_affine)(t->table + k * per, jac, per);
        for (unsigned i = 0; i < window; i++)
            PT_(jac_dbl)(&step, &step);
    }
    free(jac);
    return CUZK_OK;
}

void PT_(fixed_base_free)(FB_T *t)
{
    free(t->table);
    t->table = NULL;
}

typedef struct PT_(fb_job) {
    FB_AFF_T *out;
    const FB_T *t;
    const FB_SC_T *scalars;
    atomic_uint_fast64_t *done;
    atomic_int failed;
} PT_(fb_job);

typedef struct PT_(fb_scratch) {
    uint64_t s[FB_CHUNK][4];       /* the scalars as integers */
    const FB_AFF_T *add[FB_CHUNK]; /* this window's table point, per pending sum */
    uint32_t idx[FB_CHUNK];        /* which product each pending sum is */
    FE_T den[FB_CHUNK], inv[FB_CHUNK];
} PT_(fb_scratch);

/* acc[i] += table point, for the products of one chunk in lockstep, window
 * by window, in affine coordinates: the chord's slopes λ = (y2 − y1)/(x2 −
 * x1) of all the chunk's additions share one inversion (Montgomery's
 * trick), about 6 multiplications an addition where a mixed Jacobian
 * addition takes 11, and the sums come out affine. x1 = x2 cannot happen
 * for scalars below r (acc is s'·G with s' the scalar's low windows, the
 * point added d·2^(w·k)·G, and s' ± d·2^(w·k) is neither 0 nor r); such a
 * sum would still be right, through a Jacobian addition. */
static void PT_(fb_chunk)(FB_AFF_T *acc, const FB_T *t, const FB_SC_T *scalars, size_t cnt,
                          PT_(fb_scratch) * sc)
{
    size_t per = ((size_t)1 << t->window) - 1;
    for (size_t i = 0; i < cnt; i++) {
        FB_SC_TO_RAW(sc->s[i], &scalars[i]);
        PT_(affine_set_infinity)(&acc[i]); /* x = y = 0 as well: what the GPU writes */
    }
    for (unsigned k = 0; k < t->windows; k++) {
        size_t m = 0;
        for (size_t i = 0; i < cnt; i++) {
            uint64_t d = fb_digit(sc->s[i], k, t->window);
            if (!d)
                continue;
            const FB_AFF_T *p = &t->table[k * per + d - 1];
            if (acc[i].infinity) {
                acc[i] = *p;
                continue;
            }
            FE_(sub)(&sc->den[m], &p->x, &acc[i].x);
            if (FE_(is_zero)(&sc->den[m])) {
                FB_JAC_T j;
                PT_(jac_from_affine)(&j, &acc[i]);
                PT_(jac_add_mixed)(&j, &j, p);
                PT_(jac_to_affine)(&acc[i], &j);
                continue;
            }
            sc->add[m] = p;
            sc->idx[m++] = (uint32_t)i;
        }
        FE_(batch_inv_var)(sc->inv, sc->den, m);
        for (size_t j = 0; j < m; j++) {
            FB_AFF_T *a = &acc[sc->idx[j]];
            const FB_AFF_T *p = sc->add[j];
            FE_T lambda, x3, t1;
            FE_(sub)(&lambda, &p->y, &a->y);
            FE_(mul)(&lambda, &lambda, &sc->inv[j]);
            FE_(sqr)(&x3, &lambda);
            FE_(sub)(&x3, &x3, &a->x);
            FE_(sub)(&x3, &x3, &p->x);
            FE_(sub)(&t1, &a->x, &x3); /* y3 = λ(x1 − x3) − y1 */
            FE_(mul)(&t1, &t1, &lambda);
            FE_(sub)(&a->y, &t1, &a->y);
            a->x = x3;
        }
    }
}

static void PT_(fb_worker)(void *ctx, size_t begin, size_t end)
{
    PT_(fb_job) *job = ctx;
    PT_(fb_scratch) *sc = malloc(sizeof(*sc));
    if (!sc) {
        atomic_store(&job->failed, 1);
        return;
    }
    for (size_t i0 = begin; i0 < end; i0 += FB_CHUNK) {
        size_t cnt = end - i0 < FB_CHUNK ? end - i0 : FB_CHUNK;
        PT_(fb_chunk)(job->out + i0, job->t, job->scalars + i0, cnt, sc);
        if (job->done)
            atomic_fetch_add(job->done, cnt);
    }
    cuzk_wipe(sc, sizeof(*sc)); /* scalars and differences of secret points */
    free(sc);
}

cuzk_status PT_(fixed_base_mul_batch)(FB_AFF_T *out, const FB_T *t, const FB_SC_T *scalars,
                                      size_t n, unsigned threads, atomic_uint_fast64_t *done)
{
    PT_(fb_job) job = {.out = out, .t = t, .scalars = scalars, .done = done};
    atomic_init(&job.failed, 0);
    parallel_for(n, FB_CHUNK, threads, PT_(fb_worker), &job);
    return atomic_load(&job.failed) ? CUZK_ERR_OUT_OF_MEMORY : CUZK_OK;
}

#undef FB_AFF_T
#undef FB_JAC_T
#undef FB_CHUNK
