#include "formats/zkey_write.h"

#include <stdlib.h>
#include <string.h>

#include "field/limbs.h"
#include "field/scalar_slots.h"
#include "formats/circom_r1cs.h"
#include "groth16/zkey_setup.h"

/* Bytes of a base-field coordinate: BLS12-381's q is 381 bits, BN254's 254;
 * the scalar fields' are both 32 bytes. */
#define N8Q_BLS12_381 48u
#define N8Q_BN254 32u
#define N8R 32u
#define MAX_G2_BYTES (4 * N8Q_BLS12_381)
#define MAX_HEADER_BYTES                                                                           \
    (4 + N8Q_BLS12_381 + 4 + N8R + 12 + 3 * 2 * N8Q_BLS12_381 + 3 * MAX_G2_BYTES)
#define CS_HASH_BYTES 64
#define BATCH 4096 /* points or coefficients encoded per write */

_Static_assert(BN254_G1_BYTES == 2 * N8Q_BN254 && BN254_G2_BYTES == 4 * N8Q_BN254,
               "BN254's zkey encodings are two and four coordinates of 32 bytes");

/* The verifying key of either curve, as the header and section 3 need it:
 * points of the writer's curve. */
typedef struct vk_points {
    const void *alpha_g1, *beta_g1, *beta_g2, *gamma_g2, *delta_g1, *delta_g2;
    const void *ic;
    size_t num_ic;
} vk_points;

static const char *const POINTS_NAME[ZKEY_POINTS_COUNT] = {"A", "B1", "B2", "C", "H"};

static void st_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void st_le64(uint8_t *p, uint64_t v)
{
    st_le32(p, (uint32_t)v);
    st_le32(p + 4, (uint32_t)(v >> 32));
}

/* Coordinates are written as the Fp code keeps them, in Montgomery form
 * (BN254's encoders, bn254_g1_affine_to_zkey and _g2_, likewise). */
static void g1_to_zkey(uint8_t *out, const g1_affine_t *p)
{
    if (p->infinity) {
        memset(out, 0, 2 * N8Q_BLS12_381);
        return;
    }
    limbs_to_le(out, p->x.l, FP_LIMBS);
    limbs_to_le(out + N8Q_BLS12_381, p->y.l, FP_LIMBS);
}

static void g2_to_zkey(uint8_t *out, const g2_affine_t *p)
{
    if (p->infinity) {
        memset(out, 0, 4 * N8Q_BLS12_381);
        return;
    }
    limbs_to_le(out, p->x.c0.l, FP_LIMBS);
    limbs_to_le(out + N8Q_BLS12_381, p->x.c1.l, FP_LIMBS);
    limbs_to_le(out + 2 * N8Q_BLS12_381, p->y.c0.l, FP_LIMBS);
    limbs_to_le(out + 3 * N8Q_BLS12_381, p->y.c1.l, FP_LIMBS);
}

static uint64_t g1_bytes(const zkey_writer *w)
{
    return 2 * (uint64_t)w->n8q;
}

static uint64_t g2_bytes(const zkey_writer *w)
{
    return 4 * (uint64_t)w->n8q;
}

/* One point of the writer's curve (G2 when g2) at p, encoded into out. */
static void point_to_zkey(const zkey_writer *w, bool g2, uint8_t *out, const void *p)
{
    if (w->curve == CURVE_BN254) {
        if (g2)
            bn254_g2_affine_to_zkey(out, p);
        else
            bn254_g1_affine_to_zkey(out, p);
    } else {
        if (g2)
            g2_to_zkey(out, p);
        else
            g1_to_zkey(out, p);
    }
}

/* The size of one point in memory (the caller's arrays). */
static size_t point_size(const zkey_writer *w, bool g2)
{
    if (w->curve == CURVE_BN254)
        return g2 ? sizeof(bn254_g2_affine_t) : sizeof(bn254_g1_affine_t);
    return g2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t);
}

static uint64_t points_bytes(const zkey_writer *w, int which)
{
    return which == ZKEY_POINTS_B2 ? g2_bytes(w) : g1_bytes(w);
}

static uint64_t points_count(const zkey_writer *w, int which)
{
    switch (which) {
    case ZKEY_POINTS_C:
        return (uint64_t)w->num_vars - w->num_public - 1;
    case ZKEY_POINTS_H:
        return w->domain_size;
    default:
        return w->num_vars;
    }
}

