/* The field arithmetic of the constraint-system evaluation (eval.c): the
 * row products, a = A·w and its siblings, the satisfaction check and the
 * row-wise product, compiled once per scalar field. No include guard:
 * eval.c includes it once per field after defining
 *   EV_(name)    the (static) names: bls12_381_##name
 *   EV_FE(name)  the field's functions: fr_##name
 *   EV_T, EV_ONE, EV_ZERO   its element type and constants
 *   EV_SLOTS(p)  the field's view of an fr_t slot array (field/scalar_slots.h)
 * and undefines them after. */

/* Inline tests on the reduced Montgomery representation (unique, so limb
 * comparison is equality): these run once per nonzero, where a call into
 * the field's code for the test would cost as much as the addition it
 * saves. */
static inline bool EV_(w_is_zero)(const EV_T *x)
{
    return (x->l[0] | x->l[1] | x->l[2] | x->l[3]) == 0;
}

static inline bool EV_(w_is_one)(const EV_T *x)
{
    return ((x->l[0] ^ EV_ONE.l[0]) | (x->l[1] ^ EV_ONE.l[1]) | (x->l[2] ^ EV_ONE.l[2]) |
            (x->l[3] ^ EV_ONE.l[3])) == 0;
}

/* Σ over [begin, end) of table[coeff[k]] · w[col[k]]. `width` is a
 * constant at every call site, so each width gets its own loop. `limit` is
 * the matrix nnz, the bound for prefetching. */
static inline void EV_(row_dot)(EV_T *out, const uint32_t *col, const void *coeff, unsigned width,
                                uint64_t begin, uint64_t end, uint64_t limit, const EV_T *w,
                                const EV_T *table)
{
    EV_T acc, prod;
    bool empty = true; /* the first term is copied, not added to zero */
    for (uint64_t k = begin; k < end; k++) {
        if (k + PREFETCH_AHEAD < limit)
            __builtin_prefetch(&w[col[k + PREFETCH_AHEAD]]);
        const EV_T *x = &w[col[k]];
        if (EV_(w_is_zero)(x))
            continue;
        uint32_t ci = width == 2 ? ((const uint16_t *)coeff)[k] : ((const uint32_t *)coeff)[k];
        const EV_T *term;
        if (ci == R1CS_COEFF_ONE) {
            term = x;
        } else if (ci == R1CS_COEFF_MINUS_ONE) {
            if (empty) {
                EV_FE(neg)(&acc, x);
                empty = false;
            } else {
                EV_FE(sub)(&acc, &acc, x);
            }
            continue;
        } else if (EV_(w_is_one)(x)) {
            term = &table[ci];
        } else {
            EV_FE(mul)(&prod, &table[ci], x);
            term = &prod;
        }
        if (empty) {
            acc = *term;
            empty = false;
        } else {
            EV_FE(add)(&acc, &acc, term);
        }
    }
    *out = empty ? EV_ZERO : acc;
}

static void EV_(eval_row)(EV_T *out, const r1cs_t *r, const r1cs_matrix *m, uint64_t i,
                          const EV_T *w)
{
    const EV_T *table = EV_SLOTS(r->coeffs);
    if (r->coeff_width == 2)
        EV_(row_dot)(out, m->col, m->coeff, 2, m->row_ptr[i], m->row_ptr[i + 1], m->nnz, w, table);
    else
        EV_(row_dot)(out, m->col, m->coeff, 4, m->row_ptr[i], m->row_ptr[i + 1], m->nnz, w, table);
}

static void EV_(matrix_rows)(EV_T *out, const r1cs_t *r, const r1cs_matrix *m, const EV_T *w,
                             size_t begin, size_t end)
{
    const uint64_t *rp = m->row_ptr;
    const EV_T *table = EV_SLOTS(r->coeffs);
    if (r->coeff_width == 2) {
        for (size_t i = begin; i < end; i++)
            EV_(row_dot)(&out[i], m->col, m->coeff, 2, rp[i], rp[i + 1], m->nnz, w, table);
    } else {
        for (size_t i = begin; i < end; i++)
            EV_(row_dot)(&out[i], m->col, m->coeff, 4, rp[i], rp[i + 1], m->nnz, w, table);
    }
}

typedef struct EV_(eval_ctx) {
    const r1cs_t *r;
    const EV_T *w;
    EV_T *out[3];
} EV_(eval_ctx);

