/* Evaluation domains (domain.h) of one scalar field: a template that
 * domain.c (BLS12-381's Fr) and bn254_domain.c (BN254's) include once each,
 * after their field's _names.h (FE_ ...) and
 *   DOM_(name)   the names (domain_##name; the type DOM_(t))
 *   DOM_MAX_LOG  the field's two-adicity (< 64)
 * Everything but the DOM_ functions is static. */
#include <stdlib.h>
#include <string.h>

#include "util/parallel.h"

/* Twiddle levels at least this long are filled on several threads. */
#define DOMAIN_PARALLEL_GRAIN 4096u

void DOM_(root_of_unity_max)(FE_T *root, domain_roots roots)
{
    /* t = (r - 1) / 2^s, s = DOM_MAX_LOG < 64: r's low s bits are 0...01,
     * so shifting r right by s drops exactly the "- 1". */
    uint64_t t[FE_LIMBS];
    for (size_t i = 0; i < FE_LIMBS; i++) {
        uint64_t hi = i + 1 < FE_LIMBS ? FE_MODULUS[i + 1] : 0;
        t[i] = (FE_MODULUS[i] >> DOM_MAX_LOG) | (hi << (64 - DOM_MAX_LOG));
    }
    FE_T x;
    FE_(from_u64)(&x, roots == DOMAIN_ROOTS_SNARKJS ? 5 : 7);
    FE_(pow_var)(root, &x, t, FE_LIMBS);
}

void DOM_(root_of_unity)(FE_T *root, unsigned log_n, domain_roots roots)
{
    DOM_(root_of_unity_max)(root, roots);
    for (unsigned i = log_n; i < DOM_MAX_LOG; i++)
        FE_(sqr)(root, root);
}

static FE_T *domain_alloc_table(size_t count)
{
    size_t bytes = count * sizeof(FE_T);
    bytes = (bytes + 63) & ~(size_t)63; /* aligned_alloc wants a multiple of the alignment */
    return aligned_alloc(64, bytes);
}

typedef struct domain_level_ctx {
    FE_T *table;
    const FE_T *step;
    size_t half;
} domain_level_ctx;

static void domain_level_chunk(void *arg, size_t begin, size_t end)
{
    domain_level_ctx *ctx = arg;
    for (size_t i = begin; i < end; i++)
        FE_(mul)(&ctx->table[ctx->half + i], &ctx->table[i], ctx->step);
}

/* table[i] = w^brv(i) for i < 2^(k-1), brv on k-1 bits. Built by doubling:
 * brv(2^j + i) = brv(i) + 2^(k-2-j) for i < 2^j, so
 * table[2^j + i] = table[i] * w^(2^(k-2-j)): one multiplication per entry,
 * sequential reads and writes. */
static void domain_fill_twiddles(FE_T *table, const FE_T *w, unsigned log_n, unsigned threads)
{
    if (log_n == 0)
        return;
    FE_T pow2[DOM_MAX_LOG]; /* pow2[m] = w^(2^m) */
    pow2[0] = *w;
    for (unsigned m = 1; m + 1 < log_n; m++)
        FE_(sqr)(&pow2[m], &pow2[m - 1]);
    table[0] = FE_ONE;
    for (unsigned j = 0; j + 1 < log_n; j++) {
        domain_level_ctx ctx = {
            .table = table, .step = &pow2[log_n - 2 - j], .half = (size_t)1 << j};
        parallel_for(ctx.half, DOMAIN_PARALLEL_GRAIN, threads, domain_level_chunk, &ctx);
    }
}

cuzk_status DOM_(init_log)(DOM_(t) * d, unsigned log_n, domain_roots roots, unsigned threads)
{
    memset(d, 0, sizeof(*d));
    if (log_n > DOM_MAX_LOG || (roots != DOMAIN_ROOTS_BELLMAN && roots != DOMAIN_ROOTS_SNARKJS))
        return CUZK_ERR_INVALID_ARGUMENT;
    d->log_n = log_n;
    d->n = (size_t)1 << log_n;
    d->roots = roots;

    DOM_(root_of_unity)(&d->omega, log_n, roots);
    FE_(inv_var)(&d->omega_inv, &d->omega);
    FE_(from_u64)(&d->n_inv, (uint64_t)d->n);
    FE_(inv_var)(&d->n_inv, &d->n_inv);
    if (log_n < DOM_MAX_LOG) {
        DOM_(root_of_unity)(&d->omega_2n, log_n + 1, roots);
        FE_(inv_var)(&d->omega_2n_inv, &d->omega_2n);
    }

    /* bellman's divide_by_z_on_coset: Z(g w^i) = g^n (w^n)^i - 1 = g^n - 1. */
    FE_(from_u64)(&d->shift, 7);
    FE_(inv_var)(&d->shift_inv, &d->shift);
    d->z_coset = d->shift;
    for (unsigned i = 0; i < log_n; i++)
        FE_(sqr)(&d->z_coset, &d->z_coset);
    FE_(sub)(&d->z_coset, &d->z_coset, &FE_ONE);
    FE_(inv_var)(&d->z_coset_inv, &d->z_coset);

    size_t half = d->n / 2;
    if (half > 0) {
        if (half > SIZE_MAX / sizeof(FE_T))
            return CUZK_ERR_OUT_OF_MEMORY;
        d->tw = domain_alloc_table(half);
        d->tw_inv = domain_alloc_table(half);
        if (!d->tw || !d->tw_inv) {
            DOM_(free)(d);
            return CUZK_ERR_OUT_OF_MEMORY;
        }
        domain_fill_twiddles(d->tw, &d->omega, log_n, threads);
        domain_fill_twiddles(d->tw_inv, &d->omega_inv, log_n, threads);
    }
    return CUZK_OK;
}

cuzk_status DOM_(init)(DOM_(t) * d, size_t min_size, domain_roots roots, unsigned threads)
{
    unsigned log_n = 0;
    while (log_n < DOM_MAX_LOG && ((size_t)1 << log_n) < min_size)
        log_n++;
    if (((size_t)1 << log_n) < min_size) {
        memset(d, 0, sizeof(*d));
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    return DOM_(init_log)(d, log_n, roots, threads);
}

void DOM_(free)(DOM_(t) * d)
{
    free(d->tw);
    free(d->tw_inv);
    d->tw = NULL;
    d->tw_inv = NULL;
}