static cuzk_status section_start(zkey_writer *w, uint32_t id, uint64_t size, char *msg,
                                 size_t msg_len)
{
    uint8_t h[12];
    st_le32(h, id);
    st_le64(h + 4, size);
    return formats_out_write(&w->out, h, sizeof(h), msg, msg_len);
}

/* Section 2: the primes, the counts and the verifying key's points. */
static cuzk_status write_header(zkey_writer *w, const vk_points *vk, char *msg, size_t msg_len)
{
    uint8_t h[MAX_HEADER_BYTES];
    uint8_t *p = h;
    const uint64_t g1 = g1_bytes(w), g2 = g2_bytes(w);
    bool bn254 = w->curve == CURVE_BN254;
    st_le32(p, w->n8q);
    limbs_to_le(p + 4, bn254 ? BN254_FP_MODULUS : FP_MODULUS, bn254 ? BN254_FP_LIMBS : FP_LIMBS);
    p += 4 + w->n8q;
    st_le32(p, N8R);
    limbs_to_le(p + 4, bn254 ? BN254_FR_MODULUS : FR_MODULUS, FR_LIMBS);
    p += 4 + N8R;
    st_le32(p, w->num_vars);
    st_le32(p + 4, w->num_public);
    st_le32(p + 8, w->domain_size);
    p += 12;
    point_to_zkey(w, false, p, vk->alpha_g1);
    point_to_zkey(w, false, p + g1, vk->beta_g1);
    p += 2 * g1;
    point_to_zkey(w, true, p, vk->beta_g2);
    point_to_zkey(w, true, p + g2, vk->gamma_g2);
    p += 2 * g2;
    point_to_zkey(w, false, p, vk->delta_g1);
    point_to_zkey(w, true, p + g1, vk->delta_g2);
    p += g1 + g2;
    size_t size = (size_t)(p - h);
    cuzk_status st = section_start(w, 2, size, msg, msg_len);
    return st == CUZK_OK ? formats_out_write(&w->out, h, size, msg, msg_len) : st;
}

/* Encodes count points of section `which` (or IC, as G1) and writes them. */
static cuzk_status write_points(zkey_writer *w, int which, const void *pts, uint64_t count,
                                char *msg, size_t msg_len)
{
    const bool g2 = which == ZKEY_POINTS_B2;
    const uint64_t pb = points_bytes(w, which);
    const size_t size = point_size(w, g2);
    const uint8_t *in = pts;
    cuzk_status st = CUZK_OK;
    for (uint64_t i = 0; i < count && st == CUZK_OK; i += BATCH) {
        uint64_t k = count - i < BATCH ? count - i : BATCH;
        for (uint64_t t = 0; t < k; t++)
            point_to_zkey(w, g2, w->buf + t * pb, in + (size_t)(i + t) * size);
        st = formats_out_write(&w->out, w->buf, (size_t)(k * pb), msg, msg_len);
    }
    return st;
}

/* One coefficient entry: matrix, row, signal, v·2^512 mod r. Either
 * field holds v as v·2^256; entering Montgomery form once more gives
 * v·2^512. v is an element of curve's scalar field (BN254's in an fr_t
 * slot). */
static void coeff_to_zkey(uint8_t *out, curve_id curve, uint32_t matrix, uint32_t row,
                          uint32_t signal, const fr_t *v)
{
    fr_t x;
    st_le32(out, matrix);
    st_le32(out + 4, row);
    st_le32(out + 8, signal);
    if (curve == CURVE_BN254)
        bn254_fr_from_raw(bn254_fr_slots(&x), v->l);
    else
        fr_from_raw(&x, v->l);
    limbs_to_le(out + 12, x.l, FR_LIMBS);
}

typedef struct coeff_job {
    zkey_writer *w;
    uint64_t count; /* A and B terms (first pass) */
    size_t k;       /* entries in w->buf (second pass) */
    char *msg;
    size_t msg_len;
} coeff_job;

static cuzk_status count_term(void *ctx, uint32_t row, unsigned lc, uint32_t wire,
                              const fr_t *coeff)
{
    (void)row, (void)wire, (void)coeff;
    coeff_job *j = ctx;
    j->count += lc < 2;
    return CUZK_OK;
}