static void EV_(eval_chunk)(void *arg, size_t begin, size_t end)
{
    EV_(eval_ctx) *e = arg;
    const r1cs_matrix *ms[3] = {&e->r->a, &e->r->b, &e->r->c};
    /* The three matrices of a row range read the same part of w (columns
     * sit near the row's own variables): blocks of rows keep it in cache
     * between A, B and C. */
    for (size_t lo = begin; lo < end; lo += EVAL_BLOCK) {
        size_t hi = end - lo < EVAL_BLOCK ? end : lo + EVAL_BLOCK;
        for (int k = 0; k < 3; k++)
            if (e->out[k])
                EV_(matrix_rows)(e->out[k], e->r, ms[k], e->w, lo, hi);
    }
}

static void EV_(eval)(const r1cs_t *r, const EV_T *w, EV_T *a, EV_T *b, EV_T *c, unsigned threads)
{
    EV_(eval_ctx) e = {.r = r, .w = w, .out = {a, b, c}};
    parallel_for((size_t)r->num_constraints, EVAL_GRAIN, threads, EV_(eval_chunk), &e);
}

typedef struct EV_(sat_ctx) {
    const r1cs_t *r;
    const EV_T *w;
    _Atomic uint64_t first_bad;
} EV_(sat_ctx);

static void EV_(sat_chunk)(void *arg, size_t begin, size_t end)
{
    EV_(sat_ctx) *s = arg;
    /* A failure already found below this chunk makes it irrelevant. */
    if (atomic_load_explicit(&s->first_bad, memory_order_relaxed) < begin)
        return;
    EV_T a, b, c, ab;
    for (size_t i = begin; i < end; i++) {
        EV_(eval_row)(&a, s->r, &s->r->a, i, s->w);
        EV_(eval_row)(&b, s->r, &s->r->b, i, s->w);
        EV_(eval_row)(&c, s->r, &s->r->c, i, s->w);
        EV_FE(mul)(&ab, &a, &b);
        if (!EV_FE(eq)(&ab, &c)) {
            atomic_min_u64(&s->first_bad, i);
            return;
        }
    }
}

static bool EV_(is_satisfied)(const r1cs_t *r, const EV_T *w, uint64_t *first_bad_row,
                              unsigned threads)
{
    if (first_bad_row)
        *first_bad_row = R1CS_ROW_NONE;
    if (!EV_(w_is_one)(&w[0]))
        return false;
    EV_(sat_ctx) s = {.r = r, .w = w};
    atomic_init(&s.first_bad, R1CS_ROW_NONE);
    parallel_for((size_t)r->num_constraints, EVAL_GRAIN, threads, EV_(sat_chunk), &s);
    uint64_t bad = atomic_load(&s.first_bad);
    if (first_bad_row)
        *first_bad_row = bad;
    return bad == R1CS_ROW_NONE;
}

typedef struct EV_(mul_rows_job) {
    EV_T *c;
    const EV_T *a, *b;
} EV_(mul_rows_job);

static void EV_(mul_rows_chunk)(void *ctx, size_t begin, size_t end)
{
    const EV_(mul_rows_job) *j = ctx;
    for (size_t i = begin; i < end; i++)
        EV_FE(mul)(&j->c[i], &j->a[i], &j->b[i]);
}

static void EV_(mul_rows)(EV_T *c, const EV_T *a, const EV_T *b, uint64_t m, unsigned threads)
{
    EV_(mul_rows_job) j = {c, a, b};
    parallel_for(m, EVAL_GRAIN, threads, EV_(mul_rows_chunk), &j);
}

/* The first of the table's entries 0 and 1 that is not +1, −1 in this
 * field, or −1 when both are. */
static int EV_(table_sign_error)(const r1cs_t *r)
{
    const EV_T *table = EV_SLOTS(r->coeffs);
    EV_T minus_one;
    EV_FE(neg)(&minus_one, &EV_ONE);
    if (!EV_FE(is_one)(&table[R1CS_COEFF_ONE]))
        return (int)R1CS_COEFF_ONE;
    return EV_FE(eq)(&table[R1CS_COEFF_MINUS_ONE], &minus_one) ? -1 : (int)R1CS_COEFF_MINUS_ONE;
}

#undef EV_
#undef EV_FE
#undef EV_T
#undef EV_ONE
#undef EV_ZERO
#undef EV_SLOTS
