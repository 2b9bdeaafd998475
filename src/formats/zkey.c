#include "formats/zkey.h"

#include <stdlib.h>
#include <string.h>

#include "field/limbs.h"
#include "formats/iden3_bin.h"

#define N8Q 48u
#define G1_BYTES (2 * N8Q)
#define G2_BYTES (4 * N8Q)

static const char *const POINTS_NAME[ZKEY_POINTS_COUNT] = {"A", "B1", "B2", "C", "H"};
static const uint32_t POINTS_SECTION[ZKEY_POINTS_COUNT] = {5, 6, 7, 8, 9};

/* One Fq coordinate: the stored bytes are the Montgomery limbs themselves. */
static bool fq_from_zkey(fp_t *r, const uint8_t *in)
{
    uint64_t l[FP_LIMBS];
    limbs_from_le(l, in, FP_LIMBS);
    if (!limbs_lt(l, FP_MODULUS, FP_LIMBS))
        return false;
    memcpy(r->l, l, sizeof(l));
    return true;
}

static bool all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

static cuzk_status g1_from_zkey(g1_affine_t *r, const uint8_t *in, formats_check check)
{
    if (all_zero(in, G1_BYTES)) {
        g1_affine_set_infinity(r);
        return CUZK_OK;
    }
    r->infinity = false;
    if (!fq_from_zkey(&r->x, in) || !fq_from_zkey(&r->y, in + N8Q))
        return CUZK_ERR_NOT_CANONICAL;
    if (check >= FORMATS_CHECK_CURVE && !g1_affine_is_on_curve(r))
        return CUZK_ERR_NOT_ON_CURVE;
    if (check >= FORMATS_CHECK_SUBGROUP && !g1_affine_in_subgroup(r))
        return CUZK_ERR_NOT_IN_SUBGROUP;
    return CUZK_OK;
}

static cuzk_status g2_from_zkey(g2_affine_t *r, const uint8_t *in, formats_check check)
{
    if (all_zero(in, G2_BYTES)) {
        g2_affine_set_infinity(r);
        return CUZK_OK;
    }
    r->infinity = false;
    if (!fq_from_zkey(&r->x.c0, in) || !fq_from_zkey(&r->x.c1, in + N8Q) ||
        !fq_from_zkey(&r->y.c0, in + 2 * N8Q) || !fq_from_zkey(&r->y.c1, in + 3 * N8Q))
        return CUZK_ERR_NOT_CANONICAL;
    if (check >= FORMATS_CHECK_CURVE && !g2_affine_is_on_curve(r))
        return CUZK_ERR_NOT_ON_CURVE;
    if (check >= FORMATS_CHECK_SUBGROUP && !g2_affine_in_subgroup(r))
        return CUZK_ERR_NOT_IN_SUBGROUP;
    return CUZK_OK;
}

static cuzk_status point_error(cuzk_status st, const zkey_t *z, const char *where, uint64_t i,
                               char *msg, size_t msg_len)
{
    const char *what = st == CUZK_ERR_NOT_CANONICAL  ? "a coordinate is not below q"
                       : st == CUZK_ERR_NOT_ON_CURVE ? "not on the curve"
                                                     : "not in the prime-order subgroup";
    formats_msg(msg, msg_len, "%s: %s, point %llu: %s", z->file.name, where, (unsigned long long)i,
                what);
    return st;
}

