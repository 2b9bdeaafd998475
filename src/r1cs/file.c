#define _POSIX_C_SOURCE 200809L
#include "r1cs/file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "formats/common.h"
#include "r1cs/crc32c.h"
#include "util/input_file.h"

/* Arrays go to and from the file as they lie in memory. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define R1CS_FILE_HOST_OK 0
#else
#define R1CS_FILE_HOST_OK 1
#endif

#define IO_BLOCK (1u << 20) /* fits in L2, so the CRC pass re-reads cached data */
#define LONG_ROW 255u

static const char *const MATRIX_NAME[3] = {"A", "B", "C"};

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static uint64_t pad8(uint64_t n)
{
    return (8 - (n & 7)) & 7;
}

typedef struct header {
    uint32_t version, header_bytes, coeff_width, flags;
    uint64_t num_constraints, num_inputs, num_aux, num_coeffs;
    uint64_t nnz[3], num_long[3];
    uint64_t payload_bytes;
    uint32_t payload_crc;
} header;

static void header_encode(uint8_t out[R1CS_FILE_HEADER_BYTES], const header *h)
{
    memset(out, 0, R1CS_FILE_HEADER_BYTES);
    memcpy(out, R1CS_FILE_MAGIC, 8);
    put32(out + 8, h->version);
    put32(out + 12, h->header_bytes);
    put64(out + 16, h->num_constraints);
    put64(out + 24, h->num_inputs);
    put64(out + 32, h->num_aux);
    put64(out + 40, h->num_coeffs);
    put32(out + 48, h->coeff_width);
    put32(out + 52, h->flags);
    for (int k = 0; k < 3; k++) {
        put64(out + 56 + 8 * k, h->nnz[k]);
        put64(out + 80 + 8 * k, h->num_long[k]);
    }
    put64(out + 104, h->payload_bytes);
    put32(out + 112, h->payload_crc);
    put32(out + 120, crc32c(0, out, 120));
}

/* Payload size implied by the counts; false on overflow. */
static bool payload_size(const header *h, uint64_t *out)
{
    uint64_t total, t;
    if (__builtin_mul_overflow(h->num_coeffs, (uint64_t)32, &total))
        return false;
    for (int k = 0; k < 3; k++) {
        uint64_t parts[4];
        if (__builtin_mul_overflow(h->num_long[k], (uint64_t)16, &parts[0]))
            return false;
        if (__builtin_add_overflow(h->num_constraints, pad8(h->num_constraints), &parts[1]))
            return false;
        if (__builtin_mul_overflow(h->nnz[k], (uint64_t)4, &t) ||
            __builtin_add_overflow(t, pad8(t), &parts[2]))
            return false;
        if (__builtin_mul_overflow(h->nnz[k], (uint64_t)h->coeff_width, &t) ||
            __builtin_add_overflow(t, pad8(t), &parts[3]))
            return false;
        for (int i = 0; i < 4; i++)
            if (__builtin_add_overflow(total, parts[i], &total))
                return false;
    }
    *out = total;
    return true;
}

/* ---------------------------------------------------------------- write */

typedef struct writer {
    FILE *f;
    uint32_t crc;
    char *msg;
    size_t msg_len;
} writer;

static cuzk_status put_bytes(writer *w, const void *p, size_t len)
{
    const uint8_t *b = p;
    while (len) {
        size_t n = len < IO_BLOCK ? len : IO_BLOCK;
        w->crc = crc32c(w->crc, b, n);
        if (fwrite(b, 1, n, w->f) != n) {
            r1cs_set_msg(w->msg, w->msg_len, "r1cs file: write failed: %s", strerror(errno));
            return CUZK_ERR_IO;
        }
        b += n;
        len -= n;
    }
    return CUZK_OK;
}

static cuzk_status put_padding(writer *w, uint64_t n)
{
    static const uint8_t zeros[8];
    return put_bytes(w, zeros, (size_t)pad8(n));
}

