#include "r1cs/builder.h"

#include <stdlib.h>
#include <string.h>

#include "r1cs/coeff_table.h"
#include "util/parallel.h"

#define R1CS_MAX_PER_KIND ((uint64_t)R1CS_VAR_INDEX_MASK) /* handles use 31 bits */

/* One matrix under construction: CSR with handles as columns. */
typedef struct build_matrix {
    uint64_t *row_ptr;
    uint64_t rows_cap; /* entries of row_ptr */
    uint32_t *col;
    uint32_t *coeff;
    uint64_t nnz, nnz_cap;
} build_matrix;

struct r1cs_builder {
    unsigned flags;
    cuzk_status status;
    bool compiled;
    uint64_t num_inputs, num_aux, num_constraints;
    fr_t *input_vals, *aux_vals;
    uint64_t input_cap, aux_cap;
    /* A block (r1cs_builder_new_block): where it starts, where it must
     * stop, and values in the caller's w (input_vals and aux_vals point
     * into it, never grown nor freed). */
    bool block;
    uint64_t input_base, aux_base, input_end, aux_end;
    build_matrix m[3];
    coeff_table coeffs;
    fr_t minus_one;
};

/* Grows *p (elements of elem bytes) to hold at least need; doubling. */
static bool grow(void **p, uint64_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    uint64_t c = *cap ? *cap : 1024;
    while (c < need)
        c *= 2;
    if (c > SIZE_MAX / elem)
        return false;
    void *q = realloc(*p, (size_t)c * elem);
    if (!q)
        return false;
    *p = q;
    *cap = c;
    return true;
}

static cuzk_status fail(r1cs_builder *b, cuzk_status st)
{
    if (b->status == CUZK_OK)
        b->status = st;
    return b->status;
}

static bool flags_ok(unsigned flags)
{
    return (flags & (R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES)) != 0 &&
           (flags & ~(unsigned)(R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES)) == 0;
}

/* The constraint arrays and the coefficient table (SHAPE). */
static bool shape_init(r1cs_builder *b)
{
    if (coeff_table_init(&b->coeffs) != CUZK_OK)
        return false;
    for (int k = 0; k < 3; k++) {
        if (!grow((void **)&b->m[k].row_ptr, &b->m[k].rows_cap, 1, sizeof(uint64_t)))
            return false;
        b->m[k].row_ptr[0] = 0;
    }
    return true;
}

