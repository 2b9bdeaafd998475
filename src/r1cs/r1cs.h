#ifndef CUZK_R1CS_R1CS_H
#define CUZK_R1CS_R1CS_H

/* A compiled rank-1 constraint system: for every row i,
 *   (A·w)_i · (B·w)_i = (C·w)_i
 * with w = [1, public inputs..., aux (private) variables...].
 *
 * The matrices are stored once per circuit (the "precompiled constraints"
 * approach: per proof only w changes, and a = A·w etc. are sparse
 * matrix-vector products). At PoRep scale (130M rows, ~5.6 nonzeros per row
 * over the three matrices) the layout is what decides memory, so:
 *  - columns are u32 (at most 2^32 variables);
 *  - coefficients are indices into one per-system table of distinct Fr
 *    values, 2 bytes wide when the table has at most 65,536 entries (the
 *    usual case: coefficients are ±1 and powers of two), else 4 bytes;
 *  - row pointers are u64, since the nonzero count of one matrix may pass
 *    2^32 on larger circuits.
 * Within a row, columns are strictly increasing (duplicates were merged and
 * zero coefficients dropped when the constraint was enforced).
 *
 * Table entries 0 and 1 are always +1 and -1: evaluation adds or subtracts
 * instead of multiplying for them.
 *
 * A system is over the scalar field of its curve (r1cs_t.curve): BLS12-381
 * (the zero value, every system the builder makes) or BN254 (a snarkjs key
 * of circom's default curve). Over BN254 the coefficient table and every w,
 * a, b, c passed here hold BN254's elements in fr_t slots
 * (field/scalar_slots.h). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "curve/curve_id.h"
#include "field/fr.h"

#define R1CS_COEFF_ONE 0u       /* table index of +1 */
#define R1CS_COEFF_MINUS_ONE 1u /* table index of -1 */
#define R1CS_ROW_NONE UINT64_MAX

typedef struct r1cs_matrix {
    uint64_t *row_ptr; /* num_constraints + 1 entries; row i is [row_ptr[i], row_ptr[i+1]) */
    uint32_t *col;     /* nnz column indices into w */
    void *coeff;       /* nnz table indices: uint16_t or uint32_t (r1cs_t.coeff_width) */
    uint64_t nnz;
} r1cs_matrix;

typedef struct r1cs {
    curve_id curve; /* whose scalar field: CURVE_BLS12_381 unless made over BN254 */
    uint64_t num_constraints;
    uint64_t num_inputs; /* including the constant ONE at index 0 */
    uint64_t num_aux;
    r1cs_matrix a, b, c;
    fr_t *coeffs;         /* the table of distinct coefficients, Montgomery form */
    uint64_t num_coeffs;  /* >= 2 */
    unsigned coeff_width; /* bytes per coefficient index: 2 or 4 */
} r1cs_t;

/* Total variables: the length of w. */
static inline uint64_t r1cs_num_vars(const r1cs_t *r)
{
    return r->num_inputs + r->num_aux;
}

/* Coefficient index k of a matrix. */
static inline uint32_t r1cs_coeff_at(const r1cs_t *r, const r1cs_matrix *m, uint64_t k)
{
    return r->coeff_width == 2 ? ((const uint16_t *)m->coeff)[k] : ((const uint32_t *)m->coeff)[k];
}

/* One nonzero of a matrix by its coordinates, as key files store them. */
typedef struct r1cs_entry {
    uint32_t matrix; /* 0 = A, 1 = B, 2 = C */
    uint32_t row;
    uint32_t col; /* the variable */
    fr_t value;   /* Montgomery form, of the system's field (a BN254 value in an fr_t slot) */
} r1cs_entry;

/* The compiled system of `rows` rows from entries in any order: each row
 * sorted by column, entries at the same place summed, zeros dropped.
 * CUZK_ERR_INVALID_ARGUMENT (msg names the entry) for an entry outside
 * the rows, the variables or the three matrices. */
cuzk_status r1cs_from_entries(r1cs_t *out, const r1cs_entry *entries, uint64_t n, uint64_t rows,
                              uint64_t num_inputs, uint64_t num_aux, char *msg, size_t msg_len);
/* The same over the scalar field of curve (r1cs_from_entries: BLS12-381). */
cuzk_status r1cs_from_entries_over(r1cs_t *out, curve_id curve, const r1cs_entry *entries,
                                   uint64_t n, uint64_t rows, uint64_t num_inputs,
                                   uint64_t num_aux, char *msg, size_t msg_len);

/* Frees the arrays and zeroes *r (safe on a zeroed or already freed r1cs_t). */
void r1cs_free(r1cs_t *r);

/* Checks every structural invariant above (row pointers monotone and
 * consistent with nnz, columns in range and strictly increasing per row,
 * coefficient indices in range, table entries 0/1 equal to +1/-1, no zero
 * entry). Returns CUZK_OK or CUZK_ERR_INVALID_ARGUMENT with a message in
 * msg (when msg is not NULL). Multi-threaded over rows. */
cuzk_status r1cs_validate(const r1cs_t *r, unsigned threads, char *msg, size_t msg_len);

/* a = A·w, b = B·w, c = C·w, each of length num_constraints; w has
 * r1cs_num_vars() entries with w[0] = 1. Any of a, b, c may be NULL to skip
 * that product. Rows are split across `threads` threads (0: all CPUs).
 * Fast paths: witness values 0 and 1 and coefficients ±1 cost an addition
 * or nothing instead of a multiplication. */
void r1cs_eval(const r1cs_t *r, const fr_t *w, fr_t *a, fr_t *b, fr_t *c, unsigned threads);

/* c_i = a_i·b_i for i < m, on `threads` threads: c for systems whose C is
 * defined as the product (snarkjs keys). */
void r1cs_mul_rows(fr_t *c, const fr_t *a, const fr_t *b, uint64_t m, unsigned threads);
/* The same over the scalar field of curve (r1cs_mul_rows: BLS12-381). */
void r1cs_mul_rows_over(curve_id curve, fr_t *c, const fr_t *a, const fr_t *b, uint64_t m,
                        unsigned threads);

/* One row of one matrix: out = Σ coeff·w over row i. */
void r1cs_eval_row(fr_t *out, const r1cs_t *r, const r1cs_matrix *m, uint64_t i, const fr_t *w);

/* Whether w satisfies every constraint. On false, *first_bad_row (when not
 * NULL) is the lowest failing row, or R1CS_ROW_NONE when w[0] is not 1.
 * On true it is R1CS_ROW_NONE. Needs no n-sized scratch. */
bool r1cs_is_satisfied(const r1cs_t *r, const fr_t *w, uint64_t *first_bad_row, unsigned threads);

/* Writes a formatted message into msg (when not NULL); used by the layer's
 * error paths. */
void r1cs_set_msg(char *msg, size_t msg_len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
