/* Fixed-base tables and batched products, written once for G1 and G2.
 * A template: fixed_base_g1.c / fixed_base_g2.c define PT_(name) (point
 * names, PT_(jac_add) -> g1_jac_add) and FB_T (the table type) first. */

#include <stdlib.h>

#include "util/parallel.h"

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
    const fr_t *scalars;
    atomic_uint_fast64_t *done;
    atomic_int failed;
} PT_(fb_job);

static void PT_(fb_worker)(void *ctx, size_t begin, size_t end)
{
    PT_(fb_job) *job = ctx;
    const FB_T *t = job->t;
    size_t per = ((size_t)1 << t->window) - 1;
    FB_JAC_T *acc = malloc(sizeof(FB_JAC_T) * FB_CHUNK);
    if (!acc) {
        atomic_store(&job->failed, 1);
        return;
    }
    for (size_t i0 = begin; i0 < end; i0 += FB_CHUNK) {
        size_t cnt = end - i0 < FB_CHUNK ? end - i0 : FB_CHUNK;
        for (size_t i = 0; i < cnt; i++) {
            uint64_t s[4];
            fr_to_raw(s, &job->scalars[i0 + i]);
            PT_(jac_set_infinity)(&acc[i]);
            for (unsigned k = 0; k < t->windows; k++) {
                uint64_t d = fb_digit(s, k, t->window);
                if (d)
                    PT_(jac_add_mixed)(&acc[i], &acc[i], &t->table[k * per + d - 1]);
            }
        }
        PT_(jac_batch_to_affine)(job->out + i0, acc, cnt);
        if (job->done)
            atomic_fetch_add(job->done, cnt);
    }
    free(acc);
}

cuzk_status PT_(fixed_base_mul_batch)(FB_AFF_T *out, const FB_T *t, const fr_t *scalars,
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
