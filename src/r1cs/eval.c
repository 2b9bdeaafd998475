/* Sparse matrix-vector products over the compiled system, satisfaction
 * check, and the structural validation every loaded system goes through.
 * The arithmetic is eval_impl.h, compiled over both curves' scalar fields;
 * the system's curve picks one. */
#include "r1cs/r1cs.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/scalar_slots.h"
#include "util/parallel.h"

/* Rows per work chunk: large enough to amortize the claim, small enough
 * that uneven rows (a 256-term packing row among 2-term rows) balance. */
#define EVAL_GRAIN 4096
#define EVAL_BLOCK 1024

void r1cs_set_msg(char *msg, size_t msg_len, const char *fmt, ...)
{
    if (!msg || msg_len == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msg_len, fmt, ap);
    va_end(ap);
}

void r1cs_free(r1cs_t *r)
{
    r1cs_matrix *ms[3] = {&r->a, &r->b, &r->c};
    for (int k = 0; k < 3; k++) {
        free(ms[k]->row_ptr);
        free(ms[k]->col);
        free(ms[k]->coeff);
    }
    free(r->coeffs);
    memset(r, 0, sizeof(*r));
}

/* How many nonzeros ahead to prefetch w[col[k]]: columns far from the row
 * (a tenth or so in PoRep-like systems) miss the cache, and a miss costs
 * more than the whole row's arithmetic. */
#define PREFETCH_AHEAD 32

/* Lowers *target to v when v is smaller (lock-free). */
static void atomic_min_u64(_Atomic uint64_t *target, uint64_t v)
{
    uint64_t cur = atomic_load_explicit(target, memory_order_relaxed);
    while (v < cur && !atomic_compare_exchange_weak_explicit(target, &cur, v, memory_order_relaxed,
                                                             memory_order_relaxed))
        ;
}

static inline const fr_t *bls12_381_slots(const fr_t *p)
{
    return p;
}

#define EV_(name) bls12_381_##name
#define EV_FE(name) fr_##name
#define EV_T fr_t
#define EV_ONE FR_ONE
#define EV_ZERO FR_ZERO
#define EV_SLOTS bls12_381_slots
#include "r1cs/eval_impl.h"

#define EV_(name) bn254_##name
#define EV_FE(name) bn254_fr_##name
#define EV_T bn254_fr_t
#define EV_ONE BN254_FR_ONE
#define EV_ZERO BN254_FR_ZERO
#define EV_SLOTS bn254_fr_slots_const
#include "r1cs/eval_impl.h"

void r1cs_eval_row(fr_t *out, const r1cs_t *r, const r1cs_matrix *m, uint64_t i, const fr_t *w)
{
    if (r->curve == CURVE_BN254)
        bn254_eval_row(bn254_fr_slots(out), r, m, i, bn254_fr_slots_const(w));
    else
        bls12_381_eval_row(out, r, m, i, w);
}

void r1cs_eval(const r1cs_t *r, const fr_t *w, fr_t *a, fr_t *b, fr_t *c, unsigned threads)
{
    if (r->curve == CURVE_BN254)
        bn254_eval(r, bn254_fr_slots_const(w), a ? bn254_fr_slots(a) : NULL,
                   b ? bn254_fr_slots(b) : NULL, c ? bn254_fr_slots(c) : NULL, threads);
    else
        bls12_381_eval(r, w, a, b, c, threads);
}

bool r1cs_is_satisfied(const r1cs_t *r, const fr_t *w, uint64_t *first_bad_row, unsigned threads)
{
    if (r->curve == CURVE_BN254)
        return bn254_is_satisfied(r, bn254_fr_slots_const(w), first_bad_row, threads);
    return bls12_381_is_satisfied(r, w, first_bad_row, threads);
}

/* --- validation --- */