static cuzk_status write_matrix(writer *w, const r1cs_t *r, const r1cs_matrix *m, uint8_t *buf)
{
    uint64_t n = r->num_constraints;
    const uint64_t *rp = m->row_ptr;
    cuzk_status st = CUZK_OK;
    /* long rows */
    size_t used = 0;
    for (uint64_t i = 0; i < n && st == CUZK_OK; i++) {
        uint64_t len = rp[i + 1] - rp[i];
        if (len < LONG_ROW)
            continue;
        put64(buf + used, i);
        put64(buf + used + 8, len);
        used += 16;
        if (used == IO_BLOCK) {
            st = put_bytes(w, buf, used);
            used = 0;
        }
    }
    if (st == CUZK_OK && used)
        st = put_bytes(w, buf, used);
    /* row lengths */
    for (uint64_t i = 0; i < n && st == CUZK_OK; i += IO_BLOCK) {
        size_t cnt = n - i < IO_BLOCK ? (size_t)(n - i) : IO_BLOCK;
        for (size_t j = 0; j < cnt; j++) {
            uint64_t len = rp[i + j + 1] - rp[i + j];
            buf[j] = (uint8_t)(len < LONG_ROW ? len : LONG_ROW);
        }
        st = put_bytes(w, buf, cnt);
    }
    if (st == CUZK_OK)
        st = put_padding(w, n);
    if (st == CUZK_OK)
        st = put_bytes(w, m->col, (size_t)m->nnz * 4);
    if (st == CUZK_OK)
        st = put_padding(w, m->nnz * 4);
    if (st == CUZK_OK)
        st = put_bytes(w, m->coeff, (size_t)m->nnz * r->coeff_width);
    if (st == CUZK_OK)
        st = put_padding(w, m->nnz * r->coeff_width);
    return st;
}

