/* .r1cs files as circom 2 writes them: sections in circom's order
 * (constraints, header, wire-to-label map; any order is valid, this one
 * makes a file read from circom come back byte for byte), the layout of
 * iden3/r1csfile's doc/r1cs_bin_format.md, which circom_r1cs.h sums up. */
#include <stdlib.h>
#include <string.h>

#include "formats/circom_r1cs.h"
#include "formats/iden3_write.h"

#define SEC_HEADER 1u
#define SEC_CONSTRAINTS 2u
#define SEC_LABELS 3u

/* What goes through the buffer between flushes: whole terms. */
#define BUF_BYTES (1u << 20)
#define TERM_BYTES (4u + FR_BYTES)

typedef struct out_buf {
    iden3_writer *w;
    uint8_t *data;
    size_t len;
} out_buf;

static cuzk_status flush(out_buf *b, char *msg, size_t msg_len)
{
    cuzk_status st = iden3_writer_put(b->w, b->data, b->len, msg, msg_len);
    b->len = 0;
    return st;
}

/* Room for `need` more bytes (need <= BUF_BYTES). */
static cuzk_status reserve(out_buf *b, size_t need, char *msg, size_t msg_len)
{
    return b->len + need > BUF_BYTES ? flush(b, msg, msg_len) : CUZK_OK;
}