cuzk_status r1cs_builder_new_block(r1cs_builder **out, unsigned flags, const r1cs_block *block)
{
    *out = NULL;
    if (!flags_ok(flags) || !block || block->input_base < 1 ||
        block->input_base > R1CS_MAX_PER_KIND || block->inputs > R1CS_MAX_PER_KIND ||
        block->aux_base > R1CS_MAX_PER_KIND || block->aux > R1CS_MAX_PER_KIND)
        return CUZK_ERR_INVALID_ARGUMENT;
    uint64_t input_end = block->input_base + block->inputs, aux_end = block->aux_base + block->aux;
    if ((flags & R1CS_BUILD_VALUES) &&
        (!block->w || input_end > block->w_inputs || block->w_inputs > block->w_len ||
         aux_end > block->w_len - block->w_inputs))
        return CUZK_ERR_INVALID_ARGUMENT;
    r1cs_builder *b = calloc(1, sizeof(*b));
    if (!b)
        return CUZK_ERR_OUT_OF_MEMORY;
    b->flags = flags;
    b->block = true;
    fr_neg(&b->minus_one, &FR_ONE);
    b->num_inputs = b->input_base = block->input_base;
    b->num_aux = b->aux_base = block->aux_base;
    b->input_end = input_end > R1CS_MAX_PER_KIND ? R1CS_MAX_PER_KIND : input_end;
    b->aux_end = aux_end > R1CS_MAX_PER_KIND ? R1CS_MAX_PER_KIND : aux_end;
    if (flags & R1CS_BUILD_VALUES) {
        b->input_vals = block->w;
        b->aux_vals = block->w + block->w_inputs;
    }
    if ((flags & R1CS_BUILD_SHAPE) && !shape_init(b)) {
        r1cs_builder_free(b);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    *out = b;
    return CUZK_OK;
}

cuzk_status r1cs_builder_new(r1cs_builder **out, unsigned flags)
{
    *out = NULL;
    if (!flags_ok(flags))
        return CUZK_ERR_INVALID_ARGUMENT;
    r1cs_builder *b = calloc(1, sizeof(*b));
    if (!b)
        return CUZK_ERR_OUT_OF_MEMORY;
    b->flags = flags;
    fr_neg(&b->minus_one, &FR_ONE);
    b->input_end = b->aux_end = R1CS_MAX_PER_KIND;
    if ((flags & R1CS_BUILD_SHAPE) && !shape_init(b))
        goto oom;
    if (flags & R1CS_BUILD_VALUES) {
        if (!grow((void **)&b->input_vals, &b->input_cap, 1, sizeof(fr_t)))
            goto oom;
        b->input_vals[0] = FR_ONE;
    }
    b->num_inputs = 1;
    *out = b;
    return CUZK_OK;
oom:
    r1cs_builder_free(b);
    return CUZK_ERR_OUT_OF_MEMORY;
}

void r1cs_builder_free(r1cs_builder *b)
{
    if (!b)
        return;
    for (int k = 0; k < 3; k++) {
        free(b->m[k].row_ptr);
        free(b->m[k].col);
        free(b->m[k].coeff);
    }
    if (!b->block) {
        free(b->input_vals);
        free(b->aux_vals);
    }
    coeff_table_free(&b->coeffs);
    free(b);
}

cuzk_status r1cs_builder_status(const r1cs_builder *b)
{
    return b->status;
}

static cuzk_status alloc_var(r1cs_builder *b, r1cs_var *out, const fr_t *value, bool aux)
{
    *out = R1CS_ONE;
    if (b->status != CUZK_OK)
        return b->status;
    if (b->compiled)
        return fail(b, CUZK_ERR_INVALID_ARGUMENT);
    uint64_t *count = aux ? &b->num_aux : &b->num_inputs;
    if (*count >= (aux ? b->aux_end : b->input_end))
        /* a block past its slice is the caller's error; a whole system
         * past 2^31 - 1 of a kind is a limit of the handles */
        return fail(b, b->block ? CUZK_ERR_INVALID_ARGUMENT : CUZK_ERR_UNSUPPORTED);
    if (b->flags & R1CS_BUILD_VALUES) {
        if (!value)
            return fail(b, CUZK_ERR_INVALID_ARGUMENT);
        fr_t **vals = aux ? &b->aux_vals : &b->input_vals;
        uint64_t *cap = aux ? &b->aux_cap : &b->input_cap;
        if (!b->block && !grow((void **)vals, cap, *count + 1, sizeof(fr_t)))
            return fail(b, CUZK_ERR_OUT_OF_MEMORY);
        (*vals)[*count] = *value;
    }
    *out = (r1cs_var)*count | (aux ? R1CS_VAR_AUX : 0);
    (*count)++;
    return CUZK_OK;
}

cuzk_status r1cs_alloc_many(r1cs_builder *b, uint64_t n, bool aux)
{
    if (b->status != CUZK_OK)
        return b->status;
    if (b->compiled || (b->flags & R1CS_BUILD_VALUES))
        return fail(b, CUZK_ERR_INVALID_ARGUMENT);
    uint64_t *count = aux ? &b->num_aux : &b->num_inputs;
    if (n > (aux ? b->aux_end : b->input_end) - *count)
        return fail(b, b->block ? CUZK_ERR_INVALID_ARGUMENT : CUZK_ERR_UNSUPPORTED);
    *count += n;
    return CUZK_OK;
}

cuzk_status r1cs_alloc_input(r1cs_builder *b, r1cs_var *out, const fr_t *value)
{
    return alloc_var(b, out, value, false);
}

cuzk_status r1cs_alloc_aux(r1cs_builder *b, r1cs_var *out, const fr_t *value)
{
    return alloc_var(b, out, value, true);
}

/* Appends one normalized list as the next row of m. On failure the matrix
 * is left as it was (the row is not half-written). */
static cuzk_status append_row(r1cs_builder *b, build_matrix *m, const lc_t *lc)
{
    uint64_t row = b->num_constraints;
    if (!grow((void **)&m->row_ptr, &m->rows_cap, row + 2, sizeof(uint64_t)))
        return CUZK_ERR_OUT_OF_MEMORY;
    uint64_t cap = m->nnz_cap;
    if (!grow((void **)&m->col, &cap, m->nnz + lc->len, sizeof(uint32_t)))
        return CUZK_ERR_OUT_OF_MEMORY;
    cap = m->nnz_cap;
    if (!grow((void **)&m->coeff, &cap, m->nnz + lc->len, sizeof(uint32_t))) {
        /* col grew but coeff did not: keep nnz_cap as the smaller one. */
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    m->nnz_cap = cap;
    for (size_t i = 0; i < lc->len; i++) {
        const lc_term *t = &lc->terms[i];
        uint32_t idx;
        if (fr_is_one(&t->coeff)) {
            idx = R1CS_COEFF_ONE;
        } else if (fr_eq(&t->coeff, &b->minus_one)) {
            idx = R1CS_COEFF_MINUS_ONE;
        } else {
            cuzk_status st = coeff_table_intern(&b->coeffs, &idx, &t->coeff);
            if (st != CUZK_OK)
                return st; /* nnz not advanced yet: nothing to undo */
        }
        m->col[m->nnz + i] = t->var;
        m->coeff[m->nnz + i] = idx;
    }
    return CUZK_OK;
}

static bool lc_handles_ok(const r1cs_builder *b, const lc_t *lc)
{
    for (size_t i = 0; i < lc->len; i++) {
        r1cs_var v = lc->terms[i].var;
        uint64_t limit = r1cs_var_is_aux(v) ? b->num_aux : b->num_inputs;
        if (r1cs_var_index(v) >= limit)
            return false;
    }
    return true;
}

cuzk_status r1cs_enforce(r1cs_builder *b, lc_t *a, lc_t *bl, lc_t *c)
{
    if (b->status != CUZK_OK)
        return b->status;
    if (!(b->flags & R1CS_BUILD_SHAPE))
        return CUZK_OK; /* witness-only: the compiled matrices already exist */
    if (b->compiled)
        return fail(b, CUZK_ERR_INVALID_ARGUMENT);
    if (a->oom || bl->oom || c->oom)
        return fail(b, CUZK_ERR_OUT_OF_MEMORY);
    if (b->num_constraints >= UINT64_MAX - 2)
        return fail(b, CUZK_ERR_UNSUPPORTED);
    lc_t *lcs[3] = {a, bl, c};
    for (int k = 0; k < 3; k++) {
        lc_normalize(lcs[k]);
        if (!lc_handles_ok(b, lcs[k]))
            return fail(b, CUZK_ERR_INVALID_ARGUMENT);
    }
    /* Write all three rows, then commit the row pointers together, so a
     * failure leaves no partial constraint behind. */
    for (int k = 0; k < 3; k++) {
        cuzk_status st = append_row(b, &b->m[k], lcs[k]);
        if (st != CUZK_OK)
            return fail(b, st);
    }
    for (int k = 0; k < 3; k++) {
        build_matrix *m = &b->m[k];
        m->nnz += lcs[k]->len;
        m->row_ptr[b->num_constraints + 1] = m->nnz;
    }
    b->num_constraints++;
    return CUZK_OK;
}

cuzk_status r1cs_builder_enforce_input_rows(r1cs_builder *b)
{
    if (b->block)
        return fail(b, CUZK_ERR_INVALID_ARGUMENT);
    lc_t a, zero;
    lc_init(&a);
    lc_init(&zero);
    cuzk_status st = b->status;
    for (uint64_t i = 0; i < b->num_inputs && st == CUZK_OK; i++) {
        lc_clear(&a);
        lc_add_one_term(&a, (r1cs_var)i);
        st = r1cs_enforce(b, &a, &zero, &zero);
    }
    lc_free(&a);
    lc_free(&zero);
    return st;
}

/* Grows an array to exactly need elements (appending blocks knows the
 * final size, so doubling would only waste memory). */
static bool reserve_exact(void **p, uint64_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    if (need > SIZE_MAX / elem)
        return false;
    void *q = realloc(*p, (size_t)need * elem);
    if (!q)
        return false;
    *p = q;
    *cap = need;
    return true;
}

typedef struct append_ctx {
    r1cs_builder *dst;
    r1cs_builder *const *blocks;
    uint32_t *const *coeff_map; /* per block: its table index -> dst's */
    const uint64_t *row0;       /* per block: its first row in dst */
    const uint64_t *nnz0;       /* per block and matrix: its first entry in dst */
} append_ctx;

/* Copies blocks [begin, end) into their places in dst and frees their
 * arrays (so the memory of a block is given back as soon as it is in). */
static void append_chunk(void *ctx, size_t begin, size_t end)
{
    const append_ctx *a = ctx;
    for (size_t i = begin; i < end; i++) {
        r1cs_builder *blk = a->blocks[i];
        const uint32_t *restrict map = a->coeff_map[i];
        const uint64_t rows = blk->num_constraints;
        for (int k = 0; k < 3; k++) {
            build_matrix *src = &blk->m[k], *dst = &a->dst->m[k];
            const uint64_t nnz0 = a->nnz0[3 * i + (size_t)k], nnz = src->nnz;
            /* locals, so that the stores cannot be taken to change the
             * bounds or the sources (the loops vectorize) */
            uint64_t *restrict row_out = dst->row_ptr + a->row0[i] + 1;
            const uint64_t *restrict row_in = src->row_ptr + 1;
            uint32_t *restrict coeff_out = dst->coeff + nnz0;
            const uint32_t *restrict coeff_in = src->coeff;
            for (uint64_t r = 0; r < rows; r++)
                row_out[r] = nnz0 + row_in[r];
            if (nnz)
                memcpy(dst->col + nnz0, src->col, (size_t)nnz * sizeof(uint32_t));
            for (uint64_t j = 0; j < nnz; j++)
                coeff_out[j] = map[coeff_in[j]];
            free(src->row_ptr);
            free(src->col);
            free(src->coeff);
            memset(src, 0, sizeof(*src));
        }
    }
}

cuzk_status r1cs_builder_append(r1cs_builder *b, r1cs_builder *const *blocks, size_t n,
                                unsigned threads)
{
    if (b->status != CUZK_OK)
        return b->status;
    if (!(b->flags & R1CS_BUILD_SHAPE) || b->compiled || b->block || (n && !blocks))
        return fail(b, CUZK_ERR_INVALID_ARGUMENT);
    uint64_t inputs = b->num_inputs, aux = b->num_aux, rows = b->num_constraints;
    uint64_t nnz[3] = {b->m[0].nnz, b->m[1].nnz, b->m[2].nnz};
    for (size_t i = 0; i < n; i++) {
        const r1cs_builder *blk = blocks[i];
        if (!blk || blk == b || blk->status != CUZK_OK)
            return fail(b, blk && blk != b ? blk->status : CUZK_ERR_INVALID_ARGUMENT);
        if (!blk->block || !(blk->flags & R1CS_BUILD_SHAPE) || blk->compiled ||
            blk->input_base != inputs || blk->aux_base != aux)
            return fail(b, CUZK_ERR_INVALID_ARGUMENT);
        inputs = blk->num_inputs, aux = blk->num_aux, rows += blk->num_constraints;
        for (int k = 0; k < 3; k++)
            nnz[k] += blk->m[k].nnz;
    }
    if (rows >= UINT64_MAX - 2)
        return fail(b, CUZK_ERR_UNSUPPORTED);
    cuzk_status st = CUZK_OK;
    uint32_t **map = calloc(n + 1, sizeof(uint32_t *));
    uint64_t *row0 = malloc((n + 1) * sizeof(uint64_t));
    uint64_t *nnz0 = malloc((3 * n + 1) * sizeof(uint64_t));
    if (!map || !row0 || !nnz0) {
        st = CUZK_ERR_OUT_OF_MEMORY;
        goto out;
    }
    /* The table, block by block in order: the first-seen order of the
     * whole sequence, as one builder would have met the values. */
    for (size_t i = 0; i < n && st == CUZK_OK; i++) {
        const coeff_table *t = &blocks[i]->coeffs;
        if (!(map[i] = malloc((size_t)t->len * sizeof(uint32_t)))) {
            st = CUZK_ERR_OUT_OF_MEMORY;
            break;
        }
        map[i][R1CS_COEFF_ONE] = R1CS_COEFF_ONE;
        map[i][R1CS_COEFF_MINUS_ONE] = R1CS_COEFF_MINUS_ONE;
        for (uint64_t k = 2; k < t->len && st == CUZK_OK; k++)
            st = coeff_table_intern(&b->coeffs, &map[i][k], &t->vals[k]);
    }
    for (int k = 0; k < 3 && st == CUZK_OK; k++) {
        build_matrix *m = &b->m[k];
        uint64_t col_cap = m->nnz_cap, coeff_cap = m->nnz_cap;
        if (!reserve_exact((void **)&m->row_ptr, &m->rows_cap, rows + 1, sizeof(uint64_t)) ||
            !reserve_exact((void **)&m->col, &col_cap, nnz[k], sizeof(uint32_t)) ||
            !reserve_exact((void **)&m->coeff, &coeff_cap, nnz[k], sizeof(uint32_t)))
            st = CUZK_ERR_OUT_OF_MEMORY;
        else
            m->nnz_cap = col_cap < coeff_cap ? col_cap : coeff_cap;
    }
    if (st != CUZK_OK)
        goto out;
    uint64_t r = b->num_constraints, z[3] = {b->m[0].nnz, b->m[1].nnz, b->m[2].nnz};
    for (size_t i = 0; i < n; i++) {
        row0[i] = r;
        r += blocks[i]->num_constraints;
        for (int k = 0; k < 3; k++) {
            nnz0[3 * i + (size_t)k] = z[k];
            z[k] += blocks[i]->m[k].nnz;
        }
    }
    append_ctx ctx = {b, blocks, map, row0, nnz0};
    parallel_for(n, 1, threads, append_chunk, &ctx);
    for (size_t i = 0; i < n; i++)
        blocks[i]->compiled = true; /* moved out: accepts nothing more */
    for (int k = 0; k < 3; k++)
        b->m[k].nnz = nnz[k];
    b->num_inputs = inputs, b->num_aux = aux, b->num_constraints = rows;
out:
    if (map)
        for (size_t i = 0; i < n; i++)
            free(map[i]);
    free(map);
    free(row0);
    free(nnz0);
    return st == CUZK_OK ? CUZK_OK : fail(b, st);
}

uint64_t r1cs_builder_num_inputs(const r1cs_builder *b)
{
    return b->num_inputs;
}

uint64_t r1cs_builder_num_aux(const r1cs_builder *b)
{
    return b->num_aux;
}

uint64_t r1cs_builder_num_constraints(const r1cs_builder *b)
{
    return b->num_constraints;
}

const fr_t *r1cs_builder_value(const r1cs_builder *b, r1cs_var v)
{
    if (!(b->flags & R1CS_BUILD_VALUES))
        return NULL;
    uint32_t i = r1cs_var_index(v);
    if (r1cs_var_is_aux(v))
        return i < b->num_aux ? &b->aux_vals[i] : NULL;
    return i < b->num_inputs ? &b->input_vals[i] : NULL;
}

cuzk_status r1cs_builder_assignment(const r1cs_builder *b, fr_t *w, size_t n)
{
    if (b->status != CUZK_OK)
        return b->status;
    if (!(b->flags & R1CS_BUILD_VALUES) || b->block || n != b->num_inputs + b->num_aux)
        return CUZK_ERR_INVALID_ARGUMENT;
    memcpy(w, b->input_vals, (size_t)b->num_inputs * sizeof(fr_t));
    if (b->num_aux)
        memcpy(w + b->num_inputs, b->aux_vals, (size_t)b->num_aux * sizeof(fr_t));
    return CUZK_OK;
}

typedef struct renumber_ctx {
    uint32_t *col;
    uint32_t num_inputs;
} renumber_ctx;

static void renumber_chunk(void *ctx, size_t begin, size_t end)
{
    renumber_ctx *r = ctx;
    for (size_t k = begin; k < end; k++) {
        uint32_t v = r->col[k];
        /* aux j -> num_inputs + j; inputs keep their index */
        r->col[k] = (v & R1CS_VAR_INDEX_MASK) + ((v >> 31) ? r->num_inputs : 0);
    }
}

/* Shrinks an array to n elements; keeps the old block if realloc fails. */
static void *shrink(void *p, uint64_t n, size_t elem)
{
    void *q = realloc(p, (size_t)(n ? n : 1) * elem);
    return q ? q : p;
}

/* u32 -> u16 in the same block, so compiling needs no second copy of the
 * largest arrays. Front to back through a bounce buffer: the bytes written
 * ([0, 2(i+n))) never reach the bytes still to be read ([4(i+n), ...)), and
 * memcpy keeps the compiler's aliasing rules out of it. */
static void narrow_in_place(uint32_t *idx, uint64_t n)
{
    enum { BLOCK = 2048 };
    uint32_t wide[BLOCK];
    uint16_t narrow[BLOCK];
    unsigned char *bytes = (unsigned char *)idx;
    for (uint64_t i = 0; i < n; i += BLOCK) {
        size_t len = n - i < BLOCK ? (size_t)(n - i) : BLOCK;
        memcpy(wide, bytes + 4 * i, len * 4);
        for (size_t j = 0; j < len; j++)
            narrow[j] = (uint16_t)wide[j];
        memcpy(bytes + 2 * i, narrow, len * 2);
    }
}

cuzk_status r1cs_builder_compile(r1cs_t *out, r1cs_builder *b, unsigned threads)
{
    memset(out, 0, sizeof(*out));
    if (b->status != CUZK_OK)
        return b->status;
    if (!(b->flags & R1CS_BUILD_SHAPE) || b->compiled || b->block)
        return CUZK_ERR_INVALID_ARGUMENT;
    /* Columns are u32 in the compiled space: inputs + aux <= 2^32. Each kind
     * is below 2^31, so this always holds; kept as a guard. */
    if (b->num_inputs + b->num_aux > (uint64_t)UINT32_MAX + 1)
        return fail(b, CUZK_ERR_UNSUPPORTED);
    b->compiled = true;

    out->num_constraints = b->num_constraints;
    out->num_inputs = b->num_inputs;
    out->num_aux = b->num_aux;
    out->coeffs = coeff_table_take(&b->coeffs, &out->num_coeffs);
    out->coeff_width = out->num_coeffs <= 65536 ? 2 : 4;
    r1cs_matrix *dst[3] = {&out->a, &out->b, &out->c};
    for (int k = 0; k < 3; k++) {
        build_matrix *m = &b->m[k];
        renumber_ctx ctx = {.col = m->col, .num_inputs = (uint32_t)b->num_inputs};
        parallel_for(m->nnz, 1u << 16, threads, renumber_chunk, &ctx);
        if (out->coeff_width == 2) {
            narrow_in_place(m->coeff, m->nnz);
            dst[k]->coeff = shrink(m->coeff, m->nnz, sizeof(uint16_t));
        } else {
            dst[k]->coeff = shrink(m->coeff, m->nnz, sizeof(uint32_t));
        }
        dst[k]->row_ptr = shrink(m->row_ptr, b->num_constraints + 1, sizeof(uint64_t));
        dst[k]->col = shrink(m->col, m->nnz, sizeof(uint32_t));
        dst[k]->nnz = m->nnz;
        memset(m, 0, sizeof(*m));
    }
    return CUZK_OK;
}
