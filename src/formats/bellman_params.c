#include "formats/bellman_params.h"

#include <stdlib.h>
#include <string.h>

#include "formats/bellman_codec.h"

static const char *const QUERY_NAME[BELLMAN_QUERY_COUNT] = {"h", "l", "a", "b_g1", "b_g2"};

static uint64_t point_bytes(int q)
{
    return q == BELLMAN_B_G2 ? G2_UNCOMPRESSED_BYTES : G1_UNCOMPRESSED_BYTES;
}

static cuzk_status parse(bellman_params_map_t *m, formats_check vk_check, char *msg, size_t msg_len)
{
    const char *name = m->file.name;
    uint64_t size = m->file.size, off;
    cuzk_status st =
        bellman_vk_decode(&m->vk, &off, m->file.data, size, name, vk_check, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    for (int q = 0; q < BELLMAN_QUERY_COUNT; q++) {
        if (size - off < 4) {
            formats_msg(msg, msg_len, "%s: truncated before the %s count (byte %llu)", name,
                        QUERY_NAME[q], (unsigned long long)off);
            return CUZK_ERR_TRUNCATED;
        }
        uint64_t n = ld_be32(m->file.data + off);
        off += 4;
        if (n > (size - off) / point_bytes(q)) {
            formats_msg(msg, msg_len,
                        "%s: truncated: %llu %s points declared at byte %llu, %llu bytes left",
                        name, (unsigned long long)n, QUERY_NAME[q], (unsigned long long)off - 4,
                        (unsigned long long)(size - off));
            return CUZK_ERR_TRUNCATED;
        }
        m->query[q] = m->file.data + off;
        m->count[q] = n;
        off += n * point_bytes(q);
    }
    if (off != size) {
        formats_msg(msg, msg_len, "%s: %llu bytes after the b_g2 query", name,
                    (unsigned long long)(size - off));
        return CUZK_ERR_CORRUPT;
    }
    return CUZK_OK;
}

cuzk_status bellman_params_open(bellman_params_map_t *m, const char *path, formats_check vk_check,
                                char *msg, size_t msg_len)
{
    memset(m, 0, sizeof(*m));
    cuzk_status st = mapped_file_open(&m->file, path, msg, msg_len);
    if (st == CUZK_OK)
        st = parse(m, vk_check, msg, msg_len);
    if (st != CUZK_OK)
        bellman_params_close(m);
    return st;
}

cuzk_status bellman_params_open_buffer(bellman_params_map_t *m, const void *data, size_t size,
                                       const char *name, formats_check vk_check, char *msg,
                                       size_t msg_len)
{
    memset(m, 0, sizeof(*m));
    mapped_file_from_buffer(&m->file, data, size, name);
    cuzk_status st = parse(m, vk_check, msg, msg_len);
    if (st != CUZK_OK)
        bellman_params_close(m);
    return st;
}

void bellman_params_close(bellman_params_map_t *m)
{
    groth16_vk_free(&m->vk);
    mapped_file_close(&m->file);
    memset(m, 0, sizeof(*m));
}

/* ---- decoding, in parallel chunks -------------------------------------- */

typedef struct decode_job {
    void *out;
    const uint8_t *in;
    bool g2;
    formats_check check;
} decode_job;

/* Decodes point i; infinity (which bellman forbids in IC and the queries)
 * is CUZK_ERR_INVALID_ARGUMENT here, reported as corrupt. */
static cuzk_status decode_one(void *ctx, uint64_t i)
{
    const decode_job *j = ctx;
    cuzk_status st;
    bool inf;
    if (j->g2) {
        g2_affine_t *p = (g2_affine_t *)j->out + i;
        st = bellman_g2_from_bytes(p, j->in + i * G2_UNCOMPRESSED_BYTES, j->check);
        inf = p->infinity;
    } else {
        g1_affine_t *p = (g1_affine_t *)j->out + i;
        st = bellman_g1_from_bytes(p, j->in + i * G1_UNCOMPRESSED_BYTES, j->check);
        inf = p->infinity;
    }
    return st == CUZK_OK && inf ? CUZK_ERR_INVALID_ARGUMENT : st;
}

static cuzk_status decode_range(void *out, const bellman_params_map_t *m, int q, uint64_t start,
                                uint64_t count, formats_check check, unsigned threads, char *msg,
                                size_t msg_len)
{
    if (start > m->count[q] || count > m->count[q] - start) {
        formats_msg(msg, msg_len, "%s: %s points %llu..%llu requested, the file has %llu",
                    m->file.name, QUERY_NAME[q], (unsigned long long)start,
                    (unsigned long long)(start + count), (unsigned long long)m->count[q]);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    decode_job j = {.out = out,
                    .in = m->query[q] + start * point_bytes(q),
                    .g2 = q == BELLMAN_B_G2,
                    .check = check};
    /* Subgroup checks cost far more per point than the other modes. */
    size_t grain = check == FORMATS_CHECK_SUBGROUP ? 64 : 4096;
    uint64_t bad = formats_parallel_first_failure(count, grain, threads, decode_one, &j);
    if (bad == UINT64_MAX)
        return CUZK_OK;
    cuzk_status st = decode_one(&j, bad);
    uint64_t idx = start + bad;
    uint64_t byte = (uint64_t)(m->query[q] - m->file.data) + idx * point_bytes(q);
    formats_msg(msg, msg_len, "%s: %s point %llu (byte %llu): %s", m->file.name, QUERY_NAME[q],
                (unsigned long long)idx, (unsigned long long)byte, bellman_point_problem(st));
    return st == CUZK_ERR_INVALID_ARGUMENT ? CUZK_ERR_CORRUPT : st;
}

cuzk_status bellman_params_decode_g1(g1_affine_t *out, const bellman_params_map_t *m,
                                     bellman_query q, uint64_t start, uint64_t count,
                                     formats_check check, unsigned threads, char *msg,
                                     size_t msg_len)
{
    if ((unsigned)q >= BELLMAN_B_G2) {
        formats_msg(msg, msg_len, "%s: query %d is not a G1 query", m->file.name, (int)q);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    return decode_range(out, m, q, start, count, check, threads, msg, msg_len);
}

cuzk_status bellman_params_decode_g2(g2_affine_t *out, const bellman_params_map_t *m,
                                     uint64_t start, uint64_t count, formats_check check,
                                     unsigned threads, char *msg, size_t msg_len)
{
    return decode_range(out, m, BELLMAN_B_G2, start, count, check, threads, msg, msg_len);
}

cuzk_status bellman_params_decode_all(groth16_params_t *out, const bellman_params_map_t *m,
                                      formats_check check, unsigned threads, char *msg,
                                      size_t msg_len)
{
    memset(out, 0, sizeof(*out));
    cuzk_status st = CUZK_OK;
    out->vk = m->vk;
    out->vk.ic = malloc((m->vk.num_ic ? m->vk.num_ic : 1) * sizeof(g1_affine_t));
    if (!out->vk.ic) {
        memset(out, 0, sizeof(*out));
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    if (m->vk.num_ic)
        memcpy(out->vk.ic, m->vk.ic, m->vk.num_ic * sizeof(g1_affine_t));
    void **dst[BELLMAN_QUERY_COUNT] = {(void **)&out->h, (void **)&out->l, (void **)&out->a,
                                       (void **)&out->b_g1, (void **)&out->b_g2};
    size_t *num[BELLMAN_QUERY_COUNT] = {&out->num_h, &out->num_l, &out->num_a, &out->num_b_g1,
                                        &out->num_b_g2};
    for (int q = 0; q < BELLMAN_QUERY_COUNT && st == CUZK_OK; q++) {
        size_t elem = q == BELLMAN_B_G2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t);
        *dst[q] = malloc((m->count[q] ? m->count[q] : 1) * elem);
        if (!*dst[q]) {
            st = CUZK_ERR_OUT_OF_MEMORY;
            break;
        }
        *num[q] = (size_t)m->count[q];
        st = decode_range(*dst[q], m, q, 0, m->count[q], check, threads, msg, msg_len);
    }
    if (st != CUZK_OK)
        groth16_params_free(out);
    return st;
}

cuzk_status bellman_params_load(groth16_params_t *out, const char *path, formats_check check,
                                unsigned threads, char *msg, size_t msg_len)
{
    bellman_params_map_t m;
    cuzk_status st = bellman_params_open(&m, path, check, msg, msg_len);
    if (st != CUZK_OK) {
        memset(out, 0, sizeof(*out));
        return st;
    }
    st = bellman_params_decode_all(out, &m, check, threads, msg, msg_len);
    bellman_params_close(&m);
    return st;
}

/* ---- writing ----------------------------------------------------------- */

#define WRITE_BATCH 1024 /* points encoded per fwrite */

static cuzk_status write_query(FILE *f, int q, const void *pts, size_t n, char *msg, size_t msg_len)
{
    if (n > UINT32_MAX) {
        formats_msg(msg, msg_len, "%s: %zu points do not fit a u32 count", QUERY_NAME[q], n);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    uint8_t cnt[4];
    st_be32(cnt, (uint32_t)n);
    if (fwrite(cnt, 1, 4, f) != 4)
        return CUZK_ERR_IO;
    uint64_t pb = point_bytes(q);
    uint8_t *buf = malloc(WRITE_BATCH * pb);
    if (!buf)
        return CUZK_ERR_OUT_OF_MEMORY;
    cuzk_status st = CUZK_OK;
    for (size_t i = 0; i < n && st == CUZK_OK; i += WRITE_BATCH) {
        size_t k = n - i < WRITE_BATCH ? n - i : WRITE_BATCH;
        for (size_t t = 0; t < k; t++) {
            bool inf;
            if (q == BELLMAN_B_G2) {
                const g2_affine_t *p = (const g2_affine_t *)pts + i + t;
                inf = p->infinity;
                g2_affine_to_uncompressed(buf + t * pb, p);
            } else {
                const g1_affine_t *p = (const g1_affine_t *)pts + i + t;
                inf = p->infinity;
                g1_affine_to_uncompressed(buf + t * pb, p);
            }
            if (inf) {
                formats_msg(msg, msg_len, "%s[%zu] is the point at infinity", QUERY_NAME[q], i + t);
                st = CUZK_ERR_INVALID_ARGUMENT;
                break;
            }
        }
        if (st == CUZK_OK && fwrite(buf, 1, k * pb, f) != k * pb)
            st = CUZK_ERR_IO;
    }
    free(buf);
    return st;
}

cuzk_status bellman_params_write(const groth16_params_t *p, FILE *f, char *msg, size_t msg_len)
{
    uint64_t vk_size = bellman_vk_size(&p->vk);
    uint8_t *vk = malloc(vk_size);
    if (!vk)
        return CUZK_ERR_OUT_OF_MEMORY;
    cuzk_status st = bellman_vk_encode(vk, &p->vk, msg, msg_len);
    if (st == CUZK_OK && fwrite(vk, 1, vk_size, f) != vk_size)
        st = CUZK_ERR_IO;
    free(vk);
    const void *pts[BELLMAN_QUERY_COUNT] = {p->h, p->l, p->a, p->b_g1, p->b_g2};
    const size_t num[BELLMAN_QUERY_COUNT] = {p->num_h, p->num_l, p->num_a, p->num_b_g1,
                                             p->num_b_g2};
    for (int q = 0; q < BELLMAN_QUERY_COUNT && st == CUZK_OK; q++)
        st = write_query(f, q, pts[q], num[q], msg, msg_len);
    if (st == CUZK_ERR_IO)
        formats_msg(msg, msg_len, "parameters: write failed");
    return st;
}

cuzk_status bellman_params_save(const groth16_params_t *p, const char *path, char *msg,
                                size_t msg_len)
{
    formats_out o;
    cuzk_status st = formats_out_open(&o, path, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    st = bellman_params_write(p, o.f, msg, msg_len);
    if (st == CUZK_ERR_IO)
        formats_msg(msg, msg_len, "%s: write failed", o.tmp);
    return formats_out_finish(&o, st, msg, msg_len);
}