static cuzk_status check_wires(const r1cs_t *r, const circom_r1cs_wires *io, const char *path,
                               char *msg, size_t msg_len)
{
    uint64_t nw = r1cs_num_vars(r);
    if (1 + (uint64_t)io->num_pub_out + io->num_pub_in != r->num_inputs) {
        formats_msg(msg, msg_len,
                    "%s: %u public outputs and %u public inputs, but the system has %llu "
                    "public variables besides ONE",
                    path, io->num_pub_out, io->num_pub_in, (unsigned long long)(r->num_inputs - 1));
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (io->num_prv_in > r->num_aux) {
        formats_msg(msg, msg_len, "%s: %u private inputs, but the system has %llu aux variables",
                    path, io->num_prv_in, (unsigned long long)r->num_aux);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (nw > UINT32_MAX || r->num_constraints > UINT32_MAX) {
        formats_msg(msg, msg_len,
                    "%s: %llu wires and %llu constraints: the format counts both in 32 bits", path,
                    (unsigned long long)nw, (unsigned long long)r->num_constraints);
        return CUZK_ERR_UNSUPPORTED;
    }
    if (!io->labels)
        return CUZK_OK;
    /* r1cs_bin_format.md: "Wire 0 must be always mapped to label 0". */
    if (io->labels[0] != 0) {
        formats_msg(msg, msg_len, "%s: wire 0 (ONE) must have label 0, not %llu", path,
                    (unsigned long long)io->labels[0]);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (io->num_labels < nw) {
        formats_msg(msg, msg_len, "%s: %llu labels for %llu wires", path,
                    (unsigned long long)io->num_labels, (unsigned long long)nw);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    for (uint64_t i = 0; i < nw; i++) {
        if (io->labels[i] >= io->num_labels) {
            formats_msg(msg, msg_len, "%s: wire %llu has label %llu, not below nLabels = %llu",
                        path, (unsigned long long)i, (unsigned long long)io->labels[i],
                        (unsigned long long)io->num_labels);
            return CUZK_ERR_INVALID_ARGUMENT;
        }
    }
    return CUZK_OK;
}

/* Section 2: per constraint A, B, C, each u32 nTerms then (u32 wire,
 * coefficient) terms. The rows of an r1cs_t are sorted by column with no
 * zero and no repeat, as the format asks ("The factors MUST be sorted in
 * ascending order", nonzero only); columns are wire ids (circom_r1cs.h). */
static cuzk_status write_constraints(out_buf *b, const r1cs_t *r, const uint8_t *coeff_bytes,
                                     char *msg, size_t msg_len)
{
    const r1cs_matrix *mats[3] = {&r->a, &r->b, &r->c};
    cuzk_status st = CUZK_OK;
    for (uint64_t row = 0; row < r->num_constraints && st == CUZK_OK; row++) {
        for (int k = 0; k < 3 && st == CUZK_OK; k++) {
            const r1cs_matrix *m = mats[k];
            uint64_t begin = m->row_ptr[row], end = m->row_ptr[row + 1];
            if ((st = reserve(b, 4, msg, msg_len)) != CUZK_OK)
                break;
            iden3_st_le32(b->data + b->len, (uint32_t)(end - begin));
            b->len += 4;
            for (uint64_t t = begin; t < end; t++) {
                if ((st = reserve(b, TERM_BYTES, msg, msg_len)) != CUZK_OK)
                    break;
                uint8_t *p = b->data + b->len;
                iden3_st_le32(p, m->col[t]);
                memcpy(p + 4, coeff_bytes + (size_t)r1cs_coeff_at(r, m, t) * FR_BYTES, FR_BYTES);
                b->len += TERM_BYTES;
            }
        }
    }
    return st == CUZK_OK ? flush(b, msg, msg_len) : st;
}

static cuzk_status write_header(iden3_writer *w, const r1cs_t *r, const circom_r1cs_wires *io,
                                uint64_t num_labels, char *msg, size_t msg_len)
{
    cuzk_status st =
        iden3_writer_section(w, SEC_HEADER, 4 + FR_BYTES + 4 * 4 + 8 + 4, msg, msg_len);
    if (st == CUZK_OK)
        st = iden3_writer_fr_prime(w, msg, msg_len);
    if (st == CUZK_OK)
        st = iden3_writer_u32(w, (uint32_t)r1cs_num_vars(r), msg, msg_len);
    if (st == CUZK_OK)
        st = iden3_writer_u32(w, io->num_pub_out, msg, msg_len);
    if (st == CUZK_OK)
        st = iden3_writer_u32(w, io->num_pub_in, msg, msg_len);
    if (st == CUZK_OK)
        st = iden3_writer_u32(w, io->num_prv_in, msg, msg_len);
    if (st == CUZK_OK)
        st = iden3_writer_u64(w, num_labels, msg, msg_len);
    if (st == CUZK_OK)
        st = iden3_writer_u32(w, (uint32_t)r->num_constraints, msg, msg_len);
    return st;
}

static cuzk_status write_labels(out_buf *b, const r1cs_t *r, const circom_r1cs_wires *io, char *msg,
                                size_t msg_len)
{
    uint64_t nw = r1cs_num_vars(r);
    cuzk_status st = iden3_writer_section(b->w, SEC_LABELS, 8 * nw, msg, msg_len);
    for (uint64_t i = 0; i < nw && st == CUZK_OK; i++) {
        if ((st = reserve(b, 8, msg, msg_len)) != CUZK_OK)
            break;
        iden3_st_le64(b->data + b->len, io->labels ? io->labels[i] : i);
        b->len += 8;
    }
    return st == CUZK_OK ? flush(b, msg, msg_len) : st;
}

cuzk_status circom_r1cs_save(const r1cs_t *r, const circom_r1cs_wires *io, const char *path,
                             char *msg, size_t msg_len)
{
    if (r->curve != CURVE_BLS12_381) {
        formats_msg(msg, msg_len, "%s: the system is over %s; this writer takes BLS12-381's", path,
                    curve_id_snarkjs_name(r->curve));
        return CUZK_ERR_UNSUPPORTED;
    }
    cuzk_status st = check_wires(r, io, path, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    uint64_t nw = r1cs_num_vars(r);
    uint64_t num_labels = io->labels ? io->num_labels : nw;
    uint64_t terms = r->a.nnz + r->b.nnz + r->c.nnz;
    uint64_t constraints_size = 3 * 4 * r->num_constraints + TERM_BYTES * terms;

    /* Coefficients as the file stores them, once per distinct value. */
    uint8_t *coeff_bytes = malloc((size_t)r->num_coeffs * FR_BYTES);
    out_buf b = {.data = malloc(BUF_BYTES)};
    if (!coeff_bytes || !b.data) {
        free(coeff_bytes);
        free(b.data);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    for (uint64_t i = 0; i < r->num_coeffs; i++)
        fr_to_bytes_le(coeff_bytes + i * FR_BYTES, &r->coeffs[i]);

    iden3_writer w;
    b.w = &w;
    st = iden3_writer_open(&w, path, "r1cs", 1, 3, msg, msg_len);
    if (st == CUZK_OK)
        st = iden3_writer_section(&w, SEC_CONSTRAINTS, constraints_size, msg, msg_len);
    if (st == CUZK_OK)
        st = write_constraints(&b, r, coeff_bytes, msg, msg_len);
    if (st == CUZK_OK)
        st = write_header(&w, r, io, num_labels, msg, msg_len);
    if (st == CUZK_OK)
        st = write_labels(&b, r, io, msg, msg_len);
    st = iden3_writer_finish(&w, st, msg, msg_len);
    free(coeff_bytes);
    free(b.data);
    return st;
}
