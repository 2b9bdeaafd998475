/* The Groth16 quotient (quotient.h) over one scalar field: a template that
 * quotient.c (BLS12-381's Fr) and bn254_quotient.c (BN254's) include once
 * each, after their field's _names.h (FE_ ...) and
 *   Q_(name)      the exported names (poly_##name)
 *   Q_NTT(name)   the field's NTT (ntt_##name)
 *   Q_DOMAIN_T    its domain type
 *   Q_MAX_LOG     its largest domain's log (the 2n-th root needs one more)
 * Everything but the Q_ functions is static. */
#include <string.h>

#include "util/parallel.h"

#define QUOTIENT_GRAIN 4096u

typedef struct quotient_ctx {
    FE_T *a;
    const FE_T *b, *c;
} quotient_ctx;

static void quotient_combine_chunk(void *arg, size_t begin, size_t end)
{
    const quotient_ctx *q = arg;
    for (size_t i = begin; i < end; i++) {
        FE_(mul)(&q->a[i], &q->a[i], &q->b[i]);
        FE_(sub)(&q->a[i], &q->a[i], &q->c[i]);
    }
}

/* Evaluations on the domain (natural) -> evaluations on s<w> (natural):
 * the inverse lands in bit-reversed order, so the shift and the 1/n are
 * applied there and the forward transform reads that order directly; no
 * permutation pass. */
static void quotient_to_coset(FE_T *x, size_t m, const Q_DOMAIN_T *d, const FE_T *shift,
                              unsigned threads)
{
    if (m < d->n)
        memset(x + m, 0, (d->n - m) * sizeof(FE_T));
    Q_NTT(raw_nr)(x, d, NTT_INVERSE, threads);
    Q_NTT(scale_powers)(x, d->n, NTT_BIT_REVERSED, &d->n_inv, shift, threads);
    Q_NTT(raw_rn)(x, d, NTT_FORWARD, threads);
}

static cuzk_status quotient_shift(FE_T *shift, const Q_DOMAIN_T *d, poly_h_coset coset)
{
    switch (coset) {
    case POLY_H_COSET_GENERATOR:
        *shift = d->shift;
        return CUZK_OK;
    case POLY_H_COSET_2N_ROOT:
        if (d->log_n >= Q_MAX_LOG)
            return CUZK_ERR_INVALID_ARGUMENT;
        *shift = d->omega_2n;
        return CUZK_OK;
    }
    return CUZK_ERR_INVALID_ARGUMENT;
}

cuzk_status Q_(h_coset_evals)(FE_T *a, FE_T *b, FE_T *c, size_t m, const Q_DOMAIN_T *d,
                              poly_h_coset coset, unsigned threads)
{
    FE_T shift;
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

cuzk_status Q_(compute_h)(FE_T *a, FE_T *b, FE_T *c, size_t m, const Q_DOMAIN_T *d,
                          poly_h_coset coset, unsigned threads)
{
    cuzk_status st = Q_(h_coset_evals)(a, b, c, m, d, coset, threads);
    if (st != CUZK_OK)
        return st;
    FE_T shift, shift_inv, z, start;
    quotient_shift(&shift, d, coset);
    FE_(inv_var)(&shift_inv, &shift);
    /* Z on the coset: s^n - 1 (7^n - 1, or -2 for the 2n-th root). */
    z = shift;
    for (unsigned i = 0; i < d->log_n; i++)
        FE_(sqr)(&z, &z);
    FE_(sub)(&z, &z, &FE_ONE);
    FE_(inv_var)(&start, &z);
    FE_(mul)(&start, &start, &d->n_inv);
    /* Coset iNTT with 1/Z folded into the scaling pass. */
    Q_NTT(raw_nr)(a, d, NTT_INVERSE, threads);
    Q_NTT(scale_powers)(a, d->n, NTT_BIT_REVERSED, &start, &shift_inv, threads);
    Q_NTT(bit_reverse)(a, d->n, threads);
    return CUZK_OK;
}

bool Q_(h_top_is_zero)(const FE_T *h, const Q_DOMAIN_T *d)
{
    return FE_(is_zero)(&h[d->n - 1]);
}