cuzk_status r1cs_file_write(const r1cs_t *r, FILE *f, char *msg, size_t msg_len)
{
    if (!R1CS_FILE_HOST_OK) {
        r1cs_set_msg(msg, msg_len, "r1cs file: big-endian hosts are not supported");
        return CUZK_ERR_UNSUPPORTED;
    }
    header h = {.version = R1CS_FILE_VERSION,
                .header_bytes = R1CS_FILE_HEADER_BYTES,
                .coeff_width = r->coeff_width,
                .num_constraints = r->num_constraints,
                .num_inputs = r->num_inputs,
                .num_aux = r->num_aux,
                .num_coeffs = r->num_coeffs};
    const r1cs_matrix *ms[3] = {&r->a, &r->b, &r->c};
    for (int k = 0; k < 3; k++) {
        h.nnz[k] = ms[k]->nnz;
        for (uint64_t i = 0; i < r->num_constraints; i++)
            h.num_long[k] += ms[k]->row_ptr[i + 1] - ms[k]->row_ptr[i] >= LONG_ROW;
    }
    if (!payload_size(&h, &h.payload_bytes)) {
        r1cs_set_msg(msg, msg_len, "r1cs file: system too large to encode");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    uint8_t *buf = malloc(IO_BLOCK);
    if (!buf)
        return CUZK_ERR_OUT_OF_MEMORY;
    writer w = {.f = f, .msg = msg, .msg_len = msg_len};
    off_t start = ftello(f);
    uint8_t hdr[R1CS_FILE_HEADER_BYTES];
    header_encode(hdr, &h); /* placeholder: the payload CRC is patched in below */
    cuzk_status st = CUZK_OK;
    if (start < 0 || fwrite(hdr, 1, sizeof(hdr), f) != sizeof(hdr)) {
        r1cs_set_msg(msg, msg_len, "r1cs file: cannot write the header (is the stream seekable?)");
        st = CUZK_ERR_IO;
    }
    /* coefficient table, canonical little-endian, a block at a time */
    for (uint64_t i = 0; i < r->num_coeffs && st == CUZK_OK; i += IO_BLOCK / FR_BYTES) {
        uint64_t cnt =
            r->num_coeffs - i < IO_BLOCK / FR_BYTES ? r->num_coeffs - i : IO_BLOCK / FR_BYTES;
        for (uint64_t j = 0; j < cnt; j++)
            fr_to_bytes_le(buf + j * FR_BYTES, &r->coeffs[i + j]);
        st = put_bytes(&w, buf, (size_t)cnt * FR_BYTES);
    }
    for (int k = 0; k < 3 && st == CUZK_OK; k++)
        st = write_matrix(&w, r, ms[k], buf);
    free(buf);
    if (st != CUZK_OK)
        return st;
    h.payload_crc = w.crc;
    header_encode(hdr, &h);
    off_t end = ftello(f);
    if (end < 0 || fseeko(f, start, SEEK_SET) != 0 ||
        fwrite(hdr, 1, sizeof(hdr), f) != sizeof(hdr) || fseeko(f, end, SEEK_SET) != 0 ||
        fflush(f) != 0) {
        r1cs_set_msg(msg, msg_len, "r1cs file: cannot finish the header: %s", strerror(errno));
        return CUZK_ERR_IO;
    }
    return CUZK_OK;
}

/* ----------------------------------------------------------------- read */

typedef struct reader {
    FILE *f;
    uint64_t off; /* bytes consumed, from the start of the header */
    uint32_t crc;
    char *msg;
    size_t msg_len;
    /* The first content error, reported only if the checksum matched: a
     * damaged file is then called damaged, not "bad column 7". */
    cuzk_status bad;
    char bad_msg[200];
} reader;

static cuzk_status get_bytes(reader *rd, void *p, size_t len, const char *what)
{
    uint8_t *b = p;
    while (len) {
        size_t n = len < IO_BLOCK ? len : IO_BLOCK;
        size_t got = fread(b, 1, n, rd->f);
        if (got != n) {
            r1cs_set_msg(rd->msg, rd->msg_len, "r1cs file: %s at offset %llu while reading %s",
                         ferror(rd->f) ? "read error" : "truncated",
                         (unsigned long long)(rd->off + got), what);
            return CUZK_ERR_IO;
        }
        rd->crc = crc32c(rd->crc, b, n);
        rd->off += n;
        b += n;
        len -= n;
    }
    return CUZK_OK;
}

static void content_error(reader *rd, cuzk_status st, const char *text)
{
    if (rd->bad != CUZK_OK)
        return;
    rd->bad = st;
    snprintf(rd->bad_msg, sizeof(rd->bad_msg), "r1cs file: %s", text);
}

static cuzk_status get_padding(reader *rd, uint64_t n, const char *what)
{
    uint8_t pad[8] = {0};
    size_t len = (size_t)pad8(n);
    cuzk_status st = get_bytes(rd, pad, len, what);
    for (size_t i = 0; i < len && st == CUZK_OK; i++)
        if (pad[i])
            content_error(rd, CUZK_ERR_INVALID_ARGUMENT, "nonzero padding");
    return st;
}

/* Rebuilds row pointers from the long-row list and the length bytes. */
static cuzk_status read_rows(reader *rd, const header *h, int k, uint64_t *rp, uint8_t *buf)
{
    char what[64], text[160];
    uint64_t n = h->num_constraints, nnz = h->nnz[k], num_long = h->num_long[k];
    uint64_t *longs = malloc((size_t)(num_long ? num_long : 1) * 16);
    if (!longs)
        return CUZK_ERR_OUT_OF_MEMORY;
    snprintf(what, sizeof(what), "the long rows of %s", MATRIX_NAME[k]);
    cuzk_status st = get_bytes(rd, longs, (size_t)num_long * 16, what);
    for (uint64_t j = 0; j < num_long && st == CUZK_OK; j++) {
        uint64_t row = longs[2 * j], len = longs[2 * j + 1];
        if (row >= n || (j && row <= longs[2 * (j - 1)]) || len < LONG_ROW) {
            snprintf(text, sizeof(text), "matrix %s: long-row entry %llu is invalid",
                     MATRIX_NAME[k], (unsigned long long)j);
            content_error(rd, CUZK_ERR_INVALID_ARGUMENT, text);
        }
    }
    snprintf(what, sizeof(what), "the row lengths of %s", MATRIX_NAME[k]);
    uint64_t total = 0, cursor = 0;
    bool ok = rd->bad == CUZK_OK;
    rp[0] = 0;
    for (uint64_t i = 0; i < n && st == CUZK_OK; i += IO_BLOCK) {
        size_t cnt = n - i < IO_BLOCK ? (size_t)(n - i) : IO_BLOCK;
        st = get_bytes(rd, buf, cnt, what);
        for (size_t j = 0; j < cnt && st == CUZK_OK && ok; j++) {
            uint64_t len = buf[j];
            if (len == LONG_ROW) {
                if (cursor >= num_long || longs[2 * cursor] != i + j) {
                    ok = false;
                    break;
                }
                len = longs[2 * cursor++ + 1];
            }
            if (len > nnz - total) {
                ok = false;
                break;
            }
            total += len;
            rp[i + j + 1] = total;
        }
    }
    free(longs);
    if (st == CUZK_OK && ok && (cursor != num_long || total != nnz))
        ok = false;
    if (st == CUZK_OK && !ok) {
        snprintf(text, sizeof(text), "matrix %s: row lengths do not add up to nnz = %llu",
                 MATRIX_NAME[k], (unsigned long long)nnz);
        content_error(rd, CUZK_ERR_INVALID_ARGUMENT, text);
    }
    if (st == CUZK_OK)
        st = get_padding(rd, n, what);
    return st;
}

static cuzk_status read_header(reader *rd, header *h, int64_t file_size)
{
    uint8_t b[R1CS_FILE_HEADER_BYTES];
    size_t got = fread(b, 1, sizeof(b), rd->f);
    if (got >= 8 && memcmp(b, R1CS_FILE_MAGIC, 8) != 0) {
        r1cs_set_msg(rd->msg, rd->msg_len, "r1cs file: bad magic (not a compiled-circuit file)");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (got != sizeof(b)) {
        r1cs_set_msg(rd->msg, rd->msg_len, "r1cs file: truncated header (%zu of %u bytes)", got,
                     R1CS_FILE_HEADER_BYTES);
        return CUZK_ERR_IO;
    }
    rd->off = sizeof(b);
    h->version = get32(b + 8);
    if (h->version != R1CS_FILE_VERSION) {
        r1cs_set_msg(rd->msg, rd->msg_len, "r1cs file: version %u (this build reads %u)",
                     h->version, R1CS_FILE_VERSION);
        return CUZK_ERR_UNSUPPORTED;
    }
    if (get32(b + 120) != crc32c(0, b, 120)) {
        r1cs_set_msg(rd->msg, rd->msg_len, "r1cs file: header checksum mismatch (corrupt file)");
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    h->header_bytes = get32(b + 12);
    h->num_constraints = get64(b + 16);
    h->num_inputs = get64(b + 24);
    h->num_aux = get64(b + 32);
    h->num_coeffs = get64(b + 40);
    h->coeff_width = get32(b + 48);
    h->flags = get32(b + 52);
    for (int k = 0; k < 3; k++) {
        h->nnz[k] = get64(b + 56 + 8 * k);
        h->num_long[k] = get64(b + 80 + 8 * k);
    }
    h->payload_bytes = get64(b + 104);
    h->payload_crc = get32(b + 112);
    const char *bad = NULL;
    uint64_t expect = 0;
    if (h->header_bytes != R1CS_FILE_HEADER_BYTES || h->flags != 0 || get32(b + 116) != 0 ||
        get32(b + 124) != 0)
        bad = "unknown header size, flags or reserved fields";
    else if (h->coeff_width != 2 && h->coeff_width != 4)
        bad = "coefficient index width is not 2 or 4";
    else if (h->num_inputs < 1 || h->num_inputs > (uint64_t)UINT32_MAX + 1 ||
             h->num_aux > (uint64_t)UINT32_MAX + 1 - h->num_inputs)
        bad = "variable counts out of range";
    else if (h->num_coeffs < 2 || (h->coeff_width == 2 && h->num_coeffs > 65536) ||
             h->num_coeffs > (uint64_t)UINT32_MAX + 1)
        bad = "coefficient count out of range";
    else if (h->num_long[0] > h->num_constraints || h->num_long[1] > h->num_constraints ||
             h->num_long[2] > h->num_constraints)
        bad = "long-row counts exceed the row count";
    else if (!payload_size(h, &expect) || expect != h->payload_bytes)
        bad = "payload size does not match the counts";
    else if (h->num_constraints >= SIZE_MAX / 8 || h->payload_bytes > (uint64_t)INT64_MAX)
        bad = "system too large for this host";
    if (bad) {
        r1cs_set_msg(rd->msg, rd->msg_len, "r1cs file: %s", bad);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    /* Before allocating anything: the counts must match the bytes there. */
    if (file_size >= 0 && (uint64_t)file_size != R1CS_FILE_HEADER_BYTES + h->payload_bytes) {
        bool short_file = (uint64_t)file_size < R1CS_FILE_HEADER_BYTES + h->payload_bytes;
        r1cs_set_msg(rd->msg, rd->msg_len, "r1cs file: %s: %lld bytes, the header describes %llu",
                     short_file ? "truncated" : "trailing bytes", (long long)file_size,
                     (unsigned long long)(R1CS_FILE_HEADER_BYTES + h->payload_bytes));
        return short_file ? CUZK_ERR_IO : CUZK_ERR_INVALID_ARGUMENT;
    }
    return CUZK_OK;
}

/* Bytes from the current position to the end, or -1 when f cannot seek. */
static int64_t remaining_size(FILE *f)
{
    off_t here = ftello(f);
    if (here < 0 || fseeko(f, 0, SEEK_END) != 0)
        return -1;
    off_t end = ftello(f);
    if (end < 0 || fseeko(f, here, SEEK_SET) != 0)
        return -1;
    return (int64_t)(end - here);
}

static cuzk_status read_body(reader *rd, const header *h, r1cs_t *r, uint8_t *buf)
{
    char text[160];
    cuzk_status st = CUZK_OK;
    for (uint64_t i = 0; i < h->num_coeffs && st == CUZK_OK; i += IO_BLOCK / FR_BYTES) {
        uint64_t cnt =
            h->num_coeffs - i < IO_BLOCK / FR_BYTES ? h->num_coeffs - i : IO_BLOCK / FR_BYTES;
        st = get_bytes(rd, buf, (size_t)cnt * FR_BYTES, "the coefficient table");
        for (uint64_t j = 0; j < cnt && st == CUZK_OK; j++) {
            if (!fr_from_bytes_le(&r->coeffs[i + j], buf + j * FR_BYTES)) {
                r->coeffs[i + j] = FR_ONE; /* keep the table usable until we bail */
                snprintf(text, sizeof(text), "coefficient %llu is not below r",
                         (unsigned long long)(i + j));
                content_error(rd, CUZK_ERR_NOT_CANONICAL, text);
            }
        }
    }
    r1cs_matrix *ms[3] = {&r->a, &r->b, &r->c};
    for (int k = 0; k < 3 && st == CUZK_OK; k++) {
        r1cs_matrix *m = ms[k];
        char what[64];
        st = read_rows(rd, h, k, m->row_ptr, buf);
        snprintf(what, sizeof(what), "the columns of %s", MATRIX_NAME[k]);
        if (st == CUZK_OK)
            st = get_bytes(rd, m->col, (size_t)m->nnz * 4, what);
        if (st == CUZK_OK)
            st = get_padding(rd, m->nnz * 4, what);
        snprintf(what, sizeof(what), "the coefficient indices of %s", MATRIX_NAME[k]);
        if (st == CUZK_OK)
            st = get_bytes(rd, m->coeff, (size_t)m->nnz * r->coeff_width, what);
        if (st == CUZK_OK)
            st = get_padding(rd, m->nnz * r->coeff_width, what);
    }
    return st;
}

cuzk_status r1cs_file_read(r1cs_t *out, FILE *f, unsigned threads, char *msg, size_t msg_len)
{
    memset(out, 0, sizeof(*out));
    r1cs_set_msg(msg, msg_len, "ok");
    if (!R1CS_FILE_HOST_OK) {
        r1cs_set_msg(msg, msg_len, "r1cs file: big-endian hosts are not supported");
        return CUZK_ERR_UNSUPPORTED;
    }
    reader rd = {.f = f, .msg = msg, .msg_len = msg_len};
    header h;
    cuzk_status st = read_header(&rd, &h, remaining_size(f));
    if (st != CUZK_OK)
        return st;

    r1cs_t r = {.num_constraints = h.num_constraints,
                .num_inputs = h.num_inputs,
                .num_aux = h.num_aux,
                .num_coeffs = h.num_coeffs,
                .coeff_width = h.coeff_width};
    r1cs_matrix *ms[3] = {&r.a, &r.b, &r.c};
    bool oom = !(r.coeffs = malloc((size_t)h.num_coeffs * sizeof(fr_t)));
    for (int k = 0; k < 3; k++) {
        ms[k]->nnz = h.nnz[k];
        ms[k]->row_ptr = malloc((size_t)(h.num_constraints + 1) * sizeof(uint64_t));
        ms[k]->col = malloc((size_t)(h.nnz[k] ? h.nnz[k] : 1) * 4);
        ms[k]->coeff = malloc((size_t)(h.nnz[k] ? h.nnz[k] : 1) * h.coeff_width);
        oom |= !ms[k]->row_ptr || !ms[k]->col || !ms[k]->coeff;
    }
    uint8_t *buf = malloc(IO_BLOCK);
    if (oom || !buf) {
        free(buf);
        r1cs_free(&r);
        r1cs_set_msg(msg, msg_len, "r1cs file: out of memory for a system of %llu rows",
                     (unsigned long long)h.num_constraints);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    rd.crc = 0;
    st = read_body(&rd, &h, &r, buf);
    free(buf);
    if (st == CUZK_OK && fgetc(f) != EOF) {
        /* Only reachable when the size was unknown (a pipe). */
        r1cs_set_msg(msg, msg_len, "r1cs file: trailing bytes after the payload");
        st = CUZK_ERR_INVALID_ARGUMENT;
    }
    if (st == CUZK_OK && rd.crc != h.payload_crc) {
        r1cs_set_msg(msg, msg_len, "r1cs file: payload checksum mismatch (corrupt file)");
        st = CUZK_ERR_INVALID_ARGUMENT;
    }
    if (st == CUZK_OK && rd.bad != CUZK_OK) {
        r1cs_set_msg(msg, msg_len, "%s", rd.bad_msg);
        st = rd.bad;
    }
    /* A consistent checksum proves nothing about a crafted file: check the
     * invariants the evaluator relies on (bounds, order, table). */
    if (st == CUZK_OK)
        st = r1cs_validate(&r, threads, msg, msg_len);
    if (st != CUZK_OK) {
        r1cs_free(&r);
        return st;
    }
    *out = r;
    r1cs_set_msg(msg, msg_len, "ok");
    return CUZK_OK;
}

cuzk_status r1cs_save(const r1cs_t *r, const char *path, char *msg, size_t msg_len)
{
    /* A new temporary file beside path, renamed over it when complete;
     * links and devices at path are refused (formats/common.h). */
    formats_out o;
    cuzk_status st = formats_out_open(&o, path, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    st = r1cs_file_write(r, o.f, msg, msg_len);
    if (st == CUZK_OK && (fflush(o.f) != 0 || fsync(fileno(o.f)) != 0)) {
        r1cs_set_msg(msg, msg_len, "r1cs file: cannot flush %s: %s", o.tmp, strerror(errno));
        st = CUZK_ERR_IO;
    }
    return formats_out_finish(&o, st, msg, msg_len);
}

cuzk_status r1cs_load(r1cs_t *out, const char *path, unsigned threads, char *msg, size_t msg_len)
{
    memset(out, 0, sizeof(*out));
    char why[300];
    FILE *f = input_file_fopen(path, why, sizeof(why));
    if (!f) {
        r1cs_set_msg(msg, msg_len, "r1cs file: cannot open it: %s", why);
        return CUZK_ERR_IO;
    }
    cuzk_status st = r1cs_file_read(out, f, threads, msg, msg_len);
    fclose(f);
    return st;
}