static cuzk_status flush_coeffs(coeff_job *j)
{
    cuzk_status st =
        formats_out_write(&j->w->out, j->w->buf, j->k * ZKEY_COEFF_BYTES, j->msg, j->msg_len);
    j->k = 0;
    return st;
}

static cuzk_status add_coeff(coeff_job *j, uint32_t matrix, uint32_t row, uint32_t signal,
                             const fr_t *v)
{
    coeff_to_zkey(j->w->buf + j->k * ZKEY_COEFF_BYTES, j->w->curve, matrix, row, signal, v);
    return ++j->k == BATCH ? flush_coeffs(j) : CUZK_OK;
}

static cuzk_status write_term(void *ctx, uint32_t row, unsigned lc, uint32_t wire,
                              const fr_t *coeff)
{
    return lc < 2 ? add_coeff(ctx, lc, row, wire, coeff) : CUZK_OK;
}

/* Section 4 from the .r1cs file: the A then B terms of each constraint in
 * the file's order (snarkjs src/zkey_new.js, processConstraints), then
 * snarkjs's public-input rows. */
static cuzk_status write_coeffs(zkey_writer *w, const mapped_file_t *r1cs, uint32_t num_constraints,
                                char *msg, size_t msg_len)
{
    coeff_job j = {.w = w, .msg = msg, .msg_len = msg_len};
    cuzk_status st = circom_r1cs_for_each_term(r1cs, count_term, NULL, &j, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    uint64_t count = j.count + (uint64_t)w->num_public + 1;
    if (count > UINT32_MAX) {
        formats_msg(msg, msg_len, "%s: %llu coefficients do not fit the key's u32 count",
                    w->out.path, (unsigned long long)count);
        return CUZK_ERR_UNSUPPORTED;
    }
    uint8_t n[4];
    st_le32(n, (uint32_t)count);
    st = section_start(w, 4, 4 + count * ZKEY_COEFF_BYTES, msg, msg_len);
    if (st == CUZK_OK)
        st = formats_out_write(&w->out, n, 4, msg, msg_len);
    if (st == CUZK_OK)
        st = circom_r1cs_for_each_term(r1cs, write_term, NULL, &j, msg, msg_len);
    const fr_t *one = w->curve == CURVE_BN254 ? bn254_fr_as_slots_const(&BN254_FR_ONE) : &FR_ONE;
    for (uint32_t i = 0; i <= w->num_public && st == CUZK_OK; i++)
        st = add_coeff(&j, 0, num_constraints + i, i, one);
    if (st == CUZK_OK && j.k > 0)
        st = flush_coeffs(&j);
    return st;
}

static cuzk_status writer_open(zkey_writer *w, const char *path, const mapped_file_t *r1cs,
                               uint32_t domain_size, curve_id curve, const vk_points *vk, char *msg,
                               size_t msg_len)
{
    memset(w, 0, sizeof(*w));
    w->section = -1;
    circom_r1cs_header h;
    cuzk_status st = circom_r1cs_read_header(&h, r1cs, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    if (h.curve != curve) {
        formats_msg(msg, msg_len, "%s: a key for the %s curve, but %s is a circuit over %s", path,
                    curve_id_snarkjs_name(curve), r1cs->name, curve_id_snarkjs_name(h.curve));
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    w->curve = curve;
    w->n8q = curve == CURVE_BN254 ? N8Q_BN254 : N8Q_BLS12_381;
    uint64_t npub = circom_r1cs_num_public(&h);
    if (vk->num_ic != npub + 1 || domain_size == 0 || (domain_size & (domain_size - 1)) != 0 ||
        domain_size <= h.num_constraints + npub) {
        formats_msg(msg, msg_len,
                    "%s: %llu IC points and a domain of %u do not fit %s (%u constraints, %llu "
                    "public signals)",
                    path, (unsigned long long)vk->num_ic, domain_size, r1cs->name,
                    h.num_constraints, (unsigned long long)npub);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    w->num_vars = h.num_wires;
    w->num_public = (uint32_t)npub;
    w->domain_size = domain_size;
    /* Room for BATCH of the largest item: a G2 point. */
    w->buf = malloc(BATCH * MAX_G2_BYTES);
    if (!w->buf)
        return CUZK_ERR_OUT_OF_MEMORY;
    st = formats_out_open(&w->out, path, msg, msg_len);
    if (st != CUZK_OK) {
        free(w->buf);
        w->buf = NULL;
        return st;
    }
    uint8_t head[12 + 12 + 4];
    memcpy(head, "zkey", 4);
    st_le32(head + 4, 1);  /* version */
    st_le32(head + 8, 10); /* sections */
    st_le32(head + 12, 1); /* section 1: 4 bytes, protocol 1 = Groth16 */
    st_le64(head + 16, 4);
    st_le32(head + 24, 1);
    st = formats_out_write(&w->out, head, sizeof(head), msg, msg_len);
    if (st == CUZK_OK)
        st = write_header(w, vk, msg, msg_len);
    if (st == CUZK_OK)
        st = section_start(w, 3, (uint64_t)vk->num_ic * g1_bytes(w), msg, msg_len);
    if (st == CUZK_OK)
        st = write_points(w, ZKEY_POINTS_A, vk->ic, vk->num_ic, msg, msg_len);
    if (st == CUZK_OK)
        st = write_coeffs(w, r1cs, h.num_constraints, msg, msg_len);
    if (st != CUZK_OK)
        st = zkey_writer_finish(w, st, msg, msg_len);
    return st;
}

cuzk_status zkey_writer_open(zkey_writer *w, const char *path, const mapped_file_t *r1cs,
                             uint32_t domain_size, const groth16_vk_t *vk, char *msg,
                             size_t msg_len)
{
    vk_points v = {&vk->alpha_g1, &vk->beta_g1,  &vk->beta_g2, &vk->gamma_g2,
                   &vk->delta_g1, &vk->delta_g2, vk->ic,       vk->num_ic};
    return writer_open(w, path, r1cs, domain_size, CURVE_BLS12_381, &v, msg, msg_len);
}

cuzk_status zkey_writer_open_bn254(zkey_writer *w, const char *path, const mapped_file_t *r1cs,
                                   uint32_t domain_size, const bn254_groth16_vk_t *vk, char *msg,
                                   size_t msg_len)
{
    vk_points v = {&vk->alpha_g1, &vk->beta_g1,  &vk->beta_g2, &vk->gamma_g2,
                   &vk->delta_g1, &vk->delta_g2, vk->ic,       vk->num_ic};
    return writer_open(w, path, r1cs, domain_size, CURVE_BN254, &v, msg, msg_len);
}

/* Leaves the current section (which must be complete) and starts the
 * following ones up to `to`, writing their section headers. */
static cuzk_status advance(zkey_writer *w, int to, char *msg, size_t msg_len)
{
    while (w->section < to) {
        if (w->section >= 0 && w->written != points_count(w, w->section)) {
            formats_msg(msg, msg_len, "%s: section %d (%s) left with %llu of its %llu points",
                        w->out.path, 5 + w->section, POINTS_NAME[w->section],
                        (unsigned long long)w->written,
                        (unsigned long long)points_count(w, w->section));
            return CUZK_ERR_INVALID_ARGUMENT;
        }
        w->section++;
        w->written = 0;
        if (w->section < ZKEY_POINTS_COUNT) {
            uint64_t size = points_count(w, w->section) * points_bytes(w, w->section);
            cuzk_status st = section_start(w, 5 + (uint32_t)w->section, size, msg, msg_len);
            if (st != CUZK_OK)
                return st;
        }
    }
    return CUZK_OK;
}

cuzk_status zkey_writer_points(zkey_writer *w, zkey_points which, const void *points,
                               uint64_t count, char *msg, size_t msg_len)
{
    if (!w->out.f)
        return CUZK_ERR_INVALID_ARGUMENT;
    if ((int)which < w->section || (unsigned)which >= ZKEY_POINTS_COUNT) {
        formats_msg(msg, msg_len, "%s: points of section %u given after section %d", w->out.path,
                    5 + (unsigned)which, 5 + w->section);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    cuzk_status st = advance(w, (int)which, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    if (count > points_count(w, which) - w->written) {
        formats_msg(msg, msg_len, "%s: section %u (%s): %llu points more than its %llu",
                    w->out.path, 5 + (unsigned)which, POINTS_NAME[which],
                    (unsigned long long)(w->written + count - points_count(w, which)),
                    (unsigned long long)points_count(w, which));
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    st = write_points(w, which, points, count, msg, msg_len);
    if (st == CUZK_OK)
        w->written += count;
    return st;
}

cuzk_status zkey_writer_finish(zkey_writer *w, cuzk_status st, char *msg, size_t msg_len)
{
    if (st == CUZK_OK && w->out.f)
        st = advance(w, ZKEY_POINTS_COUNT, msg, msg_len);
    if (st == CUZK_OK && w->out.f) {
        uint8_t c[CS_HASH_BYTES + 4] = {0}; /* zero csHash, no contributions */
        st = section_start(w, 10, sizeof(c), msg, msg_len);
        if (st == CUZK_OK)
            st = formats_out_write(&w->out, c, sizeof(c), msg, msg_len);
    }
    st = formats_out_finish(&w->out, st, msg, msg_len);
    free(w->buf);
    w->buf = NULL;
    return st;
}

/* ------------------------------------------- a development key to a file */

typedef struct dev_sink {
    zkey_writer w;
    const char *path;
    const mapped_file_t *r1cs;
    bool opened;
    char *msg;
    size_t msg_len;
} dev_sink;

static cuzk_status dev_begin(void *ctx, const groth16_zkey_shape *shape, const groth16_vk_t *vk)
{
    dev_sink *d = ctx;
    cuzk_status st =
        zkey_writer_open(&d->w, d->path, d->r1cs, shape->domain_size, vk, d->msg, d->msg_len);
    d->opened = st == CUZK_OK;
    return st;
}

static cuzk_status dev_begin_bn254(void *ctx, const groth16_zkey_shape *shape,
                                   const bn254_groth16_vk_t *vk)
{
    dev_sink *d = ctx;
    cuzk_status st =
        zkey_writer_open_bn254(&d->w, d->path, d->r1cs, shape->domain_size, vk, d->msg, d->msg_len);
    d->opened = st == CUZK_OK;
    return st;
}

static cuzk_status dev_points(void *ctx, groth16_zkey_part part, const void *points, size_t count)
{
    static const zkey_points SECTION[GROTH16_ZKEY_PART_COUNT] = {
        [GROTH16_ZKEY_PART_A] = ZKEY_POINTS_A,   [GROTH16_ZKEY_PART_B1] = ZKEY_POINTS_B1,
        [GROTH16_ZKEY_PART_B2] = ZKEY_POINTS_B2, [GROTH16_ZKEY_PART_C] = ZKEY_POINTS_C,
        [GROTH16_ZKEY_PART_H] = ZKEY_POINTS_H,
    };
    dev_sink *d = ctx;
    return zkey_writer_points(&d->w, SECTION[part], points, count, d->msg, d->msg_len);
}

cuzk_status zkey_write_dev(const char *path, const mapped_file_t *r1cs, const r1cs_t *r, rng_t *rng,
                           const groth16_setup_opts *opts, char *msg, size_t msg_len)
{
    if (msg && msg_len)
        msg[0] = 0;
    circom_r1cs_header h;
    cuzk_status st = circom_r1cs_read_header(&h, r1cs, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    if (r->curve != h.curve || r->num_constraints != h.num_constraints ||
        r1cs_num_vars(r) != h.num_wires || r->num_inputs != circom_r1cs_num_public(&h) + 1) {
        formats_msg(msg, msg_len, "%s: the constraint system given is not the one of %s", path,
                    r1cs->name);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    dev_sink d = {.path = path, .r1cs = r1cs, .msg = msg, .msg_len = msg_len};
    groth16_zkey_sink sink = {
        .begin = dev_begin, .begin_bn254 = dev_begin_bn254, .points = dev_points, .ctx = &d};
    st = groth16_zkey_setup_dev(r, rng, opts, &sink);
    if (d.opened)
        st = zkey_writer_finish(&d.w, st, msg, msg_len);
    if (st != CUZK_OK && msg && msg_len && !msg[0])
        formats_msg(msg, msg_len, "%s: making the key failed: %s", path, cuzk_status_str(st));
    return st;
}