typedef enum bad_kind {
    BAD_NONE = 0,
    BAD_ROW_PTR,   /* row pointer decreasing or past nnz */
    BAD_COLUMN,    /* column >= num_vars */
    BAD_ORDER,     /* columns not strictly increasing within the row */
    BAD_COEFF_IDX, /* coefficient index >= num_coeffs */
} bad_kind;

typedef struct validate_ctx {
    const r1cs_t *r;
    const r1cs_matrix *m;
    uint64_t num_vars;
    _Atomic uint64_t first_bad; /* row */
} validate_ctx;

static bad_kind validate_row(const validate_ctx *v, uint64_t i)
{
    const r1cs_matrix *m = v->m;
    uint64_t b = m->row_ptr[i], e = m->row_ptr[i + 1];
    if (b > e || e > m->nnz)
        return BAD_ROW_PTR;
    for (uint64_t k = b; k < e; k++) {
        if (m->col[k] >= v->num_vars)
            return BAD_COLUMN;
        if (k > b && m->col[k] <= m->col[k - 1])
            return BAD_ORDER;
        if (r1cs_coeff_at(v->r, m, k) >= v->r->num_coeffs)
            return BAD_COEFF_IDX;
    }
    return BAD_NONE;
}

/* Whether rows [begin, end) are all valid, by branch-free reductions the
 * compiler can vectorize (loading a large file runs this over every
 * nonzero). Row pointers are checked first, so the ranges are safe. */
static bool validate_fast(const validate_ctx *v, size_t begin, size_t end)
{
    const r1cs_matrix *m = v->m;
    const uint64_t *rp = m->row_ptr;
    const uint32_t *col = m->col;
    uint64_t lo = rp[begin], hi = rp[end];
    /* One pass over the row pointers: they are monotone and within nnz,
     * and (for the order check below) the descents col[s] <= col[s-1] at
     * the first entry s of each nonempty row are counted. The index is
     * clamped so that garbage pointers are never dereferenced. */
    uint64_t rp_bad = 0, at_starts = 0;
    for (size_t i = begin; i < end; i++) {
        uint64_t s = rp[i], e = rp[i + 1];
        rp_bad |= (s > e) | (e > m->nnz);
        bool counted = (s < e) & (s > lo) & (s < m->nnz);
        uint64_t sk = counted ? s : 1;
        at_starts += counted & (m->nnz > 1) && col[sk] <= col[sk - 1];
    }
    if (rp_bad)
        return false;
    /* Columns: in range, and strictly increasing within rows. A loop per
     * row mispredicts on short rows; instead count every descent in the
     * range: all of them must be the row-start ones counted above. */
    uint32_t max_col = lo < hi ? col[lo] : 0, max_coeff = 0;
    uint64_t descents = 0;
    for (uint64_t k = lo + 1; k < hi; k++) {
        max_col = col[k] > max_col ? col[k] : max_col;
        descents += col[k] <= col[k - 1];
    }
    if (v->r->coeff_width == 2) {
        const uint16_t *c = m->coeff;
        for (uint64_t k = lo; k < hi; k++)
            max_coeff = c[k] > max_coeff ? c[k] : max_coeff;
    } else {
        const uint32_t *c = m->coeff;
        for (uint64_t k = lo; k < hi; k++)
            max_coeff = c[k] > max_coeff ? c[k] : max_coeff;
    }
    return hi == lo ||
           (max_col < v->num_vars && max_coeff < v->r->num_coeffs && descents == at_starts);
}

static void validate_chunk(void *arg, size_t begin, size_t end)
{
    validate_ctx *v = arg;
    if (validate_fast(v, begin, end))
        return;
    /* Something is wrong here: find the first bad row for the message. */
    for (size_t i = begin; i < end; i++) {
        if (validate_row(v, i) != BAD_NONE) {
            atomic_min_u64(&v->first_bad, i);
            return;
        }
    }
}

