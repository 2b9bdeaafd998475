#include "poly/domain.h"

#include <stdlib.h>
#include <string.h>

#include "util/parallel.h"

/* Twiddle levels at least this long are filled on several threads. */
#define DOMAIN_PARALLEL_GRAIN 4096u

void domain_root_of_unity_2_32(fr_t *root, domain_roots roots)
{
    /* t = (r - 1) / 2^32: r's low 32 bits are 0x00000001, so shifting r
     * right by 32 drops exactly the "- 1". */
    uint64_t t[FR_LIMBS];
    for (size_t i = 0; i < FR_LIMBS; i++) {
        uint64_t hi = i + 1 < FR_LIMBS ? FR_MODULUS[i + 1] : 0;
        t[i] = (FR_MODULUS[i] >> 32) | (hi << 32);
    }
    fr_t x;
    fr_from_u64(&x, roots == DOMAIN_ROOTS_SNARKJS ? 5 : 7);
    fr_pow_var(root, &x, t, FR_LIMBS);
}

void domain_root_of_unity(fr_t *root, unsigned log_n, domain_roots roots)
{
    domain_root_of_unity_2_32(root, roots);
    for (unsigned i = log_n; i < DOMAIN_MAX_LOG; i++)
        fr_sqr(root, root);
}

static fr_t *domain_alloc_table(size_t count)
{
    size_t bytes = count * sizeof(fr_t);
    bytes = (bytes + 63) & ~(size_t)63; /* aligned_alloc wants a multiple of the alignment */
    return aligned_alloc(64, bytes);
}

typedef struct domain_level_ctx {
    fr_t *table;
    const fr_t *step;
    size_t half;
} domain_level_ctx;

static void domain_level_chunk(void *arg, size_t begin, size_t end)
{
    domain_level_ctx *ctx = arg;
    for (size_t i = begin; i < end; i++)
        fr_mul(&ctx->table[ctx->half + i], &ctx->table[i], ctx->step);
}

/* table[i] = w^brv(i) for i < 2^(k-1), brv on k-1 bits. Built by doubling:
 * brv(2^j + i) = brv(i) + 2^(k-2-j) for i < 2^j, so
 * table[2^j + i] = table[i] * w^(2^(k-2-j)): one multiplication per entry,
 * sequential reads and writes. */
static void domain_fill_twiddles(fr_t *table, const fr_t *w, unsigned log_n, unsigned threads)
{
    if (log_n == 0)
        return;
    fr_t pow2[DOMAIN_MAX_LOG]; /* pow2[m] = w^(2^m) */
    pow2[0] = *w;
    for (unsigned m = 1; m + 1 < log_n; m++)
        fr_sqr(&pow2[m], &pow2[m - 1]);
    table[0] = FR_ONE;
    for (unsigned j = 0; j + 1 < log_n; j++) {
        domain_level_ctx ctx = {
            .table = table, .step = &pow2[log_n - 2 - j], .half = (size_t)1 << j};
        parallel_for(ctx.half, DOMAIN_PARALLEL_GRAIN, threads, domain_level_chunk, &ctx);
    }
}

cuzk_status domain_init_log(domain_t *d, unsigned log_n, domain_roots roots, unsigned threads)
{
    memset(d, 0, sizeof(*d));
    if (log_n > DOMAIN_MAX_LOG || (roots != DOMAIN_ROOTS_BELLMAN && roots != DOMAIN_ROOTS_SNARKJS))
        return CUZK_ERR_INVALID_ARGUMENT;
    d->log_n = log_n;
    d->n = (size_t)1 << log_n;
    d->roots = roots;

    domain_root_of_unity(&d->omega, log_n, roots);
    fr_inv_var(&d->omega_inv, &d->omega);
    fr_from_u64(&d->n_inv, (uint64_t)d->n);
    fr_inv_var(&d->n_inv, &d->n_inv);
    if (log_n < DOMAIN_MAX_LOG) {
        domain_root_of_unity(&d->omega_2n, log_n + 1, roots);
        fr_inv_var(&d->omega_2n_inv, &d->omega_2n);
    }

    /* bellman's divide_by_z_on_coset: Z(g w^i) = g^n (w^n)^i - 1 = g^n - 1. */
    fr_from_u64(&d->shift, 7);
    fr_inv_var(&d->shift_inv, &d->shift);
    d->z_coset = d->shift;
    for (unsigned i = 0; i < log_n; i++)
        fr_sqr(&d->z_coset, &d->z_coset);
    fr_sub(&d->z_coset, &d->z_coset, &FR_ONE);
    fr_inv_var(&d->z_coset_inv, &d->z_coset);

    size_t half = d->n / 2;
    if (half > 0) {
        if (half > SIZE_MAX / sizeof(fr_t))
            return CUZK_ERR_OUT_OF_MEMORY;
        d->tw = domain_alloc_table(half);
        d->tw_inv = domain_alloc_table(half);
        if (!d->tw || !d->tw_inv) {
            domain_free(d);
            return CUZK_ERR_OUT_OF_MEMORY;
        }
        domain_fill_twiddles(d->tw, &d->omega, log_n, threads);
        domain_fill_twiddles(d->tw_inv, &d->omega_inv, log_n, threads);
    }
    return CUZK_OK;
}

cuzk_status domain_init(domain_t *d, size_t min_size, domain_roots roots, unsigned threads)
{
    unsigned log_n = 0;
    while (log_n < DOMAIN_MAX_LOG && ((size_t)1 << log_n) < min_size)
        log_n++;
    if (((size_t)1 << log_n) < min_size) {
        memset(d, 0, sizeof(*d));
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    return domain_init_log(d, log_n, roots, threads);
}

void domain_free(domain_t *d)
{
    free(d->tw);
    free(d->tw_inv);
    d->tw = NULL;
    d->tw_inv = NULL;
}
