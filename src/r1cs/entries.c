/* A constraint system from coordinate entries (matrix, row, column, value),
 * the form key files store their matrices in (a snarkjs key's coefficient
 * section): counted into rows, sorted by column, duplicates summed and
 * zeros dropped, values interned into the coefficient table. */
#include <stdlib.h>
#include <string.h>

#include "field/scalar_slots.h"
#include "r1cs/coeff_table.h"
#include "r1cs/r1cs.h"

typedef struct row_term {
    uint32_t col;
    fr_t value;
} row_term;

static int term_cmp(const void *a, const void *b)
{
    uint32_t x = ((const row_term *)a)->col, y = ((const row_term *)b)->col;
    return x < y ? -1 : x > y;
}

/* x += y in curve's scalar field (the values in fr_t slots). */
static void slot_add(curve_id curve, fr_t *x, const fr_t *y)
{
    if (curve == CURVE_BN254)
        bn254_fr_add(bn254_fr_slots(x), bn254_fr_slots_const(x), bn254_fr_slots_const(y));
    else
        fr_add(x, x, y);
}

/* One matrix: its entries bucketed by row, then each row sorted and
 * merged in place, then interned. */
static cuzk_status build_matrix(r1cs_matrix *m, coeff_table *table, curve_id curve,
                                const r1cs_entry *e, uint64_t n, uint32_t which, uint64_t rows,
                                char *msg, size_t msg_len)
{
    uint64_t *start = calloc(rows + 1, sizeof(uint64_t));
    if (!start)
        return CUZK_ERR_OUT_OF_MEMORY;
    uint64_t count = 0;
    for (uint64_t i = 0; i < n; i++)
        if (e[i].matrix == which) {
            start[e[i].row + 1]++;
            count++;
        }
    for (uint64_t r = 0; r < rows; r++)
        start[r + 1] += start[r];
    row_term *terms = malloc(sizeof(row_term) * (count ? count : 1));
    uint64_t *fill = malloc(sizeof(uint64_t) * (rows ? rows : 1));
    m->row_ptr = calloc(rows + 1, sizeof(uint64_t));
    if (!terms || !fill || !m->row_ptr) {
        free(terms);
        free(fill);
        free(start);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    memcpy(fill, start, sizeof(uint64_t) * rows);
    for (uint64_t i = 0; i < n; i++)
        if (e[i].matrix == which)
            terms[fill[e[i].row]++] = (row_term){e[i].col, e[i].value};
    free(fill);
    /* Sort and merge each row in place; rows only shrink, so the merged
     * terms move down over the array (k never passes the read index). */
    uint64_t k = 0;
    for (uint64_t r = 0; r < rows; r++) {
        row_term *row = terms + start[r];
        uint64_t len = start[r + 1] - start[r];
        qsort(row, len, sizeof(row_term), term_cmp);
        uint64_t first = k;
        for (uint64_t j = 0; j < len; j++) {
            if (k > first && terms[k - 1].col == row[j].col)
                slot_add(curve, &terms[k - 1].value, &row[j].value);
            else
                terms[k++] = row[j];
        }
        /* drop terms whose values cancelled or were zero (zero is all-zero
         * limbs in either field) */
        uint64_t out = first;
        for (uint64_t j = first; j < k; j++)
            if (!fr_is_zero(&terms[j].value))
                terms[out++] = terms[j];
        k = out;
        m->row_ptr[r + 1] = k;
    }
    free(start);
    m->nnz = k;
    m->col = malloc(sizeof(uint32_t) * (k ? k : 1));
    uint32_t *idx = malloc(sizeof(uint32_t) * (k ? k : 1));
    cuzk_status st = m->col && idx ? CUZK_OK : CUZK_ERR_OUT_OF_MEMORY;
    for (uint64_t j = 0; j < k && st == CUZK_OK; j++) {
        m->col[j] = terms[j].col;
        st = coeff_table_intern(table, &idx[j], &terms[j].value);
    }
    free(terms);
    if (st != CUZK_OK) {
        free(idx);
        r1cs_set_msg(msg, msg_len, "out of memory for the constraint matrices");
        return st;
    }
    m->coeff = idx; /* 4-byte indices for now; narrowed once the table is final */
    return CUZK_OK;
}

/* Narrows a matrix's 4-byte coefficient indices to 2 bytes. */
static cuzk_status narrow(r1cs_matrix *m)
{
    uint16_t *n16 = malloc(sizeof(uint16_t) * (m->nnz ? m->nnz : 1));
    if (!n16)
        return CUZK_ERR_OUT_OF_MEMORY;
    const uint32_t *w = m->coeff;
    for (uint64_t j = 0; j < m->nnz; j++)
        n16[j] = (uint16_t)w[j];
    free(m->coeff);
    m->coeff = n16;
    return CUZK_OK;
}

cuzk_status r1cs_from_entries(r1cs_t *out, const r1cs_entry *entries, uint64_t n, uint64_t rows,
                              uint64_t num_inputs, uint64_t num_aux, char *msg, size_t msg_len)
{
    return r1cs_from_entries_over(out, CURVE_BLS12_381, entries, n, rows, num_inputs, num_aux, msg,
                                  msg_len);
}

cuzk_status r1cs_from_entries_over(r1cs_t *out, curve_id curve, const r1cs_entry *entries,
                                   uint64_t n, uint64_t rows, uint64_t num_inputs,
                                   uint64_t num_aux, char *msg, size_t msg_len)
{
    memset(out, 0, sizeof(*out));
    uint64_t nv = num_inputs + num_aux;
    if (num_inputs < 1 || nv > UINT32_MAX) {
        r1cs_set_msg(msg, msg_len, "%llu inputs and %llu aux variables do not make a system",
                     (unsigned long long)num_inputs, (unsigned long long)num_aux);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    for (uint64_t i = 0; i < n; i++)
        if (entries[i].matrix > 2 || entries[i].row >= rows || entries[i].col >= nv) {
            r1cs_set_msg(msg, msg_len,
                         "entry %llu (matrix %u, row %u, column %u) is outside %llu rows and "
                         "%llu variables",
                         (unsigned long long)i, entries[i].matrix, entries[i].row, entries[i].col,
                         (unsigned long long)rows, (unsigned long long)nv);
            return CUZK_ERR_INVALID_ARGUMENT;
        }
    out->curve = curve;
    out->num_constraints = rows;
    out->num_inputs = num_inputs;
    out->num_aux = num_aux;
    coeff_table table;
    cuzk_status st = coeff_table_init_over(&table, curve);
    if (st != CUZK_OK)
        return st;
    r1cs_matrix *ms[3] = {&out->a, &out->b, &out->c};
    for (uint32_t k = 0; k < 3 && st == CUZK_OK; k++)
        st = build_matrix(ms[k], &table, curve, entries, n, k, rows, msg, msg_len);
    out->coeffs = coeff_table_take(&table, &out->num_coeffs);
    if (st == CUZK_OK && !out->coeffs)
        st = CUZK_ERR_OUT_OF_MEMORY;
    out->coeff_width = 4;
    if (st == CUZK_OK && out->num_coeffs <= 65536) {
        for (int k = 0; k < 3 && st == CUZK_OK; k++)
            st = narrow(ms[k]);
        out->coeff_width = 2;
    }
    /* No r1cs_validate pass: every entry was range-checked above, and rows
     * come out sorted, merged and free of zeros by construction (the tests
     * validate what this builds). */
    if (st != CUZK_OK)
        r1cs_free(out);
    return st;
}
