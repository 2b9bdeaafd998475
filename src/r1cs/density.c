#include "r1cs/density.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "util/parallel.h"

/* The bitmap is marked from all threads at once through atomic ORs on its
 * words; afterwards it is read as plain uint64_t. That needs lock-free
 * 64-bit atomics of the same size as the plain type. */
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "64-bit atomics must be lock-free");
_Static_assert(sizeof(_Atomic uint64_t) == sizeof(uint64_t), "atomic word layout");

typedef struct mark_ctx {
    const uint32_t *col;
    _Atomic uint64_t *bits; /* over the whole variable space */
} mark_ctx;

static void mark_chunk(void *arg, size_t begin, size_t end)
{
    mark_ctx *m = arg;
    for (size_t k = begin; k < end; k++) {
        uint32_t c = m->col[k];
        uint64_t bit = 1ull << (c & 63);
        _Atomic uint64_t *word = &m->bits[c >> 6];
        /* Most variables appear in a few rows, mostly nearby: a plain load
         * first skips the locked OR when the bit is already set. */
        if (!(atomic_load_explicit(word, memory_order_relaxed) & bit))
            atomic_fetch_or_explicit(word, bit, memory_order_relaxed);
    }
}

/* Marks every column of m in a fresh bitmap over all variables. */
static uint64_t *mark_columns(const r1cs_matrix *m, uint64_t num_vars, unsigned threads)
{
    size_t words = (size_t)((num_vars + 63) / 64);
    _Atomic uint64_t *bits = calloc(words ? words : 1, sizeof(uint64_t));
    if (!bits)
        return NULL;
    mark_ctx ctx = {.col = m->col, .bits = bits};
    parallel_for((size_t)m->nnz, 1u << 16, threads, mark_chunk, &ctx);
    return (uint64_t *)bits;
}

/* dst (n bits) = src bits [from, from + n). */
static void extract_bits(uint64_t *dst, const uint64_t *src, uint64_t from, uint64_t n)
{
    uint64_t words = (n + 63) / 64;
    unsigned shift = (unsigned)(from & 63);
    const uint64_t *s = src + (from >> 6);
    uint64_t src_words = (from + n + 63) / 64 - (from >> 6);
    for (uint64_t i = 0; i < words; i++) {
        uint64_t lo = s[i] >> shift;
        uint64_t hi = (shift && i + 1 < src_words) ? s[i + 1] << (64 - shift) : 0;
        dst[i] = lo | hi;
    }
    if (n & 63)
        dst[words - 1] &= (1ull << (n & 63)) - 1;
}

static uint64_t popcount_bits(const uint64_t *bits, uint64_t n)
{
    uint64_t total = 0;
    for (uint64_t i = 0; i < (n + 63) / 64; i++)
        total += (uint64_t)__builtin_popcountll(bits[i]);
    return total;
}

void r1cs_density_free(r1cs_density_t *d)
{
    free(d->a_aux);
    free(d->b_input);
    free(d->b_aux);
    memset(d, 0, sizeof(*d));
}

cuzk_status r1cs_density(r1cs_density_t *out, const r1cs_t *r, unsigned threads)
{
    memset(out, 0, sizeof(*out));
    out->num_inputs = r->num_inputs;
    out->num_aux = r->num_aux;
    uint64_t num_vars = r1cs_num_vars(r);
    size_t aux_words = (size_t)((r->num_aux + 63) / 64);
    size_t in_words = (size_t)((r->num_inputs + 63) / 64);
    out->a_aux = calloc(aux_words ? aux_words : 1, sizeof(uint64_t));
    out->b_aux = calloc(aux_words ? aux_words : 1, sizeof(uint64_t));
    out->b_input = calloc(in_words ? in_words : 1, sizeof(uint64_t));
    uint64_t *all_a = NULL, *all_b = NULL;
    if (!out->a_aux || !out->b_aux || !out->b_input)
        goto oom;
    /* One matrix at a time keeps the peak at one full-space bitmap. */
    all_a = mark_columns(&r->a, num_vars, threads);
    if (!all_a)
        goto oom;
    extract_bits(out->a_aux, all_a, r->num_inputs, r->num_aux);
    free(all_a);
    all_b = mark_columns(&r->b, num_vars, threads);
    if (!all_b)
        goto oom;
    extract_bits(out->b_input, all_b, 0, r->num_inputs);
    extract_bits(out->b_aux, all_b, r->num_inputs, r->num_aux);
    free(all_b);
    out->a_aux_count = popcount_bits(out->a_aux, r->num_aux);
    out->b_input_count = popcount_bits(out->b_input, r->num_inputs);
    out->b_aux_count = popcount_bits(out->b_aux, r->num_aux);
    return CUZK_OK;
oom:
    r1cs_density_free(out);
    return CUZK_ERR_OUT_OF_MEMORY;
}
