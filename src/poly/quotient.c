#include "poly/quotient.h"

#include <string.h>

#include "poly/ntt.h"
#include "util/parallel.h"

#define QUOTIENT_GRAIN 4096u

typedef struct quotient_ctx {
    fr_t *a;
    const fr_t *b, *c;
} quotient_ctx;

static void quotient_combine_chunk(void *arg, size_t begin, size_t end)
{
    const quotient_ctx *q = arg;
    for (size_t i = begin; i < end; i++) {
        fr_mul(&q->a[i], &q->a[i], &q->b[i]);
        fr_sub(&q->a[i], &q->a[i], &q->c[i]);
    }
}

/* Evaluations on the domain (natural) -> evaluations on s<w> (natural):
 * the inverse lands in bit-reversed order, so the shift and the 1/n are
 * applied there and the forward transform reads that order directly; no
 * permutation pass. */
static void quotient_to_coset(fr_t *x, size_t m, const domain_t *d, const fr_t *shift,
                              unsigned threads)
{
    if (m < d->n)
        memset(x + m, 0, (d->n - m) * sizeof(fr_t));
    ntt_raw_nr(x, d, NTT_INVERSE, threads);
    ntt_scale_powers(x, d->n, NTT_BIT_REVERSED, &d->n_inv, shift, threads);
    ntt_raw_rn(x, d, NTT_FORWARD, threads);
}

static cuzk_status quotient_shift(fr_t *shift, const domain_t *d, poly_h_coset coset)
{
    switch (coset) {
    case POLY_H_COSET_GENERATOR:
        *shift = d->shift;
        return CUZK_OK;
    case POLY_H_COSET_2N_ROOT:
        if (d->log_n >= DOMAIN_MAX_LOG)
            return CUZK_ERR_INVALID_ARGUMENT;
        *shift = d->omega_2n;
        return CUZK_OK;
    }
    return CUZK_ERR_INVALID_ARGUMENT;
}

cuzk_status poly_h_coset_evals(fr_t *a, fr_t *b, fr_t *c, size_t m, const domain_t *d,
                               poly_h_coset coset, unsigned threads)
{
    fr_t shift;
    if (m > d->n)
        return CUZK_ERR_INVALID_ARGUMENT;
    cuzk_status st = quotient_shift(&shift, d, coset);
    if (st != CUZK_OK)
        return st;
    quotient_to_coset(a, m, d, &shift, threads);
    quotient_to_coset(b, m, d, &shift, threads);
    quotient_to_coset(c, m, d, &shift, threads);
    quotient_ctx q = {.a = a, .b = b, .c = c};
    parallel_for(d->n, QUOTIENT_GRAIN, threads, quotient_combine_chunk, &q);
    return CUZK_OK;
}

cuzk_status poly_compute_h(fr_t *a, fr_t *b, fr_t *c, size_t m, const domain_t *d,
                           poly_h_coset coset, unsigned threads)
{
    cuzk_status st = poly_h_coset_evals(a, b, c, m, d, coset, threads);
    if (st != CUZK_OK)
        return st;
    fr_t shift, shift_inv, z, start;
    quotient_shift(&shift, d, coset);
    fr_inv_var(&shift_inv, &shift);
    /* Z on the coset: s^n - 1 (7^n - 1, or -2 for the 2n-th root). */
    z = shift;
    for (unsigned i = 0; i < d->log_n; i++)
        fr_sqr(&z, &z);
    fr_sub(&z, &z, &FR_ONE);
    fr_inv_var(&start, &z);
    fr_mul(&start, &start, &d->n_inv);
    /* Coset iNTT with 1/Z folded into the scaling pass. */
    ntt_raw_nr(a, d, NTT_INVERSE, threads);
    ntt_scale_powers(a, d->n, NTT_BIT_REVERSED, &start, &shift_inv, threads);
    ntt_bit_reverse(a, d->n, threads);
    return CUZK_OK;
}

bool poly_h_top_is_zero(const fr_t *h, const domain_t *d)
{
    return fr_is_zero(&h[d->n - 1]);
}