static cuzk_status read_protocol(const iden3_file_t *bin, char *msg, size_t msg_len)
{
    const uint8_t *d;
    uint64_t size;
    cuzk_status st = iden3_section_get(bin, 1, "protocol", &d, &size, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    if (size != 4) {
        formats_msg(msg, msg_len, "%s: section 1 (protocol): %llu bytes, expected 4",
                    bin->file->name, (unsigned long long)size);
        return CUZK_ERR_CORRUPT;
    }
    uint32_t p = ld_le32(d);
    if (p == 1)
        return CUZK_OK;
    formats_msg(msg, msg_len, "%s: a %s key; cuzk reads Groth16 keys only", bin->file->name,
                p == 2    ? "PLONK"
                : p == 10 ? "FFLONK"
                          : "non-Groth16");
    return CUZK_ERR_UNSUPPORTED;
}

/* Section 2: field sizes and primes, counts, verifying-key points. */
static cuzk_status read_header(zkey_t *z, const iden3_file_t *bin, formats_check check, char *msg,
                               size_t msg_len)
{
    const char *name = z->file.name;
    const char *sec = "section 2 (Groth16 header)";
    const uint8_t *d;
    uint64_t size;
    cuzk_status st = iden3_section_get(bin, 2, "Groth16 header", &d, &size, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    uint64_t off = 0;
    const iden3_prime want[2] = {IDEN3_PRIME_BLS12_381_Q, IDEN3_PRIME_BLS12_381_R};
    for (int k = 0; k < 2; k++) {
        if (size - off < 4 || ld_le32(d + off) > size - off - 4) {
            formats_msg(msg, msg_len, "%s: %s: %llu bytes cannot hold the %s prime", name, sec,
                        (unsigned long long)size, k == 0 ? "base-field" : "scalar-field");
            return CUZK_ERR_CORRUPT;
        }
        uint32_t n8 = ld_le32(d + off);
        st = iden3_check_prime(bin, sec, n8, d + off + 4, want[k], msg, msg_len);
        if (st != CUZK_OK)
            return st;
        off += 4 + (uint64_t)n8;
    }
    uint64_t expect = off + 12 + 3 * G1_BYTES + 3 * G2_BYTES;
    if (size != expect) {
        formats_msg(msg, msg_len, "%s: %s: %llu bytes, expected %llu", name, sec,
                    (unsigned long long)size, (unsigned long long)expect);
        return CUZK_ERR_CORRUPT;
    }
    z->num_vars = ld_le32(d + off);
    z->num_public = ld_le32(d + off + 4);
    z->domain_size = ld_le32(d + off + 8);
    off += 12;
    if ((uint64_t)z->num_public + 1 > z->num_vars) {
        formats_msg(msg, msg_len, "%s: %s: nPublic = %u needs more than nVars = %u signals", name,
                    sec, z->num_public, z->num_vars);
        return CUZK_ERR_CORRUPT;
    }
    if (z->domain_size == 0 || (z->domain_size & (z->domain_size - 1)) != 0 ||
        z->domain_size < (uint64_t)z->num_public + 1) {
        formats_msg(msg, msg_len,
                    "%s: %s: domainSize = %u is not a power of two of at least nPublic + 1", name,
                    sec, z->domain_size);
        return CUZK_ERR_CORRUPT;
    }
    static const char *const VK_NAME[6] = {"alpha1", "beta1",  "beta2",
                                           "gamma2", "delta1", "delta2"};
    groth16_vk_t *vk = &z->vk;
    void *pts[6] = {&vk->alpha_g1, &vk->beta_g1,  &vk->beta_g2,
                    &vk->gamma_g2, &vk->delta_g1, &vk->delta_g2};
    for (int k = 0; k < 6; k++) {
        bool g2 = k == 2 || k == 3 || k == 5;
        st = g2 ? g2_from_zkey(pts[k], d + off, check) : g1_from_zkey(pts[k], d + off, check);
        if (st != CUZK_OK) {
            char where[64];
            formats_msg(where, sizeof(where), "%s, %s", sec, VK_NAME[k]);
            return point_error(st, z, where, 0, msg, msg_len);
        }
        off += g2 ? G2_BYTES : G1_BYTES;
    }
    return CUZK_OK;
}

static cuzk_status read_ic(zkey_t *z, const iden3_file_t *bin, formats_check check, char *msg,
                           size_t msg_len)
{
    const uint8_t *d;
    uint64_t size;
    cuzk_status st = iden3_section_get(bin, 3, "IC", &d, &size, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    uint64_t n = (uint64_t)z->num_public + 1;
    if (size != n * G1_BYTES) {
        formats_msg(msg, msg_len, "%s: section 3 (IC): %llu bytes, expected %llu for %llu points",
                    z->file.name, (unsigned long long)size, (unsigned long long)(n * G1_BYTES),
                    (unsigned long long)n);
        return CUZK_ERR_CORRUPT;
    }
    z->vk.ic = malloc((size_t)n * sizeof(g1_affine_t));
    if (!z->vk.ic)
        return CUZK_ERR_OUT_OF_MEMORY;
    z->vk.num_ic = (size_t)n;
    for (uint64_t i = 0; i < n; i++) {
        st = g1_from_zkey(&z->vk.ic[i], d + i * G1_BYTES, check);
        if (st != CUZK_OK)
            return point_error(st, z, "section 3 (IC)", i, msg, msg_len);
    }
    return CUZK_OK;
}

static cuzk_status read_sizes(zkey_t *z, const iden3_file_t *bin, char *msg, size_t msg_len)
{
    const char *name = z->file.name;
    const uint8_t *d;
    uint64_t size;
    cuzk_status st = iden3_section_get(bin, 4, "coefficients", &d, &size, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    if (size < 4 || size != 4 + (uint64_t)ld_le32(d) * ZKEY_COEFF_BYTES) {
        formats_msg(msg, msg_len,
                    "%s: section 4 (coefficients): %llu bytes do not hold %u entries of %u "
                    "bytes",
                    name, (unsigned long long)size, size < 4 ? 0 : ld_le32(d), ZKEY_COEFF_BYTES);
        return CUZK_ERR_CORRUPT;
    }
    z->num_coeffs = ld_le32(d);
    z->coeffs = d + 4;
    uint64_t counts[ZKEY_POINTS_COUNT] = {z->num_vars, z->num_vars, z->num_vars,
                                          (uint64_t)z->num_vars - z->num_public - 1,
                                          z->domain_size};
    for (int k = 0; k < ZKEY_POINTS_COUNT; k++) {
        st = iden3_section_get(bin, POINTS_SECTION[k], POINTS_NAME[k], &d, &size, msg, msg_len);
        if (st != CUZK_OK)
            return st;
        uint64_t bytes = k == ZKEY_POINTS_B2 ? G2_BYTES : G1_BYTES;
        if (size != counts[k] * bytes) {
            formats_msg(msg, msg_len,
                        "%s: section %u (%s): %llu bytes, expected %llu for %llu points", name,
                        POINTS_SECTION[k], POINTS_NAME[k], (unsigned long long)size,
                        (unsigned long long)(counts[k] * bytes), (unsigned long long)counts[k]);
            return CUZK_ERR_CORRUPT;
        }
        z->points[k] = d;
        z->num_points[k] = counts[k];
    }
    return CUZK_OK;
}

static cuzk_status parse(zkey_t *z, formats_check check, char *msg, size_t msg_len)
{
    iden3_file_t bin;
    cuzk_status st = iden3_parse(&bin, &z->file, "zkey", 1, msg, msg_len);
    if (st == CUZK_OK)
        st = read_protocol(&bin, msg, msg_len);
    if (st == CUZK_OK)
        st = read_header(z, &bin, check, msg, msg_len);
    if (st == CUZK_OK)
        st = read_ic(z, &bin, check, msg, msg_len);
    if (st == CUZK_OK)
        st = read_sizes(z, &bin, msg, msg_len);
    return st;
}

cuzk_status zkey_open(zkey_t *z, const char *path, formats_check check, char *msg, size_t msg_len)
{
    memset(z, 0, sizeof(*z));
    cuzk_status st = mapped_file_open(&z->file, path, msg, msg_len);
    if (st == CUZK_OK)
        st = parse(z, check, msg, msg_len);
    if (st != CUZK_OK)
        zkey_close(z);
    return st;
}

cuzk_status zkey_open_buffer(zkey_t *z, const void *data, size_t size, const char *name,
                             formats_check check, char *msg, size_t msg_len)
{
    memset(z, 0, sizeof(*z));
    mapped_file_from_buffer(&z->file, data, size, name);
    cuzk_status st = parse(z, check, msg, msg_len);
    if (st != CUZK_OK)
        zkey_close(z);
    return st;
}

void zkey_close(zkey_t *z)
{
    groth16_vk_free(&z->vk);
    mapped_file_close(&z->file);
    memset(z, 0, sizeof(*z));
}

static cuzk_status range_ok(const zkey_t *z, zkey_points which, uint64_t start, uint64_t count,
                            char *msg, size_t msg_len)
{
    if ((unsigned)which >= ZKEY_POINTS_COUNT || start > z->num_points[which] ||
        count > z->num_points[which] - start) {
        formats_msg(msg, msg_len, "%s: points %llu..%llu of a section requested out of range",
                    z->file.name, (unsigned long long)start, (unsigned long long)(start + count));
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    return CUZK_OK;
}

typedef struct decode_job {
    void *out;
    const uint8_t *in;
    bool g2;
    formats_check check;
} decode_job;

static cuzk_status decode_one(void *ctx, uint64_t i)
{
    const decode_job *j = ctx;
    if (j->g2)
        return g2_from_zkey((g2_affine_t *)j->out + i, j->in + i * G2_BYTES, j->check);
    return g1_from_zkey((g1_affine_t *)j->out + i, j->in + i * G1_BYTES, j->check);
}

static cuzk_status decode_range(void *out, const zkey_t *z, zkey_points which, uint64_t start,
                                uint64_t count, formats_check check, unsigned threads, char *msg,
                                size_t msg_len)
{
    cuzk_status st = range_ok(z, which, start, count, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    bool g2 = which == ZKEY_POINTS_B2;
    decode_job j = {.out = out,
                    .in = z->points[which] + start * (g2 ? G2_BYTES : G1_BYTES),
                    .g2 = g2,
                    .check = check};
    size_t grain = check == FORMATS_CHECK_SUBGROUP ? 64 : 4096;
    uint64_t bad = formats_parallel_first_failure(count, grain, threads, decode_one, &j);
    if (bad == UINT64_MAX)
        return CUZK_OK;
    char where[32];
    formats_msg(where, sizeof(where), "section %u (%s)", POINTS_SECTION[which], POINTS_NAME[which]);
    return point_error(decode_one(&j, bad), z, where, start + bad, msg, msg_len);
}

cuzk_status zkey_decode_g1(g1_affine_t *out, const zkey_t *z, zkey_points which, uint64_t start,
                           uint64_t count, formats_check check, unsigned threads, char *msg,
                           size_t msg_len)
{
    if (which == ZKEY_POINTS_B2) {
        formats_msg(msg, msg_len, "%s: section 7 (B2) holds G2 points", z->file.name);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    return decode_range(out, z, which, start, count, check, threads, msg, msg_len);
}

cuzk_status zkey_decode_g2(g2_affine_t *out, const zkey_t *z, uint64_t start, uint64_t count,
                           formats_check check, unsigned threads, char *msg, size_t msg_len)
{
    return decode_range(out, z, ZKEY_POINTS_B2, start, count, check, threads, msg, msg_len);
}