cuzk_status r1cs_validate(const r1cs_t *r, unsigned threads, char *msg, size_t msg_len)
{
    if (r->num_inputs < 1) {
        r1cs_set_msg(msg, msg_len, "r1cs: no inputs (index 0 must be the constant ONE)");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (r->num_aux > (uint64_t)UINT32_MAX + 1 - r->num_inputs) {
        r1cs_set_msg(msg, msg_len, "r1cs: %llu variables do not fit 32-bit columns",
                     (unsigned long long)(r->num_inputs + r->num_aux));
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (r->coeff_width != 2 && r->coeff_width != 4) {
        r1cs_set_msg(msg, msg_len, "r1cs: coefficient index width %u (expected 2 or 4)",
                     r->coeff_width);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    int bad_sign = r->num_coeffs < 2 ? (int)R1CS_COEFF_ONE
                   : r->curve == CURVE_BN254 ? bn254_table_sign_error(r)
                                             : bls12_381_table_sign_error(r);
    if (bad_sign >= 0) {
        r1cs_set_msg(msg, msg_len, "r1cs: coefficient table entry %d is not %s", bad_sign,
                     bad_sign == (int)R1CS_COEFF_ONE ? "1" : "-1");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    for (uint64_t i = 2; i < r->num_coeffs; i++) {
        if (r->curve == CURVE_BN254 ? bn254_w_is_zero(&bn254_fr_slots_const(r->coeffs)[i])
                                    : bls12_381_w_is_zero(&r->coeffs[i])) {
            r1cs_set_msg(msg, msg_len, "r1cs: coefficient table entry %llu is zero",
                         (unsigned long long)i);
            return CUZK_ERR_INVALID_ARGUMENT;
        }
    }
    const r1cs_matrix *ms[3] = {&r->a, &r->b, &r->c};
    static const char names[3] = {'A', 'B', 'C'};
    for (int k = 0; k < 3; k++) {
        const r1cs_matrix *m = ms[k];
        if (m->row_ptr[0] != 0 || m->row_ptr[r->num_constraints] != m->nnz) {
            r1cs_set_msg(msg, msg_len, "r1cs: matrix %c row pointers do not span [0, nnz = %llu)",
                         names[k], (unsigned long long)m->nnz);
            return CUZK_ERR_INVALID_ARGUMENT;
        }
        validate_ctx v = {.r = r, .m = m, .num_vars = r1cs_num_vars(r)};
        atomic_init(&v.first_bad, R1CS_ROW_NONE);
        parallel_for((size_t)r->num_constraints, EVAL_GRAIN, threads, validate_chunk, &v);
        uint64_t row = atomic_load(&v.first_bad);
        if (row != R1CS_ROW_NONE) {
            static const char *what[] = {
                [BAD_ROW_PTR] = "row pointers decrease or pass nnz",
                [BAD_COLUMN] = "a column index is out of range",
                [BAD_ORDER] = "columns are not strictly increasing",
                [BAD_COEFF_IDX] = "a coefficient index is out of range",
            };
            bad_kind kind = validate_row(&v, row);
            r1cs_set_msg(msg, msg_len, "r1cs: matrix %c row %llu: %s", names[k],
                         (unsigned long long)row, what[kind]);
            return CUZK_ERR_INVALID_ARGUMENT;
        }
    }
    return CUZK_OK;
}

void r1cs_mul_rows(fr_t *c, const fr_t *a, const fr_t *b, uint64_t m, unsigned threads)
{
    bls12_381_mul_rows(c, a, b, m, threads);
}

void r1cs_mul_rows_over(curve_id curve, fr_t *c, const fr_t *a, const fr_t *b, uint64_t m,
                        unsigned threads)
{
    if (curve == CURVE_BN254)
        bn254_mul_rows(bn254_fr_slots(c), bn254_fr_slots_const(a), bn254_fr_slots_const(b), m,
                       threads);
    else
        bls12_381_mul_rows(c, a, b, m, threads);
}
